// tack: the command-line tool. Subcommands arrive with their issues.
let usage = """
    tack — certificate pins, chains and trust, in pure Swift

    USAGE: tack <command> [options]

    COMMANDS:
      pin        print the SPKI pin of each certificate (coming with issue 4)
      help       show this help
    """
print(usage)
