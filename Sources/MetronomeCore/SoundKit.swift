/// The sound of every kind of click: a beat at each level it can be heard at, a subdivision's,
/// the second voice's and the count-in's; built in, or the player's own samples.
public struct SoundKit: Sendable {
  /// The kinds of click, each with a sound of its own.
  public enum Voice: Int, CaseIterable, Hashable, Sendable {
    case strong
    case normal
    case weak
    case subdivision
    case polyrhythm
    case countIn

    /// How loud the built-in sound plays it, relative to the accent: what a MIDI note's velocity
    /// follows.
    public var peak: Float {
      switch self {
      case .strong: 1
      case .normal: ClickSound.regularLevel
      case .weak: ClickSound.weakLevel
      case .subdivision: ClickSound.subdivisionLevel
      case .polyrhythm: ClickSound.polyrhythmLevel
      case .countIn: ClickSound.countInLevel
      }
    }
  }

  /// The samples of each voice, in the order of `Voice`.
  public let sounds: [[Float]]

  /// The built-in `sound` at `volume` (0...1), with `samples` (already at `sampleRate`) in place of
  /// the voices they name, scaled by `volume`.
  ///
  /// A strong beat's own sample given without a normal one serves the normal beat too, at the
  /// regular level; a normal one given without a weak one serves the weak beat at half of it, so
  /// a kit of one or two samples (klick's `-S emphasis,normal`) sounds every level.
  public init(_ sound: ClickSound, sampleRate: SampleRate, volume: Double, samples: [Voice: [Float]] = [:]) {
    let gain = Float(min(max(volume, 0), 1))
    var own = samples.mapValues { $0.map { min(max($0 * gain, -1), 1) } }
    if own[.normal] == nil, let strong = own[.strong] { own[.normal] = strong.map { $0 * ClickSound.regularLevel } }
    if own[.weak] == nil, let normal = own[.normal] {
      own[.weak] = normal.map { $0 * ClickSound.weakLevel / ClickSound.regularLevel }
    }
    sounds = Voice.allCases.map { voice in
      if let mine = own[voice] { return mine }
      switch voice {
      case .strong: return sound.samples(level: .strong, sampleRate: sampleRate, volume: volume)
      case .normal: return sound.samples(level: .normal, sampleRate: sampleRate, volume: volume)
      case .weak: return sound.samples(level: .weak, sampleRate: sampleRate, volume: volume)
      case .subdivision: return sound.subdivisionSamples(sampleRate: sampleRate, volume: volume)
      case .polyrhythm: return sound.polyrhythmSamples(sampleRate: sampleRate, volume: volume)
      case .countIn: return sound.countInSamples(sampleRate: sampleRate, volume: volume)
      }
    }
  }

  /// The same kit with each voice's sound as `transform` makes it from the voice and its sound.
  public func transformed(_ transform: (Voice, [Float]) -> [Float]) -> SoundKit {
    SoundKit(sounds: zip(Voice.allCases, sounds).map(transform))
  }

  private init(sounds: [[Float]]) { self.sounds = sounds }

  /// The voice whose sound `beat` plays; nil for a silent one.
  ///
  /// A count-in's beat has a sound of its own, told from the music it leads into, unless
  /// `countInApart` is false: then it plays its level's sound, as the bar's beats do.
  public static func voice(of beat: Beat, countInApart: Bool = true) -> Voice? {
    guard beat.level != .silent else { return nil }
    if beat.isCountIn, countInApart { return .countIn }
    if beat.isPolyrhythm { return .polyrhythm }
    if beat.isSubdivision { return .subdivision }
    switch beat.level {
    case .strong: return .strong
    case .normal: return .normal
    case .weak, .silent: return .weak
    }
  }
}
