import ArgumentParser
import MetronomeRun

/// `metronome journal`: the takes kept as the player played, their trend, a page of it, or them
/// taken away.
struct JournalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "journal",
    abstract: "Show the takes kept as you played and their trend; draw it, export it or forget takes.",
    discussion: """
      Every live run is kept as it ends in ~/.local/state/metronome/journal.sqlite3 \
      ($XDG_STATE_HOME, or --journal FILE; --no-journal keeps nothing): when, how long, the \
      meters and tempos played, --tag, and with --listen every hit and the take's figures. \
      This shows each take, then for each tag the minutes a day, the fastest tempo at which \
      at least 90% of the hits were within tolerance, and the mean and deviation a day. \
      Nothing leaves the machine. Example: metronome journal --tag groove --report groove.html
      """
  )

  @OptionGroup var options: JournalCommandOptions

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in try JournalRequest(options).run() }
  }
}
