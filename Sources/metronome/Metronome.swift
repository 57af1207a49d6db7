import ArgumentParser
import Glibc
import MetronomeRun
import TerminalUI

/// The `metronome` command: plays at once, or runs one of its subcommands.
@main
struct Metronome: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metronome",
    abstract: "A sample-exact command-line metronome.",
    version: "metronome \(version) (commit \(buildCommit); \(linkLicence))",
    subcommands: [
      PlayCommand.self, ExportCommand.self, DevicesCommand.self, KlickCommand.self, CalibrateCommand.self,
      JournalCommand.self,
    ],
    defaultSubcommand: PlayCommand.self
  )

  /// The commands other than playing, by name, and `help`.
  static var otherCommands: [String] {
    configuration.subcommands.compactMap { $0.configuration.commandName }.filter { $0 != "play" } + ["help"]
  }

  /// The release, as klick's `-V` and the package name it.
  static let version = "0.1.0"

  #if AbletonLink
  /// Whether the binary holds Ableton Link, and so under which licence it may be passed on.
  static let linkLicence = "with Ableton Link: GPL-2.0-or-later"
  #else
  /// Whether the binary holds Ableton Link, and so under which licence it may be passed on.
  static let linkLicence = "without Ableton Link: Apache-2.0"
  #endif

  /// Runs the command line; `metronome --help` shows what a player needs first, on a screen: the
  /// keys and options of playing (the default command; `--help-hidden` every option), then the
  /// other commands.
  static func main() {
    // A reader that goes away (`metronome export -o - | head -c 100`) is a write error to
    // report, not a signal that ends the process without a word.
    signal(SIGPIPE, SIG_IGN)
    let arguments = Array(CommandLine.arguments.dropFirst())
    // Called as klick (a link named so), it takes klick's command line.
    if CommandLine.arguments.first?.split(separator: "/").last == "klick" {
      main(["klick"] + arguments)
      return
    }
    if CompletionShell.isAsked(by: arguments) {
      CompletedCommandLine.answer(arguments)
      return
    }
    // Before the rest is read: a user asking which devices there are has not finished the command
    // line yet, and a value that does not read yet (`--count-in x`) is no error then.
    let played = arguments.first.map { !otherCommands.contains($0) } ?? true
    if played, arguments.prefix(while: { $0 != "--" }).contains("--list-devices") {
      DevicesCommand.printDevices()
      return
    }
    let full = arguments == ["--help-hidden"]
    guard full || [["--help"], ["-h"], ["help"]].contains(arguments) else {
      main(nil)
      return
    }
    print(helpMessage(for: PlayCommand.self, includeHidden: full), terminator: "")
    print("\nOTHER COMMANDS (metronome help NAME): export, devices, klick, calibrate, journal")
  }
}

extension Metronome {
  /// Runs `body` for `command`; the one place where an error becomes a message and an exit status.
  ///
  /// A usage error is shown as ArgumentParser shows bad input (`Error: …`, the usage, status 64);
  /// a file's error is its one located line (65 or 66); a run that failed says `Error: …` (1);
  /// one that a signal ended, a note and the shell's status for it.
  static func run(_ command: any ParsableCommand.Type, _ body: () throws(RunError) -> Void) {
    do {
      try body()
    } catch {
      switch error.kind {
      case .usage:
        let name = command.configuration.commandName ?? ""
        TextOutput.standardError.write(
          """
          Error: \(error.message)
          Usage: \(usageString(for: command))
            See 'metronome \(name) --help' for more information.

          """)
      case .data, .input: TextOutput.standardError.write(error.message + "\n")
      case .runtime: TextOutput.standardError.write("Error: \(error.message)\n")
      case .interrupted: report(error.message)
      }
      Glibc.exit(error.status)
    }
  }
}
