import ArgumentParser

/// `metronome journal`'s options: which takes, and what to do with them (show them, draw their
/// trend, export them or forget them).
public struct JournalCommandOptions: ParsableArguments, Sendable {
  /// The journal's file.
  @OptionGroup public var file: JournalFileOption

  /// `--tag`: only the takes kept under this name.
  @Option(help: ArgumentHelp("Only takes with this tag.", valueName: "name"))
  public var tag: String?

  /// `--since`: only takes from this day on.
  @Option(help: ArgumentHelp("Only takes from this day (2026-11-01) or these last days (7d, 4w) on.", valueName: "day"))
  public var since: String?

  /// `--day`: only the takes of one day.
  @Option(help: ArgumentHelp("Only takes of this day (2026-11-27, today, yesterday).", valueName: "day"))
  public var day: String?

  /// `--last`: only the last few takes.
  @Option(help: ArgumentHelp("Only the last N takes.", valueName: "N"))
  public var last: Int?

  /// `--report`: the trend drawn to a file.
  @Option(
    help: ArgumentHelp("Write the trend to this file: .html, .svg or .csv.", valueName: "file"),
    completion: .file(extensions: ["html", "svg", "csv"]))
  public var report: String?

  /// `--export`: the takes and their hits to a file.
  @Option(
    help: ArgumentHelp("Write the takes and every hit to this file: .ndjson.", valueName: "file"),
    completion: .file(extensions: ["ndjson"]))
  public var export: String?

  /// `--forget`: the takes chosen taken out of the journal.
  @Flag(help: "Forget the takes chosen (by --tag, --since, --day, --last or --all).")
  public var forget = false

  /// `--all`: every take, for `--forget`.
  @Flag(help: "With --forget: every take.")
  public var all = false

  /// Every take of the standard journal, shown.
  public init() {}
}
