import MetronomeCore

/// What the beat generator plays: tempo, meter and whether it is playing.
public struct MetronomeSettings: Hashable, Sendable {
  /// The tempo in quarter notes per minute.
  public var tempo: Tempo
  /// The time signature.
  public var meter: Meter
  /// Whether beats are being emitted.
  public var isPlaying: Bool

  /// Settings as given.
  public init(tempo: Tempo, meter: Meter, isPlaying: Bool) {
    self.tempo = tempo
    self.meter = meter
    self.isPlaying = isPlaying
  }
}
