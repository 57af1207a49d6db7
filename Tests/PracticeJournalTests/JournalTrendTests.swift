import PracticeJournal
import PracticeListening
import Testing

/// A tag's days: minutes, the fastest tempo kept, and the day's timing pooled from its takes.
@Suite(.timeLimit(.minutes(1)))
struct JournalTrendTests {
  /// `takes` as kept: written to a journal of their own and read back.
  private func kept(_ takes: [Take]) throws -> [KeptTake] {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    for take in takes { try journal.keep(take) }
    return try journal.takes()
  }

  /// A day's mean and deviation are those of all its hits together, whichever take they came in.
  @Test func aDaysTimingIsThatOfAllItsHitsTogether() throws {
    let first: [Double] = [-12, -4, 3, 9, 15]
    let second: [Double] = [2, 2, 6, -20]
    let trend = try #require(
      JournalTrend.of(try kept([TakeSamples.take(offsets: first), TakeSamples.take(hour: 18, offsets: second)])).first)
    let whole = try #require(HitStatistics(offsets: (first + second).map { (0, $0) }, tolerance: 20))
    let day = try #require(trend.days.first)
    let hits = try #require(day.hits)
    #expect(trend.days.count == 1 && day.takes == 2 && day.minutes == 10)
    #expect(hits.hits == 9 && hits.onTime == whole.onTime)
    #expect(abs(hits.mean - whole.mean) < 1e-9 && abs(hits.deviation - whole.standardDeviation) < 1e-9)
  }

  /// A tempo is kept where at least 90 % of at least eight hits at it were within tolerance: nine
  /// of ten is, eight of nine is not, eight of eight is, seven of seven is too few.
  @Test func theFastestTempoKeptNeedsNinetyPercentOfEightHitsOrMore() throws {
    let onTime = { (count: Int) in Array(repeating: 1.0, count: count) }
    let day = { (takes: [Take]) throws -> Double? in JournalTrend.of(try kept(takes)).first?.days.first?.fastestKept }
    #expect(try day([TakeSamples.take(tempo: 120, offsets: onTime(9) + [40])]) == 120)
    #expect(try day([TakeSamples.take(tempo: 120, offsets: onTime(8) + [40])]) == nil)
    #expect(try day([TakeSamples.take(tempo: 120, offsets: onTime(8))]) == 120)
    #expect(try day([TakeSamples.take(tempo: 120, offsets: onTime(7))]) == nil)
    // Of several tempos kept, the fastest; a tempo's hits count together across the day's takes.
    #expect(
      try day([
        TakeSamples.take(tempo: 100, offsets: onTime(8)), TakeSamples.take(hour: 10, tempo: 130, offsets: onTime(4)),
        TakeSamples.take(hour: 11, tempo: 130, offsets: onTime(4)),
        TakeSamples.take(hour: 12, tempo: 140, offsets: onTime(8) + [50, 50]),
      ]) == 130)
  }

  /// Tags apart, each in the order first played; days apart, oldest first; notes apart only
  /// where a day had several.
  @Test func tagsDaysAndNotesApart() throws {
    let trends = JournalTrend.of(
      try kept([
        TakeSamples.take(day: 3, tag: "rudiments", offsets: [1, 2]),
        TakeSamples.take(day: 3, hour: 10, tag: "groove", offsets: [-5, 5, -3, 3], notes: [36, 38]),
        TakeSamples.take(day: 5, tag: "rudiments", offsets: [3]), TakeSamples.take(day: 6, tag: nil),
      ]))
    #expect(trends.map(\.tag) == ["rudiments", "groove", nil])
    #expect(trends[0].days.map(\.day) == ["2026-11-03", "2026-11-05"])
    #expect(trends[0].days[0].byNote == [])
    #expect(trends[1].days[0].byNote.map(\.note) == [36, 38])
    #expect(trends[1].days[0].byNote.map(\.hits.mean) == [-4, 4])
    #expect(trends[2].days[0].hits == nil && trends[2].days[0].minutes == 5)
  }
}
