import ArgumentParser
import MetronomeRun

/// `[METER] [TEMPO] [PATTERN]`, shared by playing and exporting: named in each command's usage
/// and told in its overview, rather than in a section of their own.
struct RhythmWords: ParsableArguments {
  @Argument(help: ArgumentHelp("Meter and tempo (4/4 120), then a pattern.", visibility: .hidden))
  var words: [String] = []
}

/// The rhythm's options, shared by playing and exporting; apart from its words, which the shells
/// would take for a command's name where no command is named.
struct RhythmOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Levels: X strong, x normal, o weak, . silent.", valueName: "pattern"))
  var pattern: String?

  @Option(help: ArgumentHelp("Accent groups such as 2+2+3, or compound.", valueName: "groups"))
  var group: String?

  @Option(help: ArgumentHelp("Clicks per beat, 1 to 9 (3 triplets).", valueName: "clicks"))
  var subdivide: Int?

  @Option(help: ArgumentHelp("Swing even clicks, 50 to 75 % (66.7).", valueName: "percent"))
  var swing: Double?

  @Option(help: ArgumentHelp("A second voice of N clicks a bar (3 in 4/4).", valueName: "clicks"))
  var poly: Int?

  @Option(
    help: ArgumentHelp("Let keys step to N beats a bar (7/4 from 4/4).", valueName: "n", visibility: .fullHelpOnly))
  var maxNumerator: Int?

  /// The values given, with the rhythm's `words`.
  func options(_ words: RhythmWords) -> RequestOptions.Music {
    var options = RequestOptions.Music()
    (options.words, options.pattern, options.group) = (words.words, pattern, group)
    (options.subdivide, options.swing, options.poly, options.maxNumerator) = (subdivide, swing, poly, maxNumerator)
    return options
  }
}

/// `--beats`, `--bars` or `--duration`: how long to play or export.
struct LengthOptions: ParsableArguments {
  @Option(help: "Stop after this many beats.")
  var beats: Int?

  @Option(help: "Stop after this many bars.")
  var bars: Int?

  @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
  var duration: Double?

  /// The values given.
  var options: RequestOptions.Length {
    var options = RequestOptions.Length()
    (options.beats, options.bars, options.duration) = (beats, bars, duration)
    return options
  }
}
