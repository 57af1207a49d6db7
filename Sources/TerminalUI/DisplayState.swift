import MetronomeCore

/// Everything the interactive display shows.
public struct DisplayState: Equatable, Sendable {
  /// "120 BPM".
  public var tempoText: String
  /// The meter.
  public var meter: Meter
  /// Whether it is playing.
  public var isPlaying: Bool
  /// The beat heard last, while playing.
  public var heard: HeardBeat?
  /// The audio output's name ("default", or "silent").
  public var output: String
  /// The output latency in milliseconds, once known.
  public var latencyMilliseconds: Double?
  /// Underruns recovered from so far.
  public var underruns: Int

  /// The position of the beat heard last.
  public struct HeardBeat: Equatable, Sendable {
    public var bar: Int
    public var beat: Int
    public var isAccent: Bool

    public init(bar: Int, beat: Int, isAccent: Bool) {
      self.bar = bar
      self.beat = beat
      self.isAccent = isAccent
    }
  }

  /// A state as given.
  public init(
    tempoText: String, meter: Meter, isPlaying: Bool, heard: HeardBeat? = nil, output: String,
    latencyMilliseconds: Double? = nil, underruns: Int = 0
  ) {
    self.tempoText = tempoText
    self.meter = meter
    self.isPlaying = isPlaying
    self.heard = heard
    self.output = output
    self.latencyMilliseconds = latencyMilliseconds
    self.underruns = underruns
  }
}
