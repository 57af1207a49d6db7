import ArgumentParser

/// Every option of playing, apart from its words: one group, which the shells' completions
/// offer where no command is named.
///
/// Its groups are its own rather than grouped again (what to play, where): ArgumentParser checks
/// every group of a command line against each other on each run of a debug build, at a cost that
/// grows with every level of nesting (4.3 s a run with one more level, against 0.6 s).
public struct PlayOptions: ParsableArguments, Sendable {
  /// The rhythm.
  @OptionGroup(title: "Rhythm and length") public var rhythm: RhythmOptions
  /// How long.
  @OptionGroup(title: "Rhythm and length") public var length: LengthOptions
  /// The sound.
  @OptionGroup(title: "Sound") public var sound: SoundOptions
  /// The practice programme.
  @OptionGroup(title: "Programmes") public var programme: ProgrammeOptions
  /// Where it plays.
  @OptionGroup(title: "Output") public var output: OutputOptions
  /// The JACK client it plays as.
  @OptionGroup(title: "JACK, sync and remote control") public var client: JACKClientOptions
  /// The clocks.
  @OptionGroup(title: "JACK, sync and remote control") public var sync: SyncOptions
  /// klick's OSC.
  @OptionGroup(title: "JACK, sync and remote control") public var remote: RemoteOptions
  /// Listening to the player.
  @OptionGroup(title: "Listening") public var listen: ListenOptions
  /// Keeping the run in the journal.
  @OptionGroup(title: "Listening") public var journal: JournalOptions
  /// The journal's file.
  @OptionGroup(title: "Listening") public var journalFile: JournalFileOption

  /// None: ALSA's `default` device, on the display.
  public init() {}
}

extension ParsableArguments {
  /// These options as a command line that gives none of them has them: each at its default;
  /// for values a program chooses rather than a user types (klick's line, the tap-along).
  public static var givenNone: Self {
    // No option of these groups must be given, so an empty command line always parses.
    do { return try parse([]) } catch { preconditionFailure("\(Self.self) takes no empty command line: \(error)") }
  }
}
