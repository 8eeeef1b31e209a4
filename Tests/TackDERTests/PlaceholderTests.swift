import Testing
import TackDER
