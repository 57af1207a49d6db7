import MetronomeCore
import MetronomeEngine

/// What to play, checked: meter, tempo and rhythm, the practice programme, length and sound.
///
/// Shared by playing and exporting; the files it names are read by `load()`.
public struct MusicRequest: Sendable {
  /// The meter, tempo, pattern and trainer the words give.
  public let start: MeterAndTempo
  /// The accent pattern asked for (by word, `--pattern` or `--group`); nil for the standard one.
  public let pattern: AccentPattern?
  /// How each beat is divided.
  public let subdivision: Subdivision
  /// A second voice's clicks per bar; nil for none.
  public let polyrhythm: Int?
  /// How many beats a bar may hold.
  public let cap: NumeratorCap
  /// When to stop; nil plays until stopped (or the map ends).
  public let length: PlayLength?
  /// The rate frames are counted and played at.
  public let sampleRate: SampleRate
  /// The click's sound.
  public let sound: ClickSound
  /// The click's volume.
  public let volume: Double
  /// The player's own sound files, by voice.
  public let samplePaths: [(voice: SoundKit.Voice, path: String)]
  /// The practice programme asked for.
  public let programme: ProgrammeRequest
  /// The spoken count asked for; nil for clicks alone.
  public let voice: Voice?

  /// Who says the count.
  public enum Voice: Sendable, Equatable {
    /// flite, when the run starts.
    case flite(withClick: Bool)
    /// One's own recordings in a folder: `1.wav` to `16.wav`, `and.wav`, `e.wav`, `a.wav`,
    /// `trip.wav`, `let.wav`.
    case folder(String, withClick: Bool)
  }

  /// The request the words and options make; throws a usage error for anything that cannot be
  /// played or does not go together, checked in the order the options' groups are given.
  public init(
    _ words: RhythmWords, _ rhythm: RhythmOptions, _ length: LengthOptions, _ sound: SoundOptions,
    _ programme: ProgrammeOptions
  ) throws(RunError) {
    if let maxNumerator = rhythm.maxNumerator, !(1...NumeratorCap.ceiling).contains(maxNumerator) {
      throw .usage("--max-numerator must be from 1 to \(NumeratorCap.ceiling)")
    }
    cap = NumeratorCap(atLeast: rhythm.maxNumerator)
    start = try MeterAndTempo(words: words.words)
    pattern = try Self.accentPattern(rhythm, start: start)
    subdivision = try Self.subdivision(rhythm)
    if let poly = rhythm.poly, !Rhythm.polyrhythmCounts.contains(poly) {
      throw .usage("--poly \(poly) is out of range: a second voice plays 1 to 64 clicks a bar, such as 3")
    }
    polyrhythm = rhythm.poly
    self.length = try Self.length(length)
    guard sound.volume.isFinite, (0...1).contains(sound.volume) else { throw .usage("--volume must be from 0 to 1") }
    do { sampleRate = try SampleRate(sound.rate) } catch { throw .usage("\(error)") }
    let paths = sound.samples?.names ?? []
    guard paths.count <= SoundKit.Voice.allCases.count else {
      throw .usage("--samples takes at most 6 files: strong, normal, weak, subdivision, second voice, count-in")
    }
    samplePaths = zip(SoundKit.Voice.allCases, paths).filter { !$0.1.isEmpty }
    self.sound = sound.sound
    volume = sound.volume
    if sound.withClick, !sound.voice, sound.voiceDir == nil {
      throw .usage("--with-click keeps the clicks under a spoken count: add --voice or --voice-dir")
    }
    voice =
      if let folder = sound.voiceDir {
        .folder(folder, withClick: sound.withClick)
      } else if sound.voice {
        .flite(withClick: sound.withClick)
      } else {
        nil
      }
    self.programme = try ProgrammeRequest(programme, start: start, pattern: pattern)
    if programme.map != nil || programme.setlist != nil, !words.words.isEmpty {
      throw .usage("a map sets meter, tempo and pattern: drop '\(words.words.joined(separator: " "))'")
    }
    if programme.loopBars != nil, self.programme.trainer == nil, programme.map == nil {
      throw .usage("--loop-bars loops bars of a map or a trainer: give --map, 80-120/10 or --step")
    }
    try checkFits(playedMap: self.programme.trainer, setlist: nil)
  }

  /// What to play with the files read: `map` and `setlist` (from `programme`'s files) and the
  /// player's own `samples`; throws a usage error for lengths and loops the map leaves no room for.
  public func settings(map: TempoMap?, setlist: Setlist?, samples: [SoundKit.Voice: [Float]]) throws(RunError)
    -> PlaybackSettings
  {
    let playedMap = setlist?.songs[0].map ?? map ?? programme.trainer
    try checkFits(playedMap: playedMap, setlist: setlist)
    let multiplier = programme.multiplier
    var meter = start.meter
    var tempo = Tempo(clamping: start.tempo.bpm * multiplier) ?? start.tempo
    var pattern = self.pattern
    if let first = playedMap?.sections[0] {
      meter = first.meter
      tempo = Tempo(clamping: first.bpm(ofBeat: 0) * multiplier) ?? tempo
      pattern = first.pattern ?? pattern
    }
    return PlaybackSettings(
      meter: meter, tempo: tempo, pattern: pattern, subdivision: subdivision, polyrhythm: polyrhythm,
      // A map's meters may hold more beats than their denominators.
      cap: playedMap == nil ? cap : .widest,
      sampleRate: sampleRate, sound: sound, volume: volume, samples: samples, length: length,
      programme: Programme(
        map: playedMap, setlist: setlist, multiplier: multiplier, countIn: programme.countIn, gap: programme.gap,
        trainerTarget: programme.trainerTarget, loopBars: programme.loopBars))
  }

  /// Throws when the bars looped lie beyond `playedMap`, a length is given for a map that ends, or
  /// a length without a map is too long to count in frames.
  private func checkFits(playedMap: TempoMap?, setlist: Setlist?) throws(RunError) {
    guard let playedMap else {
      let tempo = Tempo(clamping: start.tempo.bpm * programme.multiplier) ?? start.tempo
      do { try length?.checkFits(tempo: tempo, meter: start.meter) } catch { throw .usage("\(error)") }
      return
    }
    if let bars = programme.loopBars, let mapBars = playedMap.barCount, bars.upperBound > mapBars {
      throw .usage("--loop-bars \(bars.lowerBound)-\(bars.upperBound): the map has \(mapBars) bars")
    }
    if Programme(map: playedMap, setlist: setlist, loopBars: programme.loopBars).ends, length != nil {
      throw .usage("a map plays to its end: drop --beats, --bars and --duration, or start with --start-label")
    }
  }

  /// The accent pattern asked for, by word, `--pattern` or `--group` (at most one), checked to fit
  /// the meter; nil for the standard one.
  private static func accentPattern(_ rhythm: RhythmOptions, start: MeterAndTempo) throws(RunError)
    -> AccentPattern?
  {
    let given = [start.pattern != nil, rhythm.pattern != nil, rhythm.group != nil].filter { $0 }.count
    guard given <= 1 else { throw .usage("give one accent pattern: a word, --pattern or --group") }
    let chosen: AccentPattern?
    do {
      if let group = rhythm.group {
        guard let grouped = try group.pattern(in: start.meter) else {
          throw RunError.usage("--group compound groups 6/8, 9/8 or 12/8 in threes, not \(start.meter)")
        }
        chosen = grouped
      } else {
        chosen = rhythm.pattern ?? start.pattern
      }
      if let chosen, !chosen.fits(start.meter) { throw AccentPatternError.doesNotFit(chosen, start.meter) }
    } catch let error as RunError {
      throw error
    } catch {
      throw .usage("\(error)")
    }
    return chosen
  }

  /// How each beat is divided: `--subdivide`, swung by `--swing` (which alone means eighths).
  private static func subdivision(_ rhythm: RhythmOptions) throws(RunError) -> Subdivision {
    guard rhythm.subdivide != nil || rhythm.swing != nil else { return .none }
    do {
      return try Subdivision(rhythm.subdivide ?? 2, swing: Subdivision.swing(percent: rhythm.swing ?? 50))
    } catch {
      throw .usage("\(error)")
    }
  }

  /// The length given, if any; at most one of them, each positive.
  private static func length(_ length: LengthOptions) throws(RunError) -> PlayLength? {
    guard [length.beats != nil, length.bars != nil, length.duration != nil].filter({ $0 }).count <= 1 else {
      throw .usage("give at most one of --beats, --bars and --duration")
    }
    if let beats = length.beats {
      guard beats >= 1 else { throw .usage("--beats must be at least 1") }
      return .beats(beats)
    }
    if let bars = length.bars {
      guard bars >= 1 else { throw .usage("--bars must be at least 1") }
      return .bars(bars)
    }
    guard let duration = length.duration else { return nil }
    guard duration > 0 && duration.isFinite else { throw .usage("--duration must be a positive number of seconds") }
    return .seconds(duration)
  }
}
