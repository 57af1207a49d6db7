import MetronomeAudio
import MetronomeCore

/// A sink that discards everything at once, for measuring the renderer alone.
public final class NullSink: AudioSink {
  public let sampleRate: SampleRate
  public let outputDelayFrames: Int64 = 0
  public let underrunCount = 0
  /// Frames discarded so far.
  public private(set) var framesWritten: Int64 = 0

  /// A sink at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  public func write(_ period: RenderedPeriod) throws { framesWritten += Int64(period.frames) }

  public func finish() throws {}
}
