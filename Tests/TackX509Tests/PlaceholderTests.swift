import Testing
import TackX509
