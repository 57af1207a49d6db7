import MetronomeCore

/// What to play: everything that export, live playback and virtual runs have in common.
public struct PlaybackSettings: Sendable {
  /// The meter to start in.
  public var meter: Meter
  /// The tempo to start at.
  public var tempo: Tempo
  /// The level of each beat of a bar; nil for beat one strong, the others normal.
  public var pattern: AccentPattern?
  /// How each beat is divided.
  public var subdivision: Subdivision
  /// A second voice's clicks per bar; nil for none.
  public var polyrhythm: Int?
  /// How many beats a bar may hold.
  public var cap: NumeratorCap
  /// The rate frames are counted and played at.
  public var sampleRate: SampleRate
  /// The click's sound.
  public var sound: ClickSound
  /// The click's volume, 0...1.
  public var volume: Double
  /// The player's own sounds, at `sampleRate`, in place of the built-in ones for the voices they name.
  public var samples: [SoundKit.Voice: [Float]]
  /// When to stop; nil plays until stopped.
  public var length: PlayLength?
  /// A tempo map and its multiplier, a count-in and a gap.
  ///
  /// With a map, `tempo` and `meter` should be its first (the tempo multiplied); a map that ends
  /// ends the run.
  public var programme: Programme
  /// Whether it plays from the start; an outside clock may start it instead.
  public var startsPlaying = true
  /// The spoken count (`--voice`); nil for clicks alone.
  public var counting: CountingVoice?

  /// Settings as given.
  public init(
    meter: Meter = .fourFour, tempo: Tempo = .standard, pattern: AccentPattern? = nil, subdivision: Subdivision = .none,
    polyrhythm: Int? = nil, cap: NumeratorCap = .denominator,
    sampleRate: SampleRate = .standard, sound: ClickSound = .pulse, volume: Double = 1,
    samples: [SoundKit.Voice: [Float]] = [:], length: PlayLength? = nil, programme: Programme = Programme()
  ) {
    self.programme = programme
    self.meter = meter
    self.tempo = tempo
    self.pattern = pattern
    self.subdivision = subdivision
    self.polyrhythm = polyrhythm
    self.cap = cap
    self.sampleRate = sampleRate
    self.sound = sound
    self.volume = volume
    self.samples = samples
    self.length = length
  }
}
