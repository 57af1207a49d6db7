import ArgumentParser
import Glibc
import TerminalUI

/// The `metronome` command: plays at once, or runs one of its subcommands.
@main
struct Metronome: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metronome",
    abstract: "A sample-exact command-line metronome.",
    version: "0.1.0",
    subcommands: [PlayCommand.self, ExportCommand.self, DevicesCommand.self],
    defaultSubcommand: PlayCommand.self
  )

  /// Runs the command line; `metronome --help` shows what a player needs first: every option
  /// and key of playing (the default command), then the other commands.
  static func main() {
    // A reader that goes away (`metronome export -o - | head -c 100`) is a write error to
    // report, not a signal that ends the program without a word.
    signal(SIGPIPE, SIG_IGN)
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard [["--help"], ["-h"], ["help"]].contains(arguments) else {
      main(nil)
      return
    }
    print(helpMessage(for: PlayCommand.self))
    print(
      """

      OTHER COMMANDS:
        metronome export      \(ExportCommand.configuration.abstract)
        metronome devices     \(DevicesCommand.configuration.abstract)

        See 'metronome help export' for the options of export.
      """)
  }
}

extension Metronome {
  /// Ends the program as ArgumentParser does for bad input found while parsing, for input that
  /// can only be checked later (a keys script on standard input): `Error: …`, the usage, exit 64.
  static func exitWithUsage(of command: any ParsableCommand.Type, _ error: any Error) -> Never {
    let name = command.configuration.commandName ?? ""
    let message = """
      Error: \(error)
      Usage: \(usageString(for: command))
        See 'metronome \(name) --help' for more information.

      """
    TextOutput.standardError.write(message)
    Glibc.exit(ExitCode.validationFailure.rawValue)
  }

  /// Ends the program with one line on standard error and `status`, for input whose fault the
  /// usage would not explain: a file that cannot be read, an error at a line of a map.
  static func exit(saying line: String, status: Int32) -> Never {
    TextOutput.standardError.write(line + "\n")
    Glibc.exit(status)
  }
}

/// Writes `metronome: line` to standard error: a note, not an error.
func report(_ line: String) {
  TextOutput.standardError.write("metronome: \(line)\n")
}
