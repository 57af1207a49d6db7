import ArgumentParser

/// The `metronome` command: plays at once, or runs one of its subcommands.
@main
struct Metronome: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metronome",
    abstract: "A sample-exact command-line metronome.",
    version: "0.1.0",
    subcommands: [PlayCommand.self],
    defaultSubcommand: PlayCommand.self
  )
}
