import MetronomeCore

/// What klick's OSC namespace tells of a metronome, in klick's terms: read when a message
/// arrives, and again after a setter, so that a reply carries the value in force.
public struct KlickState: Equatable, Sendable {
  /// klick's kinds of metronome.
  public enum Kind: String, CaseIterable, Sendable {
    /// A tempo line: tempo, meter, pattern and klick's speed trainer.
    case simple
    /// A tempo map.
    case map
    /// Following the JACK transport.
    case jack
  }

  /// A value for the accented click and one for the normal click.
  public struct SoundPair: Equatable, Sendable {
    /// The accented click's.
    public var emphasis: Float
    /// The normal click's.
    public var normal: Float

    /// The pair `emphasis`, `normal`.
    public init(emphasis: Float, normal: Float) {
      self.emphasis = emphasis
      self.normal = normal
    }
  }

  /// klick's click sound: one of its built-in sounds by number, or two files.
  public enum Sound: Equatable, Sendable {
    /// klick's sound of that number: 0 square, 1 sine, 2 noise, 3 bell.
    case builtIn(Int32)
    /// The accented and the normal click from these sound files.
    case files(emphasis: String, normal: String)
  }

  /// Which metronome plays.
  public var kind: Kind = .simple
  /// Whether it plays.
  public var isActive = false
  /// The simple metronome's tempo.
  public var tempo = 120.0
  /// klick's speed trainer: BPM added each bar, from `tempoStart` up to `tempoLimit` (0: none).
  public var tempoIncrement = 0.0
  /// The trainer's starting tempo (0: the tempo).
  public var tempoStart = 0.0
  /// The trainer's last tempo (0: none).
  public var tempoLimit = 0.0
  /// The tempo heard now; 0 while stopped.
  public var currentTempo = 0.0
  /// The simple metronome's meter.
  public var meter = Meter.fourFour
  /// The simple metronome's accent pattern as written; empty for the standard one.
  public var pattern = ""
  /// The click's sound.
  public var sound = Sound.builtIn(0)
  /// The volumes of the accented and the normal click.
  public var soundVolume = SoundPair(emphasis: 1, normal: 1)
  /// The pitches of the accented and the normal click, as factors.
  public var soundPitch = SoundPair(emphasis: 1, normal: 1)
  /// The overall volume.
  public var volume: Float = 1
  /// The map file played; empty for none.
  public var mapFile = ""
  /// Bars counted in before the map: -1 for none (klick's default), 0 for two beats.
  public var preroll: Int32 = -1
  /// The map's tempo multiplier.
  public var tempoMultiplier: Float = 1
  /// The ports the output may connect to, listed only for the query that asks.
  public var availablePorts: [String] = []

  /// klick's state at start.
  public init() {}
}
