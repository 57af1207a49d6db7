/// The earliest of a device's recent readings of when its frame 0 is heard: where a stream is, as
/// near as its readings come.
///
/// A device's position is read late, never early: it moves in steps (a period of ALSA's JACK
/// bridge, an interrupt of a sound card), and the host reads the clock after the position. So
/// every reading of when frame 0 was heard is the truth or later, and the earliest of many is
/// nearest it; a mean would sit half a step late, by as much as a period. The readings of the last
/// half to whole second count, so that the estimate follows the device's clock drifting against the
/// host's within a second.
///
/// A stream that moved is started anew: a reading more than 50 ms from the estimate, or, once
/// settled, three readings in a row later than the device's own spread allows (twice the furthest
/// any recent reading lay after the estimate, and 2 ms more for the host's clock read after it).
/// One or two such readings are a reader woken late (ALSA's JACK bridge gave single readings 3 and
/// 6 ms late beside two busy loops), set aside rather than taken.
/// A stream whose frame 0 is heard later lost frames: a sound server's cycle that a stalled
/// machine skipped takes one quantum out of what is captured (10.7 or 21.3 ms through PipeWire,
/// whose readings otherwise agree to 0.03 ms), and says nothing of it.
///
/// The readings of a stream's first 50 ms are not taken: PipeWire's first one or two came a whole
/// cycle early in 4 starts of 12, before its timing had caught up with the stream, and the
/// earliest would have kept them for a second.
public struct EarliestReading: Sendable {
  /// When the first reading was taken.
  private var firstMicros: Int64?
  /// The earliest and latest readings of the half second now being read, and when it started.
  private var current: (startMicros: Int64, earliest: Double, latest: Double)?
  /// The earliest and latest readings of the half second before it.
  private var previous: (earliest: Double, latest: Double)?
  /// How many readings in a row came later than the spread allows (none can before it settles,
  /// nor in the span a move starts anew).
  private var lateInARow = 0

  /// How long after its first reading a stream's readings are not taken.
  static let startingMicros: Int64 = 50_000
  /// A reading further than this from the estimate starts it anew.
  static let jumpMicros = 50_000.0
  /// How much later than the readings' spread a reading may come: the host's clock is read
  /// within a millisecond of the device's position (`ALSAPCM.readDelay`), and as much again.
  static let readLateMicros = 2_000.0
  /// How many readings in a row later than that say the stream moved.
  static let lateReadingsToMove = 3
  /// How long each of the two spans of readings lasts.
  static let spanMicros: Int64 = 500_000

  /// No reading yet.
  public init() {}

  /// Takes `reading` (when frame 0 is heard, in host microseconds), read at `nowMicros`; returns
  /// whether the stream moved (see above), which starts the estimate anew from `reading`.
  @discardableResult
  public mutating func read(_ reading: Double, atMicros nowMicros: Int64) -> Bool {
    let first = firstMicros ?? nowMicros
    firstMicros = first
    guard nowMicros - first >= Self.startingMicros else { return false }
    var moved = false
    if let estimate, let current {
      // How much later than the estimate a reading of the same stream may come, once settled.
      let latest = max(current.latest, previous?.latest ?? current.latest)
      let late = isSettled && reading - estimate > 2 * (latest - estimate) + Self.readLateMicros
      lateInARow = late ? lateInARow + 1 : 0
      moved = abs(reading - estimate) > Self.jumpMicros || lateInARow == Self.lateReadingsToMove
      if late && !moved { return false }
    }
    if moved { (current, previous, lateInARow) = (nil, nil, 0) }
    guard let span = current else {
      current = (nowMicros, reading, reading)
      return moved
    }
    if nowMicros - span.startMicros >= Self.spanMicros {
      (previous, current) = ((span.earliest, span.latest), (nowMicros, reading, reading))
    } else {
      current = (span.startMicros, min(span.earliest, reading), max(span.latest, reading))
    }
    return false
  }

  /// When frame 0 is heard, in host microseconds; nil before the first reading.
  public var estimate: Double? {
    guard let current else { return nil }
    return min(current.earliest, previous?.earliest ?? current.earliest)
  }

  /// Whether the last reading came later than the readings' spread allows and was set aside: the
  /// stream may have moved, which the next readings will say (`lateReadingsToMove`).
  public var isDoubted: Bool { lateInARow > 0 }

  /// Whether readings have been taken for a whole span (half a second) or more: enough for the
  /// estimate to have met the device's position where it has just moved.
  public var isSettled: Bool { previous != nil }
}
