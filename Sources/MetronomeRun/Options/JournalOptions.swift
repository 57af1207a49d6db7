import ArgumentParser

/// Keeping a live run in the practice journal: under which name, or not at all.
public struct JournalOptions: ParsableArguments, Sendable {
  /// `--tag`: the exercise or song the take is kept under.
  @Option(help: ArgumentHelp("Keep the take in the journal under this name.", valueName: "name"))
  public var tag: String?

  /// `--no-journal`: nothing kept.
  @Flag(help: ArgumentHelp("Keep nothing of this run in the journal.", visibility: .fullHelpOnly))
  public var noJournal = false

  /// Kept, untagged, in the standard journal.
  public init() {}
}

/// The journal's file, for playing and for `metronome journal` alike.
public struct JournalFileOption: ParsableArguments, Sendable {
  /// `--journal`: another journal file.
  @Option(
    help: ArgumentHelp(
      "The journal file (~/.local/state/metronome/journal.sqlite3).", valueName: "file", visibility: .fullHelpOnly),
    completion: .file(extensions: ["sqlite3"]))
  public var journal: String?

  /// The standard journal.
  public init() {}
}
