import MetronomeCore

/// The view model's state and the pure rule that applies an action to it.
public struct MetronomeState: Hashable, Sendable {
  /// The tempo the player chose last (by a key, a tap, a remote control), which a speed trainer
  /// ramps from or towards as it plays (the tempo heard is its beats').
  public private(set) var tempo: Tempo
  /// The numerator the player asked for, before clamping (Raytronome's stepper value).
  public private(set) var requestedNumerator: Int
  /// The denominator of the meter.
  public private(set) var denominator: Int
  /// Whether beats are playing.
  public private(set) var isPlaying: Bool
  /// The levels asked for, kept when the meter changes; they apply while they fit it.
  public private(set) var requestedPattern: AccentPattern?
  /// How each beat is divided.
  public private(set) var subdivision: Subdivision
  /// Whether every beat is silenced.
  public private(set) var isMuted = false
  /// The second voice's clicks per bar, if there is one.
  public let polyrhythm: Int?
  /// Whether the second voice is silenced while the beats play on.
  public private(set) var isPolyrhythmMuted = false
  /// How loud the clicks play beyond their sound; only a remote control changes them, and a
  /// reset keeps them.
  public private(set) var gains = ClickGains.unity
  /// How much of the click the player has not earned away (`--earn-silence`): 1 whole, 0 silent;
  /// it scales every click beyond the gains.
  public private(set) var clickLevel = 1.0
  /// The rule for the largest numerator, allowing the meter last written (at the start, by a
  /// setter, by a transport followed) as it is.
  public private(set) var cap: NumeratorCap
  /// The tempo map and count-in; while a map plays, the tempo scales the map (klick's `-x`): its
  /// multiplier is the tempo over the map's starting tempo.
  public private(set) var programme: Programme
  /// The map last loaded, kept while the steady tempo plays so that klick's map metronome can
  /// play it again: the run's own at the start, then each one a remote control loads.
  public private(set) var loadedMap: LoadedMap?
  private let initialTempo: Tempo
  private let initialMeter: Meter
  private let initialPattern: AccentPattern?
  private let initialSubdivision: Subdivision
  private var tapTempo = TapTempo()

  /// The starting state.
  public init(
    tempo: Tempo, meter: Meter, isPlaying: Bool, cap: NumeratorCap, pattern: AccentPattern? = nil,
    subdivision: Subdivision = .none, polyrhythm: Int? = nil, programme: Programme = Programme()
  ) {
    self.tempo = tempo
    self.programme = programme
    loadedMap = programme.map.map { LoadedMap(map: $0, file: nil) }
    self.polyrhythm = polyrhythm
    self.subdivision = subdivision
    initialSubdivision = subdivision
    requestedPattern = pattern
    initialPattern = pattern
    requestedNumerator = meter.numerator
    denominator = meter.denominator
    self.isPlaying = isPlaying
    self.cap = cap.allowing(meter)
    initialTempo = tempo
    initialMeter = meter
  }

  /// The largest numerator the current denominator allows.
  public var maxNumerator: Int { cap.maxNumerator(denominator: denominator) }

  /// The meter: the requested numerator clamped to `maxNumerator`, which is how 24/32 becomes
  /// 16/16 when the denominator steps down.
  public var meter: Meter { Meter(clampingNumerator: requestedNumerator, denominator: denominator, cap: cap) }

  /// The levels the bar plays at: the pattern asked for while it fits the meter, else the standard one.
  public var pattern: AccentPattern {
    let meter = self.meter
    return requestedPattern.flatMap { $0.fits(meter) ? $0 : nil } ?? .standard(beats: meter.numerator)
  }

  /// What the beat generator needs.
  public var settings: MetronomeSettings {
    var programme = programme
    if let start = programme.mapStartBPM { programme.multiplier = tempo.bpm / start }
    return MetronomeSettings(
      tempo: tempo, meter: meter, isPlaying: isPlaying,
      rhythm: Rhythm(
        pattern: pattern, subdivision: subdivision, polyrhythm: isPolyrhythmMuted ? nil : polyrhythm,
        isMuted: isMuted,
        gains: ClickGains(overall: gains.overall * clickLevel, accented: gains.accented, unaccented: gains.unaccented)),
      programme: programme)
  }

  /// The tempo a map starts at, multiplied; nil without one.
  private var mapStartTempo: Tempo? { programme.mapStartBPM.flatMap { Tempo(clamping: $0 * programme.multiplier) } }

  /// Moves to song `index` of the setlist, if it is another, at its starting tempo and meter.
  private mutating func playSong(_ index: Int) {
    guard programme.select(song: index), let map = programme.map else { return }
    tempo = mapStartTempo ?? tempo
    requestedNumerator = map.sections[0].meter.numerator
    denominator = map.sections[0].meter.denominator
    cap = cap.allowing(map.sections[0].meter)
    tapTempo = TapTempo()
  }

  /// Stops, to play `map` (nil: the steady tempo) from its start when next started; false, changing
  /// nothing, where a setlist or an outside clock decides what plays.
  @discardableResult
  private mutating func play(_ map: TempoMap?) -> Bool {
    guard programme.setlist == nil, programme.transport == nil else { return false }
    isPlaying = false
    // The multiplier in force (the tempo keys change it) carries over to the new map.
    programme.multiplier = programme.mapStartBPM.map { tempo.bpm / $0 } ?? programme.multiplier
    programme.map = map
    programme.trainerTarget = nil
    programme.holdsSections = false
    (programme.loopsSection, programme.loopBars) = (false, nil)
    guard let first = map?.sections[0] else { return true }
    tempo = mapStartTempo ?? tempo
    (requestedNumerator, denominator) = (first.meter.numerator, first.meter.denominator)
    cap = cap.allowing(first.meter)
    return true
  }

  /// The state after `action`.
  public mutating func apply(_ action: MetronomeAction) {
    switch action {
    case .setTempo(let bpm):
      tempo = Tempo(clamping: bpm) ?? tempo
    case .nudgeTempo(let delta):
      tempo = Tempo(clamping: tempo.bpm + delta) ?? tempo
    case .scaleTempo(let factor):
      tempo = Tempo(clamping: tempo.bpm * factor) ?? tempo
    case .tapTempo(let seconds):
      tempo = tapTempo.tap(atSeconds: seconds, denominator: denominator) ?? tempo
    case .setNumerator(let numerator):
      requestedNumerator = min(max(numerator, 1), NumeratorCap.ceiling)
    case .stepNumerator(let delta):
      requestedNumerator = min(max(meter.numerator + delta, 1), maxNumerator)
    case .setDenominatorStep(let step):
      denominator = Meter.denominator(forStep: step)
    case .stepDenominator(let delta):
      denominator = Meter.denominator(forStep: Meter.step(forDenominator: denominator) + delta)
    case .setMeter(let meter):
      requestedNumerator = meter.numerator
      denominator = meter.denominator
      cap = cap.allowing(meter)
    case .setPattern(let pattern):
      requestedPattern = pattern
    case .cycleLevel(let beat):
      guard (1...meter.numerator).contains(beat) else { return }
      requestedPattern = pattern.cyclingLevel(ofBeat: beat)
    case .setSubdivision(let subdivision):
      self.subdivision = subdivision
    case .stepSubdivision(let delta):
      subdivision = subdivision.counting(subdivision.count + delta)
    case .stepSwing(let delta):
      subdivision = subdivision.swung(
        min(max(subdivision.swing + delta, Subdivision.swings.lowerBound), Subdivision.swings.upperBound))
    case .toggleMute:
      isMuted.toggle()
    case .setGains(let gains):
      let factor = { (value: Double) in value > 0 ? min(value, ClickGains.loudest) : 0 }
      self.gains = ClickGains(
        overall: factor(gains.overall), accented: factor(gains.accented), unaccented: factor(gains.unaccented))
    case .setClickLevel(let level):
      guard !level.isNaN else { return }
      clickLevel = min(max(level, 0), 1)
    case .togglePolyrhythmMute:
      isPolyrhythmMuted.toggle()
    case .togglePlaying:
      isPlaying.toggle()
      tapTempo = TapTempo()
    case .setPlaying(let playing):
      guard playing != isPlaying else { return }
      isPlaying = playing
      tapTempo = TapTempo()
    case .playMap(let map):
      play(map)
    case .loadMap(let map, let file):
      guard play(map) else { return }
      loadedMap = LoadedMap(map: map, file: file)
    case .setCountIn(let countIn):
      programme.countIn = countIn
    case .setSpeedTrainer(let trainer):
      programme.speedTrainer = trainer
    case .jumpSection, .moveAtSectionEnd:
      // Told to the beats playing (`BeatEvent`): where they are is theirs, not the state's.
      break
    case .toggleSectionLoop:
      guard programme.map != nil else { return }
      programme.loopsSection.toggle()
    case .follow(let anchor):
      programme.transport = anchor
      isPlaying = anchor != nil
      if let anchor {
        tempo = anchor.tempo
        requestedNumerator = anchor.meter.numerator
        denominator = anchor.meter.denominator
        cap = cap.allowing(anchor.meter)
      }
    case .moveSong(let offset):
      playSong(programme.song + offset)
    case .songEnded(let song):
      guard song == programme.song, let setlist = programme.setlist, song + 1 < setlist.songs.count else { return }
      playSong(song + 1)
      if setlist.waitsBetweenSongs { isPlaying = false }
    case .reset:
      tempo = mapStartTempo ?? initialTempo
      requestedNumerator = initialMeter.numerator
      denominator = initialMeter.denominator
      cap = cap.allowing(initialMeter)
      requestedPattern = initialPattern
      subdivision = initialSubdivision
      isMuted = false
      isPolyrhythmMuted = false
    }
  }
}
