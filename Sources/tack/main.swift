// tack: certificate pins, chains and trust, in pure Swift. The only place that exits.

import Foundation

exit(Tack.run(Array(CommandLine.arguments.dropFirst()), io: .standard()).rawValue)
