import Testing
import TackSHA2
