import ArgumentParser
import MetronomeCore

/// `[METER] [TEMPO] [PATTERN]`, shared by playing and exporting: named in each command's usage
/// and told in its overview, rather than in a section of their own.
///
/// Words, not typed values: what each is depends on the others (`7/8` a meter, `80-120/10` a
/// trainer, in either order), so `MeterAndTempo(words:)` reads them together.
public struct RhythmWords: ParsableArguments, Sendable {
  /// The words, in the order given.
  @Argument(help: ArgumentHelp("Meter and tempo (4/4 120), then a pattern.", visibility: .hidden))
  public var words: [String] = []

  /// None: 4/4 at 120.
  public init() {}
}

/// The rhythm's options, shared by playing and exporting; apart from its words, which the shells
/// would take for a command's name where no command is named.
public struct RhythmOptions: ParsableArguments, Sendable {
  /// `--pattern`: a level per beat.
  @Option(
    help: ArgumentHelp("Levels: X strong, x normal, o weak, . silent.", valueName: "pattern"),
    transform: { try AccentPattern(parsing: $0) })
  public var pattern: AccentPattern?

  /// `--group`: groups such as 2+2+3, or `compound`.
  @Option(
    help: ArgumentHelp("Accent groups such as 2+2+3, or compound.", valueName: "groups"),
    transform: { try AccentGrouping(parsing: $0) })
  public var group: AccentGrouping?

  /// `--subdivide`: clicks per beat.
  @Option(help: ArgumentHelp("Clicks per beat, 1 to 9 (3 triplets).", valueName: "clicks"))
  public var subdivide: Int?

  /// `--swing`: percent of a pair.
  @Option(help: ArgumentHelp("Swing even clicks, 50 to 75 % (66.7).", valueName: "percent"))
  public var swing: Double?

  /// `--poly`: the second voice's clicks per bar.
  @Option(help: ArgumentHelp("A second voice of N clicks a bar (3 in 4/4).", valueName: "clicks"))
  public var poly: Int?

  /// `--max-numerator`: beats a bar may hold at least.
  @Option(
    help: ArgumentHelp("Let keys step to N beats a bar (7/4 from 4/4).", valueName: "n", visibility: .fullHelpOnly))
  public var maxNumerator: Int?

  /// None: the meter's standard accents, one click a beat.
  public init() {}
}

/// `--beats`, `--bars` or `--duration`: how long to play or export.
public struct LengthOptions: ParsableArguments, Sendable {
  /// `--beats`.
  @Option(help: "Stop after this many beats.")
  public var beats: Int?

  /// `--bars`.
  @Option(help: "Stop after this many bars.")
  public var bars: Int?

  /// `--duration`, in seconds.
  @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
  public var duration: Double?

  /// None: it plays until stopped.
  public init() {}
}
