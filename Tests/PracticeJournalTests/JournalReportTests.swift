import Foundation
import PracticeJournal
import Testing

/// The report: a page to look at, the trend alone as a picture, a row per take.
@Suite(.timeLimit(.minutes(1)))
struct JournalReportTests {
  private let takes: [KeptTake]

  init() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    for day in 1...40 {
      // A player getting steadier and faster: 7 of 10 hits on time at first, 9 of 10 from day 21.
      let late = day > 20 ? 1 : 3
      try journal.keep(
        TakeSamples.take(
          day: day, tag: "a <b> & \"c\"", tempo: Double(90 + day),
          offsets: Array(repeating: -2, count: 10 - late) + Array(repeating: 40, count: late)))
    }
    try journal.keep(TakeSamples.take(day: 12, hour: 20, tag: nil))
    takes = try journal.takes()
  }

  /// The page names each tag (escaped) with its picture, says what its days come to, shows the
  /// latest 30 days and takes and says where the rest are.
  @Test func thePageDrawsEachTagAndShowsTheLatestDaysAndTakes() throws {
    let page = JournalReport.text(of: takes, as: .html)
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(page.contains("<h2>a &lt;b&gt; &amp; &quot;c&quot;</h2>"))
    #expect(page.contains("<h2>untagged</h2>"))
    #expect(page.components(separatedBy: "<svg ").count - 1 == 2)
    #expect(page.contains("41 takes, 205.0 minutes, from 2026-11-01 to 2026-12-10."))
    #expect(
      page.contains(
        "40 days played, 200.0 minutes; fastest kept at 90 %: 111 BPM at first, 130 BPM lately;"
          + " within tolerance: 70% at first, 90% lately."))
    #expect(page.contains("<p>The latest 30 of 40 days (metronome journal lists them all; --report FILE.csv too).</p>"))
    #expect(
      page.contains("<p>The latest 30 of 41 takes (metronome journal lists them all; --report FILE.csv too).</p>"))
    #expect(!page.contains("<b>"))
  }

  /// The picture holds a chart for each trend, a point for each day's share and each take.
  @Test func thePictureHasAPointForEachDayAndTake() throws {
    let picture = JournalReport.text(of: takes.filter { $0.take.tag != nil }, as: .svg)
    #expect(picture.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    for title in ["Minutes played a day", "Hits within tolerance a day", "Timing a day", "Tempo a day", "Each take:"] {
      #expect(picture.contains(">\(title)"), "\(title)")
    }
    // Each day's share on the line, its mean and the fastest tempo played; the fastest kept on the
    // 20 days that kept one; each take's point.
    #expect(picture.components(separatedBy: "<circle ").count - 1 == 40 * 3 + 20 + 40)
  }

  /// The rows are the takes, quoted where a field holds a comma or a quote.
  @Test func theRowsAreTheTakes() throws {
    let rows = JournalReport.text(of: takes, as: .csv).split(separator: "\n")
    #expect(rows.count == 42)
    #expect(rows[0].hasPrefix("started,day,minutes,tag,meters,"))
    #expect(rows[1].hasPrefix("2026-11-01T09:00:00+01:00,2026-11-01,5.000,\"a <b> & \"\"c\"\"\",4/4,91.000,"))
    #expect(rows[1].hasSuffix(",steady,quit,20.000,10,7,0,3,10.600,-2.000,19.247"))
    #expect(rows.filter { $0.contains("2026-11-12T20:00:00+01:00,2026-11-12,5.000,,4/4,100.000,") }.count == 1)
  }

  @Test func theFormatIsTheFilesExtension() {
    #expect(JournalReport.Format(path: "trend.HTML") == .html)
    #expect(JournalReport.Format(path: "a.b/trend.svg") == .svg)
    #expect(JournalReport.Format(path: "trend.csv") == .csv)
    #expect(JournalReport.Format(path: "trend.pdf") == nil)
    #expect(JournalReport.Format(path: "html") == nil)
  }

  /// The page's minutes are every take's seconds together; a tag's days come with their table's
  /// header; at 30 takes there is no note that the table shows only the latest.
  @Test func thePageAddsTheSecondsAndShowsWholeTablesOfThirty() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    // 30 takes of 5 min 52 s, 176 min in all.
    for day in 1...30 { try journal.keep(TakeSamples.take(day: day, minutes: 352.0 / 60)) }
    let page = JournalReport.text(of: try journal.takes(), as: .html)
    #expect(page.contains("<p>30 takes, 176.0 minutes, from 2026-11-01 to 2026-11-30.</p>"))
    #expect(page.contains("<pre>\nday         takes  min  kept at  mean  dev  within  per note\n"))
    #expect(!page.contains("The latest"))
    // Seconds add up before they are rounded: 176 s is 2.9 minutes, 177 s would be 3.0.
    let one = try JournalFolder()
    let single = try Journal.openForKeeping(one.file("journal.sqlite3"))
    try single.keep(TakeSamples.take(minutes: 176.0 / 60))
    #expect(JournalReport.text(of: try single.takes(), as: .html).contains("<p>1 take, 2.9 minutes, from "))
  }
}
