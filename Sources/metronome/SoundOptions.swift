import ArgumentParser
import MetronomeAudio
import MetronomeCore
import MetronomeRun

/// Options that choose what the clicks sound like, shared by playing and exporting.
struct SoundOptions: ParsableArguments {
  @Option(help: "Click sound: pulse, beep or woodblock.")
  var sound: ClickSound = .pulse

  @Option(help: "Volume from 0 to 1; strong beats are always louder than the others, weak ones quieter.")
  var volume: Double = 1

  @Option(help: "Sample rate in Hz, from 8000 to 192000 (44100, 48000, 96000, …).")
  var rate: Int = SampleRate.standard.hz

  @Option(
    help: ArgumentHelp(
      "Your own sounds, as klick's -S takes them: files (WAV, FLAC, Ogg, AIFF, any rate) for the strong,"
        + " normal and weak beats, the subdivision, the second voice and the count-in, in that order; leave one empty"
        + " (,,,tick.wav) to keep the built-in sound.", valueName: "files"))
  var samples: String?

  /// The values given.
  var options: RequestOptions.Sound {
    var options = RequestOptions.Sound()
    (options.sound, options.volume, options.rate, options.samples) = (sound, volume, rate, samples)
    return options
  }
}

/// `--beats`, `--bars` or `--duration`: how long to play or export.
struct LengthOptions: ParsableArguments {
  @Option(help: "Stop after this many beats.")
  var beats: Int?

  @Option(help: "Stop after this many bars.")
  var bars: Int?

  @Option(help: "Stop after this many seconds.")
  var duration: Double?

  /// The values given.
  var options: RequestOptions.Length {
    var options = RequestOptions.Length()
    (options.beats, options.bars, options.duration) = (beats, bars, duration)
    return options
  }
}

/// `[METER] [TEMPO] [PATTERN]`, `--pattern`, `--group` and `--max-numerator`, shared by playing
/// and exporting.
struct MeterTempoOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Meter and tempo, in either order (default 4/4 120), then an accent pattern as klick takes it.",
      valueName: "meter-tempo-pattern"))
  var words: [String] = []

  @Option(
    help: ArgumentHelp(
      "Accent pattern, a character per beat: X strong, x normal, o weak, . silent (default Xxxx…).",
      valueName: "pattern"))
  var pattern: String?

  @Option(
    help: ArgumentHelp(
      "Count the bar in groups, such as 2+2+3 for 7/8: beat one strong, each group's first beat normal, the rest"
        + " weak; 'compound' groups 6/8, 9/8 and 12/8 in threes.",
      valueName: "groups"))
  var group: String?

  @Option(
    help: ArgumentHelp(
      "Clicks per beat, from 2 (eighths at 4/4) to 9: 3 for triplets, 4 for sixteenths; 1 for none.",
      valueName: "clicks"))
  var subdivide: Int?

  @Option(
    help: ArgumentHelp(
      "Swing every second click of an even subdivision, in percent of the pair: 50 is straight, 66.7 the"
        + " triplet feel, up to 75; alone it swings eighths.", valueName: "percent"))
  var swing: Double?

  @Option(
    help: ArgumentHelp(
      "A second voice of this many clicks spread evenly over each bar, against the beats: 3 in 4/4 plays 3"
        + " against 4 (1 to 64).", valueName: "clicks"))
  var poly: Int?

  @Option(help: "Allow at least this many beats per bar, for 5/4 or 7/4 (1 to 64).")
  var maxNumerator: Int?

  /// The values given.
  var options: RequestOptions.Music {
    var options = RequestOptions.Music()
    (options.words, options.pattern, options.group) = (words, pattern, group)
    (options.subdivide, options.swing, options.poly, options.maxNumerator) = (subdivide, swing, poly, maxNumerator)
    return options
  }
}

extension ClickSound: ExpressibleByArgument {}
extension SampleEncoding: ExpressibleByArgument {}
