import MetronomeCore
import OpenCombine

/// A point on the metronome's clock, in ticks of `1 / SampleRate.clockTicksPerSecond` seconds.
///
/// Live it is the audio render cursor; in tests it is virtual. Literals are seconds: `0.5` is
/// half a second after the clock started.
public struct AudioTime: Strideable, Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  CustomStringConvertible
{
  /// Clock ticks since the clock started.
  public var ticks: Int64

  /// The time `ticks` ticks after the start.
  public init(ticks: Int64) { self.ticks = ticks }

  /// The time `seconds` after the start, to the nearest tick.
  public init(seconds: Double) { ticks = Stride.seconds(seconds).ticks }

  /// The time of `frame` at `sampleRate`; exact, since every frame is a whole number of ticks.
  ///
  /// A frame past the clock's range (some 400 years) gives its last tick rather than trapping.
  public init(frame: Int64, sampleRate: SampleRate) {
    let (product, overflow) = frame.multipliedReportingOverflow(by: sampleRate.ticksPerFrame)
    ticks = overflow ? (frame < 0 ? .min : .max) : product
  }

  /// The time (or span) of a whole number of seconds.
  public init(integerLiteral seconds: Int) { self.init(ticks: Stride.seconds(seconds).ticks) }

  /// The time (or span) of a number of seconds, to the nearest tick.
  public init(floatLiteral seconds: Double) { self.init(seconds: seconds) }

  /// Seconds since the start.
  public var seconds: Double { Double(ticks) / Double(SampleRate.clockTicksPerSecond) }

  /// The first frame at `sampleRate` that is not before this time.
  public func frame(roundingUpAt sampleRate: SampleRate) -> Int64 {
    let perFrame = sampleRate.ticksPerFrame
    let (quotient, remainder) = ticks.quotientAndRemainder(dividingBy: perFrame)
    return remainder > 0 ? quotient + 1 : quotient
  }

  /// The span from this time to `other`.
  public func distance(to other: AudioTime) -> Stride { Stride(ticks: other.ticks - ticks) }

  /// This time moved on by `stride`.
  public func advanced(by stride: Stride) -> AudioTime { AudioTime(ticks: ticks + stride.ticks) }

  /// How it reads in messages and test failures.
  public var description: String { "\(seconds)s" }

  /// A span of clock time.
  ///
  /// Literals are seconds.
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable,
    ExpressibleByFloatLiteral, CustomStringConvertible
  {
    /// Clock ticks in the span.
    public var ticks: Int64

    /// A span of `ticks` ticks.
    public init(ticks: Int64) { self.ticks = ticks }

    /// The time (or span) of a whole number of seconds.
    public init(integerLiteral seconds: Int) { self = .seconds(seconds) }

    /// The time (or span) of a number of seconds, to the nearest tick.
    public init(floatLiteral seconds: Double) { self = .seconds(seconds) }

    /// The span of `source` whole seconds, if it is a whole number.
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let seconds = Int(exactly: source) else { return nil }
      self = .seconds(seconds)
    }

    /// The span of `s` whole seconds; held to the clock's range rather than trapping.
    public static func seconds(_ s: Int) -> Stride {
      let (ticks, overflow) = Int64(s).multipliedReportingOverflow(by: SampleRate.clockTicksPerSecond)
      return Stride(ticks: overflow ? (s < 0 ? .min : .max) : ticks)
    }

    /// The span of `s` seconds, to the nearest tick; held to the clock's range rather than trapping.
    public static func seconds(_ s: Double) -> Stride {
      Stride(ticks: Int64(clamping: s * Double(SampleRate.clockTicksPerSecond)))
    }

    /// The span of `ms` milliseconds.
    public static func milliseconds(_ ms: Int) -> Stride { .seconds(Double(ms) / 1e3) }

    /// The span of `us` microseconds.
    public static func microseconds(_ us: Int) -> Stride { .seconds(Double(us) / 1e6) }

    /// The span of `ns` nanoseconds.
    public static func nanoseconds(_ ns: Int) -> Stride { .seconds(Double(ns) / 1e9) }

    /// The span of `frames` frames at `sampleRate`.
    public static func frames(_ frames: Int64, at sampleRate: SampleRate) -> Stride {
      Stride(ticks: AudioTime(frame: frames, sampleRate: sampleRate).ticks)
    }

    /// The span in seconds.
    public var seconds: Double { Double(ticks) / Double(SampleRate.clockTicksPerSecond) }

    /// The span without its sign.
    public var magnitude: Stride { Stride(ticks: Swift.abs(ticks)) }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }
    /// The two spans added.
    public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks + rhs.ticks) }
    /// `lhs` less `rhs`.
    public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks - rhs.ticks) }
    /// Required by `SignedNumeric`; scales by the other span's tick count, which is rarely meaningful.
    public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks * rhs.ticks) }
    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout Stride, rhs: Stride) { lhs.ticks += rhs.ticks }
    /// Takes `rhs` from `lhs`.
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs.ticks -= rhs.ticks }
    /// Scales `lhs` by `rhs`'s tick count.
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs.ticks *= rhs.ticks }

    /// How it reads in messages and test failures.
    public var description: String { "\(seconds)s" }
  }
}
