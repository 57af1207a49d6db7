import MetronomeCore

/// What the beat generator plays: tempo, meter, rhythm, programme and whether it is playing.
public struct MetronomeSettings: Hashable, Sendable {
  /// The tempo in quarter notes per minute.
  public var tempo: Tempo
  /// The time signature.
  public var meter: Meter
  /// Whether beats are being emitted.
  public var isPlaying: Bool
  /// How the bar's clicks sound: levels, subdivision, a second voice, muting.
  public var rhythm: Rhythm
  /// A tempo map and its multiplier, and a count-in.
  public var programme: Programme

  /// Settings as given; without a pattern, beat one strong and the others normal.
  public init(
    tempo: Tempo, meter: Meter, isPlaying: Bool, rhythm: Rhythm = Rhythm(), programme: Programme = Programme()
  ) {
    self.tempo = tempo
    self.meter = meter
    self.isPlaying = isPlaying
    self.programme = programme
    var rhythm = rhythm
    rhythm.pattern = rhythm.pattern ?? .standard(beats: meter.numerator)
    self.rhythm = rhythm
  }
}
