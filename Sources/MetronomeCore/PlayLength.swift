/// How long a run lasts: a number of beats, of bars, or of seconds.
public enum PlayLength: Hashable, Sendable {
  case beats(Int)
  case bars(Int)
  case seconds(Double)

  /// The longest run metronome plays, in seconds (over three years).
  ///
  /// Every time, frame and count of a run stays far inside 64 bits up to it, at every tempo and
  /// rate, so nothing traps; a longer length or a key pressed later is refused before anything
  /// starts.
  public static let longestSeconds: Double = 100_000_000

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
    return Int64(clamping: seconds * Double(sampleRate.hz))
  }

  /// How long the run lasts at a steady `tempo` in `meter`, in seconds.
  public func seconds(tempo: Tempo, meter: Meter) -> Double {
    let beat = tempo.secondsPerBeat(denominator: meter.denominator)
    switch self {
    case .beats(let count): return Double(count) * beat
    case .bars(let count): return Double(count) * Double(meter.numerator) * beat
    case .seconds(let seconds): return seconds
    }
  }

  /// Throws when the run, at a steady `tempo` in `meter`, would last longer than `longestSeconds`.
  public func checkFits(tempo: Tempo, meter: Meter) throws(PlayLengthError) {
    guard seconds(tempo: tempo, meter: meter) <= Self.longestSeconds else { throw PlayLengthError(length: self) }
  }
}

/// A length longer than the longest run.
public struct PlayLengthError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The length asked for.
  public let length: PlayLength

  /// The error for `length`.
  public init(length: PlayLength) { self.length = length }

  /// What was too long, and the limit.
  public var description: String {
    let asked: String
    switch length {
    case .beats(let count): asked = "--beats \(count)"
    case .bars(let count): asked = "--bars \(count)"
    case .seconds(let seconds): asked = "--duration \(Tempo.format(seconds))"
    }
    return "\(asked) lasts longer than the longest run, \(Tempo.format(PlayLength.longestSeconds)) seconds"
      + " (about three years): ask for less"
  }
}

extension Int64 {
  /// The nearest whole number to `value`, held to the range of `Int64`; NaN gives 0.
  ///
  /// Converting with `Int64(_:)` traps on such values instead.
  public init(clamping value: Double) {
    guard !value.isNaN else {
      self = 0
      return
    }
    // 2^63 is the first Double past Int64.max; every Double below it converts exactly.
    let limit = 9_223_372_036_854_775_808.0
    if value >= limit {
      self = .max
    } else if value < -limit {
      self = .min
    } else {
      self = Int64(value.rounded())
    }
  }
}
