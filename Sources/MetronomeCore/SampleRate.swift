/// An audio sample rate in frames per second, one whose frames fall on whole ticks of the
/// metronome's clock so that no beat position is ever rounded twice.
public struct SampleRate: Hashable, Sendable, CustomStringConvertible {
  /// Ticks per second of the metronome's clock: every common rate (8 kHz to 192 kHz, the 44.1 kHz
  /// family included) divides it, so a frame is always a whole number of ticks.
  public static let clockTicksPerSecond: Int64 = 705_600_000
  /// The lowest and highest rates accepted.
  public static let range = 8_000...192_000
  /// The rate used unless the user picks another.
  public static let standard = SampleRate(unchecked: 48_000)

  /// Frames per second.
  public let hz: Int

  /// The rate `hz`, or an error when it is outside `range` or does not divide the clock.
  public init(_ hz: Int) throws(SampleRateError) {
    guard Self.range.contains(hz), Self.clockTicksPerSecond % Int64(hz) == 0 else {
      throw SampleRateError(hz: hz)
    }
    self.hz = hz
  }

  private init(unchecked hz: Int) { self.hz = hz }

  /// Clock ticks per frame at this rate.
  public var ticksPerFrame: Int64 { Self.clockTicksPerSecond / Int64(hz) }

  /// How it reads in messages and test failures.
  public var description: String { "\(hz) Hz" }
}

/// A sample rate the metronome cannot use.
public struct SampleRateError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The rejected rate.
  public let hz: Int

  /// The error for `hz`.
  public init(hz: Int) { self.hz = hz }

  /// How it reads in messages and test failures.
  public var description: String {
    "sample rate \(hz) is not supported: use a rate from 8000 to 192000 such as 44100, 48000 or 96000"
  }
}
