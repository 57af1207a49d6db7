import Glibc
import MetronomeAudio
import MetronomeCore

/// A silent sink paced by the system's monotonic clock, as if a device with a one-period buffer
/// were playing: each write returns once the previous period would have been heard.
public final class WallClockSink: AudioSink {
  /// The rate it plays at.
  public let sampleRate: SampleRate
  /// Always 0: it never runs dry.
  public let underrunCount = 0
  private var start: ContinuousClock.Instant?
  private var framesWritten: Int64 = 0
  private var lastWrite: Int64 = 0

  /// A sink at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  /// Frames written but not yet heard.
  public var outputDelayFrames: Int64 {
    guard let start else { return 0 }
    let played = Int64((ContinuousClock.now - start).seconds * Double(sampleRate.hz))
    return max(framesWritten - played, 0)
  }

  /// Frames written but not yet "heard", and now.
  public func timedOutputDelay() -> (frames: Int64, nanoseconds: Int64)? {
    (outputDelayFrames, MonotonicClock.nanoseconds)
  }

  /// Drops `period`, returning once the one before it would have been heard.
  public func write(_ period: RenderedPeriod) throws {
    let start = self.start ?? ContinuousClock.now
    self.start = start
    // Block until the previous write has played out, as a full device buffer would.
    let due = start + .nanoseconds(lastWrite * 1_000_000_000 / Int64(sampleRate.hz))
    let wait = due - ContinuousClock.now
    if wait > .zero {
      var request = timespec(
        tv_sec: Int(wait.components.seconds), tv_nsec: Int(wait.components.attoseconds / 1_000_000_000))
      nanosleep(&request, nil)
    }
    lastWrite = framesWritten
    framesWritten += Int64(period.frames)
  }

  /// Nothing to complete: no device holds anything.
  public func finish() throws {}
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
