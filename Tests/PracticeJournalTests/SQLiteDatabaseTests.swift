import Foundation
import PracticeJournal
import Testing

/// The one place SQLite is called: values bound and read back, transactions, SQLite's reasons.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteDatabaseTests {
  @Test func valuesAreBoundAndReadBackAsTheyWere() throws {
    let folder = try JournalFolder()
    let database = try SQLiteDatabase(path: folder.file("values.sqlite3"), access: .readWriteCreating)
    try database.execute("CREATE TABLE value (v)")
    let values: [SQLiteValue] = [.null, .integer(-(1 << 62)), .real(-2.5), .text("ünïcode ✓ 'quoted'"), .text("")]
    try database.run("INSERT INTO value (v) VALUES (?)", rows: values.map { [$0] })
    #expect(database.changes == 1)
    #expect(try database.rows("SELECT v FROM value ORDER BY rowid").map(\.[0]) == values)
    #expect(try database.rows("SELECT count(*) FROM value WHERE v = ?", [.text("")]) == [[.integer(1)]])
    #expect(database.lastInsertedRow == 5)
    #expect(SQLiteValue.integer(3).double == 3 && SQLiteValue.text("x").double == nil && SQLiteValue.null.text == nil)
  }

  @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
    let folder = try JournalFolder()
    let database = try SQLiteDatabase(path: folder.file("t.sqlite3"), access: .readWriteCreating)
    try database.execute("CREATE TABLE t (v INTEGER NOT NULL)")
    #expect(throws: SQLiteError.self) {
      try database.transaction { () throws(SQLiteError) in
        try database.run("INSERT INTO t VALUES (?)", rows: [[.integer(1)]])
        try database.run("INSERT INTO t VALUES (?)", rows: [[.null]])
      }
    }
    #expect(try database.rows("SELECT count(*) FROM t") == [[.integer(0)]])
    try database.transaction { () throws(SQLiteError) in try database.run("INSERT INTO t VALUES (1)", rows: [[]]) }
    #expect(try database.rows("SELECT count(*) FROM t") == [[.integer(1)]])
  }

  @Test func sqlitesReasonsSayWhatIsWrongWithTheFile() throws {
    let folder = try JournalFolder()
    #expect {
      try SQLiteDatabase(path: folder.file("no/such/folder/x.sqlite3"), access: .readWriteCreating)
    } throws: { ($0 as? SQLiteError)?.cause == .cannotOpen }
    #expect {
      try SQLiteDatabase(path: folder.file("absent.sqlite3"), access: .read)
    } throws: { ($0 as? SQLiteError)?.cause == .cannotOpen }
    try Data("not a database at all, just text that is long enough to be read as a header".utf8)
      .write(to: URL(fileURLWithPath: folder.file("text")))
    let text = try SQLiteDatabase(path: folder.file("text"), access: .read)
    #expect { try text.rows("PRAGMA user_version") } throws: { ($0 as? SQLiteError)?.cause == .notADatabase }
    let database = try SQLiteDatabase(path: folder.file("ro.sqlite3"), access: .readWriteCreating)
    try database.execute("CREATE TABLE t (v)")
    let reader = try SQLiteDatabase(path: folder.file("ro.sqlite3"), access: .read)
    #expect(reader.isReadOnly && !database.isReadOnly)
    #expect { try reader.execute("INSERT INTO t VALUES (1)") } throws: { ($0 as? SQLiteError)?.cause == .readOnly }
    #expect { try database.execute("SELECT nonsense FROM") } throws: { error in
      (error as? SQLiteError).map { $0.cause == nil && $0.description.hasPrefix("could not write: ") } ?? false
    }
  }
}
