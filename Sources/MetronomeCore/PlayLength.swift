/// How long a run lasts: a number of beats, of bars, or of seconds.
public enum PlayLength: Hashable, Sendable {
  case beats(Int)
  case bars(Int)
  case seconds(Double)

  /// Whether `beat` is still inside the run; the first beat that is not ends it.
  public func contains(_ beat: Beat) -> Bool {
    switch self {
    case .beats(let count): return beat.count < count
    case .bars(let count): return beat.bar <= count
    case .seconds(let seconds): return beat.seconds < seconds
    }
  }

  /// The frame the run ends on when it is a span of time rather than a count of beats.
  public func endFrame(at sampleRate: SampleRate) -> Int64? {
    guard case .seconds(let seconds) = self else { return nil }
    return Int64((seconds * Double(sampleRate.hz)).rounded())
  }
}
