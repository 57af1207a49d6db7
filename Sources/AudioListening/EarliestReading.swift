/// The earliest of a device's recent readings of when its frame 0 is heard: where a stream is, as
/// near as its readings come.
///
/// A device's position is read late, never early: it moves in steps (a period of ALSA's JACK
/// bridge, an interrupt of a sound card), and the host reads the clock after the position. So
/// every reading of when frame 0 was heard is the truth or later, and the earliest of many is
/// nearest it; a mean would sit half a step late, by as much as a period. The readings of the last
/// half to whole second count, so that the estimate follows the device's clock drifting against the
/// host's, and a stream that moved later (a sound server's cycle run late) within a second. A
/// reading more than 50 ms away from the estimate is the stream having moved (frames lost), and
/// starts it anew.
public struct EarliestReading: Sendable {
  /// The earliest reading of the half second now being read, and when it started.
  private var current: (startMicros: Int64, earliest: Double)?
  /// The earliest reading of the half second before it.
  private var previous: Double?

  /// A reading further than this from the estimate starts it anew.
  static let jumpMicros = 50_000.0
  /// How long each of the two spans of readings lasts.
  static let spanMicros: Int64 = 500_000

  /// No reading yet.
  public init() {}

  /// Takes `reading` (when frame 0 is heard, in host microseconds), read at `nowMicros`; returns
  /// whether it was more than 50 ms from the estimate, which it then starts anew from.
  @discardableResult
  public mutating func read(_ reading: Double, atMicros nowMicros: Int64) -> Bool {
    let moved = estimate.map { abs(reading - $0) > Self.jumpMicros } ?? false
    if moved { (current, previous) = (nil, nil) }
    guard let span = current else {
      current = (nowMicros, reading)
      return moved
    }
    if nowMicros - span.startMicros >= Self.spanMicros {
      (previous, current) = (span.earliest, (nowMicros, reading))
    } else {
      current = (span.startMicros, min(span.earliest, reading))
    }
    return false
  }

  /// When frame 0 is heard, in host microseconds; nil before the first reading.
  public var estimate: Double? {
    guard let current else { return nil }
    return min(current.earliest, previous ?? current.earliest)
  }

  /// Whether readings have been taken for a whole span (half a second) or more: enough for the
  /// estimate to have met the device's position where it has just moved.
  public var isSettled: Bool { previous != nil }
}
