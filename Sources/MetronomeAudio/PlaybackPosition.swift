/// How much of a stream a device has played, and when it was asked.
public struct PlaybackPosition: Equatable, Sendable {
  /// Frames of the stream heard so far: those written, less those still queued.
  public let heardFrames: Int64
  /// When, on the monotonic clock, in nanoseconds.
  public let nanoseconds: Int64

  /// A position of `heardFrames` at `nanoseconds`.
  public init(heardFrames: Int64, nanoseconds: Int64) {
    self.heardFrames = heardFrames
    self.nanoseconds = nanoseconds
  }
}
