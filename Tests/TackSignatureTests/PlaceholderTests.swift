import Testing
import TackSignature
