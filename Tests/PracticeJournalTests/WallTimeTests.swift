import Glibc
import PracticeJournal
import Testing

/// A moment in the player's days, wherever the journal is read.
@Suite(.timeLimit(.minutes(1)))
struct WallTimeTests {
  @Test func theDayAndTimeAreThePlayersOwn() {
    // 2026-11-27 23:30 UTC.
    let moment = 1_795_822_200.0
    #expect(WallTime(seconds: moment, utcOffset: 0).iso8601 == "2026-11-27T23:30:00+00:00")
    #expect(WallTime(seconds: moment, utcOffset: 3_600).day == "2026-11-28")
    #expect(WallTime(seconds: moment, utcOffset: 3_600).clock == "00:30")
    #expect(WallTime(seconds: moment, utcOffset: -5 * 3_600 - 1_800).iso8601 == "2026-11-27T18:00:00-05:30")
    #expect(WallTime(seconds: moment + 0.9, utcOffset: 0).iso8601 == "2026-11-27T23:30:00+00:00")
  }

  @Test func daysBackCrossMonthsAndYears() {
    let newYear = WallTime(seconds: 1_798_761_600, utcOffset: 0)  // 2027-01-01 00:00 UTC
    #expect(newYear.day == "2027-01-01")
    #expect(newYear.day(daysBefore: 1) == "2026-12-31")
    #expect(newYear.day(daysBefore: 365) == "2026-01-01")
    #expect(newYear.day(daysBefore: 0) == "2027-01-01")
  }

  /// Now is now, to the nanosecond the clock gives, in the time zone the process runs in.
  @Test func nowIsTheClocksInThisTimeZone() {
    var before = timespec()
    clock_gettime(CLOCK_REALTIME, &before)
    let now = WallTime.now()
    var after = timespec()
    clock_gettime(CLOCK_REALTIME, &after)
    let seconds = { (time: timespec) in Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
    #expect(seconds(before) <= now.seconds && now.seconds <= seconds(after))
    var whole = after.tv_sec
    var local = tm()
    localtime_r(&whole, &local)
    #expect(now.utcOffset == local.tm_gmtoff)
    // Away from UTC too: five and a half hours east, as the zone the process is in says.
    let zone = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", "IST-5:30", 1)
    tzset()
    defer {
      if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
      tzset()
    }
    #expect(WallTime.now().utcOffset == 19_800)
  }
}
