import Foundation
import PracticeJournal
import Testing

/// The export: a JSON object per take, its hits in it, that any JSON reader reads back.
@Suite(.timeLimit(.minutes(1)))
struct JournalExportTests {
  @Test func eachTakeIsAJSONObjectWithItsHits() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    var take = TakeSamples.take(tag: "tab\there \"quoted\" \\ and \u{1}\u{1f}\r", offsets: [-2.5, 3.25])
    take.ending = "failed: line\nbreak"
    try journal.keep(take)
    try journal.keep(TakeSamples.take(day: 21, tag: nil))
    let lines = JournalExport.ndjson(try journal.takes(withHits: true)).split(separator: "\n")
    #expect(lines.count == 2)
    let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["tag"] as? String == take.tag)
    #expect(lines[0].contains("\\u0001\\u001f\\r"))
    #expect(first["ending"] as? String == "failed: line\nbreak")
    #expect(first["started"] as? String == "2026-11-20T09:00:00+01:00")
    let hits = try #require(first["hits"] as? [[String: Any]])
    #expect(hits.map { $0["offset"] as? Double } == [-2.5, 3.25])
    #expect(hits.map { $0["time"] as? Double } == [0, 0.6])
    #expect(hits.map { $0["note"] as? Int } == [38, 38])
    let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["tag"] is NSNull && second["tolerance"] is NSNull)
    #expect((second["hits"] as? [Any])?.isEmpty == true)
  }
}
