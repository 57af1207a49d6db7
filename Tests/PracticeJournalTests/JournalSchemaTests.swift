import Foundation
import PracticeJournal
import Testing

/// The journal's schema as metronome(5) describes it: each table and column named there, and
/// the version and mark the file carries.
@Suite(.timeLimit(.minutes(1)))
struct JournalSchemaTests {
  @Test func everyTableAndColumnIsDescribedInTheManPage() throws {
    let manual = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("man/metronome.5"), encoding: .utf8)
    let section = try #require(manual.components(separatedBy: ".Sh THE JOURNAL").dropFirst().first)
      .components(separatedBy: ".Sh EXAMPLES")[0]
    let folder = try JournalFolder()
    _ = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    let database = try SQLiteDatabase(path: folder.file("journal.sqlite3"), access: .read)
    let tables = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
      $0[0].text
    }
    #expect(tables == ["hit", "hit_group", "take"])
    // Each column on an item line of its table's section, alone or in a list.
    let described = { (table: String, column: String) -> Bool in
      let part = section.components(separatedBy: ".Ss \(table)\n").dropFirst().first?.components(separatedBy: ".Ss ")[0]
      return part?.split(separator: "\n").contains { line in
        line.hasPrefix(".It Li ")
          && line.dropFirst(7).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(column)
      } ?? false
    }
    for table in tables {
      for column in try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap({ $0[0].text }
      ) {
        #expect(described(table, column), "\(table).\(column) is not described in metronome(5)")
      }
    }
    #expect(section.contains("\(JournalSchema.applicationID)"))
    #expect(section.contains("1 today") && JournalSchema.version == 1)
  }
}
