import MetronomeAudio
import MetronomeCore

/// A sink that discards everything at once, for measuring the renderer alone.
public final class NullSink: AudioSink {
  /// The rate it counts frames at.
  public let sampleRate: SampleRate
  /// Frames written but not yet heard.
  public let outputDelayFrames: Int64 = 0
  /// Always 0: it never runs dry.
  public let underrunCount = 0
  /// Frames discarded so far.
  public private(set) var framesWritten: Int64 = 0

  /// A sink at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  /// Counts `period`'s frames and drops them.
  public func write(_ period: RenderedPeriod) throws { framesWritten += Int64(period.frames) }

  /// Nothing to complete.
  public func finish() throws {}
}
