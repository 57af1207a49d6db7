import MetronomeCore

/// What the beat generator plays: tempo, meter and whether it is playing.
public struct MetronomeSettings: Hashable, Sendable {
  /// The tempo in quarter notes per minute.
  public var tempo: Tempo
  /// The time signature.
  public var meter: Meter
  /// Whether beats are being emitted.
  public var isPlaying: Bool
  /// The levels of a bar's beats; a pattern that does not fit the meter plays the standard ones.
  public var pattern: AccentPattern
  /// How each beat is divided.
  public var subdivision: Subdivision

  /// Settings as given; without a pattern, beat one strong and the others normal.
  public init(
    tempo: Tempo, meter: Meter, isPlaying: Bool, pattern: AccentPattern? = nil, subdivision: Subdivision = .none
  ) {
    self.tempo = tempo
    self.meter = meter
    self.isPlaying = isPlaying
    self.pattern = pattern ?? .standard(beats: meter.numerator)
    self.subdivision = subdivision
  }
}
