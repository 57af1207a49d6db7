import ArgumentParser
import AudioFiles
import MetronomeAudio
import MetronomeCore
import MetronomeEngine

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

  func validate() throws {
    guard volume.isFinite, (0...1).contains(volume) else { throw ValidationError("--volume must be from 0 to 1") }
    _ = try sampleRate
    if let samples,
      samples.split(separator: ",", omittingEmptySubsequences: false).count > SoundKit.Voice.allCases.count
    {
      throw ValidationError(
        "--samples takes at most 6 files: strong, normal, weak, subdivision, second voice, count-in")
    }
  }

  /// The sounds `--samples` names, read once a run starts; a file that cannot serve ends the
  /// program as bad input to `command` does (`Error: …`, its usage, status 64).
  func ownSounds(for command: any ParsableCommand.Type) -> [SoundKit.Voice: [Float]] {
    do {
      return try ownSounds
    } catch {
      Metronome.exitWithUsage(of: command, error)
    }
  }

  /// The sounds `--samples` names, read and converted to the sample rate.
  private var ownSounds: [SoundKit.Voice: [Float]] {
    get throws {
      guard let samples else { return [:] }
      let rate = try sampleRate
      var sounds: [SoundKit.Voice: [Float]] = [:]
      for (voice, path) in zip(SoundKit.Voice.allCases, samples.split(separator: ",", omittingEmptySubsequences: false))
      where !path.isEmpty {
        do {
          sounds[voice] = try SampleFile.load(path: String(path), sampleRate: rate)
        } catch {
          throw ValidationError("\(error)")
        }
      }
      return sounds
    }
  }

  var sampleRate: SampleRate {
    get throws {
      do { return try SampleRate(rate) } catch { throw ValidationError("\(error)") }
    }
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

  func validate() throws {
    guard [beats != nil, bars != nil, duration != nil].filter({ $0 }).count <= 1 else {
      throw ValidationError("give at most one of --beats, --bars and --duration")
    }
    if let beats, beats < 1 { throw ValidationError("--beats must be at least 1") }
    if let bars, bars < 1 { throw ValidationError("--bars must be at least 1") }
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError("--duration must be a positive number of seconds")
    }
  }

  /// The length given, if any.
  var length: PlayLength? {
    if let beats { return .beats(beats) }
    if let bars { return .bars(bars) }
    return duration.map(PlayLength.seconds)
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

  func validate() throws {
    if let maxNumerator, !(1...NumeratorCap.ceiling).contains(maxNumerator) {
      throw ValidationError("--max-numerator must be from 1 to \(NumeratorCap.ceiling)")
    }
    _ = try accentPattern
    _ = try subdivision
    if let poly, !Rhythm.polyrhythmCounts.contains(poly) {
      throw ValidationError("--poly \(poly) is out of range: a second voice plays 1 to 64 clicks a bar, such as 3")
    }
  }

  /// How each beat is divided: `--subdivide`, swung by `--swing` (which alone means eighths).
  var subdivision: Subdivision {
    get throws {
      guard subdivide != nil || swing != nil else { return .none }
      do {
        return try Subdivision(subdivide ?? 2, swing: Subdivision.swing(percent: swing ?? 50))
      } catch {
        throw ValidationError("\(error)")
      }
    }
  }

  var cap: NumeratorCap { NumeratorCap(atLeast: maxNumerator) }

  var parsed: MeterAndTempo { get throws { try MeterAndTempo(words: words, cap: cap) } }

  /// The accent pattern asked for, by word, `--pattern` or `--group` (at most one), checked to
  /// fit the meter; nil for the standard one.
  var accentPattern: AccentPattern? {
    get throws {
      let start = try parsed
      let given = [start.pattern != nil, pattern != nil, group != nil].filter { $0 }.count
      guard given <= 1 else { throw ValidationError("give one accent pattern: a word, --pattern or --group") }
      let chosen: AccentPattern?
      do {
        if let pattern {
          chosen = try AccentPattern(parsing: pattern)
        } else if group == "compound" {
          guard let threes = AccentPattern.compound(for: start.meter) else {
            throw ValidationError("--group compound groups 6/8, 9/8 or 12/8 in threes, not \(start.meter)")
          }
          chosen = threes
        } else if let group {
          let grouped = try AccentPattern(grouping: group)
          guard grouped.fits(start.meter) else {
            throw AccentPatternError.groupingDoesNotFit(group, beats: grouped.count, start.meter)
          }
          chosen = grouped
        } else {
          chosen = start.pattern
        }
        if let chosen, !chosen.fits(start.meter) { throw AccentPatternError.doesNotFit(chosen, start.meter) }
      } catch let error as AccentPatternError {
        throw ValidationError("\(error)")
      }
      return chosen
    }
  }
}

extension ClickSound: ExpressibleByArgument {}
extension SampleEncoding: ExpressibleByArgument {}

extension PlaybackSettings {
  /// What the command line asks to play, with `ownSounds` (read by `sound.ownSounds(for:)`, once:
  /// a run reads them, a check of the options need not) in place of built-in ones and `map` (read
  /// by `program.loadMap()`, likewise) as the program; throws `ValidationError` for a meter,
  /// tempo, rate or length that cannot be played, or words and lengths a map leaves no room for.
  init(
    _ meterAndTempo: MeterTempoOptions, _ length: LengthOptions, _ sound: SoundOptions, _ program: ProgramOptions,
    map: TempoMap? = nil, setlist: Setlist? = nil, ownSounds: [SoundKit.Voice: [Float]] = [:]
  ) throws {
    let start = try meterAndTempo.parsed
    let multiplier = program.multiplier ?? 1
    var meter = start.meter
    var tempo = Tempo(clamping: start.tempo.bpm * multiplier) ?? start.tempo
    var pattern = try meterAndTempo.accentPattern
    let runLength = length.length
    if program.step != nil, start.trainer != nil {
      throw ValidationError("give klick's trainer (80-120/10) or a step trainer (--step), not both")
    }
    let trainer =
      try start.trainerMap(pattern: pattern)
      ?? program.stepTrainer(from: start.tempo, meter: start.meter, pattern: pattern)
    let playedMap = setlist?.songs[0].map ?? map ?? trainer
    if program.map != nil || program.setlist != nil, !meterAndTempo.words.isEmpty {
      throw ValidationError(
        "a map sets meter, tempo and pattern: drop '\(meterAndTempo.words.joined(separator: " "))'")
    }
    if program.loopBars != nil, playedMap == nil, program.map == nil {
      throw ValidationError("--loop-bars loops bars of a map or a trainer: give --map, 80-120/10 or --step")
    }
    if let playedMap {
      let first = playedMap.sections[0]
      meter = first.meter
      tempo = Tempo(clamping: first.bpm(ofBeat: 0) * multiplier) ?? tempo
      pattern = first.pattern ?? pattern
      if let bars = try program.parsedLoopBars, let mapBars = playedMap.barCount, bars.upperBound > mapBars {
        throw ValidationError("--loop-bars \(bars.lowerBound)-\(bars.upperBound): the map has \(mapBars) bars")
      }
      if Program(map: playedMap, setlist: setlist, loopBars: try program.parsedLoopBars).ends, runLength != nil {
        throw ValidationError(
          "a map plays to its end: drop --beats, --bars and --duration, or start with --start-label")
      }
    }
    do {
      if playedMap == nil { try runLength?.checkFits(tempo: tempo, meter: meter) }
    } catch {
      throw ValidationError("\(error)")
    }
    self.init(
      meter: meter, tempo: tempo, pattern: pattern,
      subdivision: try meterAndTempo.subdivision, polyrhythm: meterAndTempo.poly,
      // A map's meters may hold more beats than their denominators.
      cap: playedMap == nil ? meterAndTempo.cap : NumeratorCap(atLeast: NumeratorCap.ceiling),
      sampleRate: try sound.sampleRate, sound: sound.sound, volume: sound.volume, samples: ownSounds,
      length: runLength,
      program: Program(
        map: playedMap, setlist: setlist, multiplier: multiplier, countIn: try program.parsedCountIn,
        gap: try program.parsedGap, trainerTarget: trainer?.sections.last?.bpm(ofBeat: 0),
        loopBars: try program.parsedLoopBars))
  }
}
