import Glibc

/// A moment on the wall clock, with the player's offset from UTC then: where a take sits in the
/// player's days, whatever time zone the journal is later read in.
public struct WallTime: Hashable, Sendable {
  /// Seconds since 1970 in UTC.
  public let seconds: Double
  /// Seconds east of UTC on the player's clock at that moment.
  public let utcOffset: Int

  /// A moment as given.
  public init(seconds: Double, utcOffset: Int) {
    self.seconds = seconds
    self.utcOffset = utcOffset
  }

  /// Now, in the time zone the process runs in (`TZ`, else the system's).
  public static func now() -> WallTime {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    var whole = time.tv_sec
    var local = tm()
    localtime_r(&whole, &local)
    return WallTime(seconds: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9, utcOffset: local.tm_gmtoff)
  }

  /// The player's calendar day: "2026-11-27".
  public var day: String {
    let fields = calendar
    return "\(fields.year)-\(Self.twoDigits(fields.month))-\(Self.twoDigits(fields.day))"
  }

  /// The player's time of day, to the minute: "09:41".
  public var clock: String {
    let fields = calendar
    return "\(Self.twoDigits(fields.hour)):\(Self.twoDigits(fields.minute))"
  }

  /// ISO 8601 to the second with the offset: "2026-11-27T09:41:05+01:00".
  public var iso8601: String {
    let fields = calendar
    let offset = abs(utcOffset) / 60
    return "\(day)T\(clock):\(Self.twoDigits(fields.second))\(utcOffset < 0 ? "-" : "+")"
      + "\(Self.twoDigits(offset / 60)):\(Self.twoDigits(offset % 60))"
  }

  /// The calendar's fields at this moment on the player's clock.
  private var calendar: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    var shifted = time_t(seconds.rounded(.down)) + time_t(utcOffset)
    var fields = tm()
    gmtime_r(&shifted, &fields)
    return (
      Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
      Int(fields.tm_min), Int(fields.tm_sec)
    )
  }

  /// The day `days` before this moment's day, as `day` writes it.
  public func day(daysBefore days: Int) -> String {
    WallTime(seconds: seconds - Double(days) * 86_400, utcOffset: utcOffset).day
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
