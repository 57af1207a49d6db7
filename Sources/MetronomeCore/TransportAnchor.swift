/// An outside clock the beats may follow, named as beat events name it.
public enum ClockSource: String, Hashable, Sendable {
  /// The JACK transport.
  case jack
  /// An Ableton Link session.
  case link
  /// MIDI clock received.
  case midi
}

/// Where an outside clock (a JACK transport master, a Link session, MIDI clock) puts the next
/// beat: its frame, its bar and beat, and the tempo and meter from there on; a new anchor has a
/// new `id`.
public struct TransportAnchor: Hashable, Sendable {
  /// Which anchor this is: the beats start again from each new one.
  public let id: Int
  /// The clock it came from.
  public let source: ClockSource
  /// The frame the next beat falls on.
  public let frame: Int64
  /// That beat's bar, from 1.
  public let bar: Int
  /// That beat's place in its bar, from 1.
  public let beatInBar: Int
  /// The tempo from there on.
  public let tempo: Tempo
  /// The meter from there on.
  public let meter: Meter

  /// An anchor as given.
  public init(id: Int, source: ClockSource, frame: Int64, bar: Int, beatInBar: Int, tempo: Tempo, meter: Meter) {
    self.id = id
    self.source = source
    self.frame = frame
    self.bar = bar
    self.beatInBar = beatInBar
    self.tempo = tempo
    self.meter = meter
  }
}

/// What a transport says at the start of a cycle: whether it rolls, its frame, and its bar, beat
/// and tempo when a timebase master publishes them.
public struct TransportReading: Hashable, Sendable {
  /// A timebase master's position: bar and beat from 1, how far into the beat, in beats of
  /// `meter`'s note value per minute.
  public struct BarBeat: Hashable, Sendable {
    /// The bar, from 1.
    public let bar: Int
    /// The beat, from 1.
    public let beat: Int
    /// How far into the beat, from 0 up to 1.
    public let fraction: Double
    /// The smallest step of `fraction`: one tick of the master's, 1/1920 for most.
    public let resolution: Double
    /// Beats of `meter.denominator` notes per minute, as JACK counts them.
    public let beatsPerMinute: Double
    /// The meter.
    public let meter: Meter

    /// A position as given.
    public init(bar: Int, beat: Int, fraction: Double, resolution: Double, beatsPerMinute: Double, meter: Meter) {
      self.bar = bar
      self.beat = beat
      self.fraction = fraction
      self.resolution = resolution
      self.beatsPerMinute = beatsPerMinute
      self.meter = meter
    }
  }

  /// Whether the transport rolls.
  public let isRolling: Bool
  /// The transport's frame at the start of the cycle.
  public let frame: Int64
  /// Bar, beat and tempo, when a timebase master publishes them.
  public let barBeat: BarBeat?

  /// A reading as given.
  public init(isRolling: Bool, frame: Int64, barBeat: BarBeat?) {
    self.isRolling = isRolling
    self.frame = frame
    self.barBeat = barBeat
  }
}
