import Foundation
import Glibc
import PracticeJournal
import PracticeListening
import Testing

/// The journal's file: takes kept and read back with their figures, chosen, forgotten; files
/// that are not journals, or cannot be written, refused and left as they are.
@Suite(.timeLimit(.minutes(1)))
struct JournalTests {
  private let folder: JournalFolder
  private let path: String

  init() throws {
    folder = try JournalFolder()
    path = folder.file("state/metronome/journal.sqlite3")
  }

  @Test func aTakeIsKeptAndReadBackWithItsFiguresWholeByTempoAndByNote() throws {
    let offsets: [Double] = [-30, -10, 0, 10, 50, 4, -4, 2]
    let take = TakeSamples.take(offsets: offsets, notes: [36, 38])
    let journal = try Journal.openForKeeping(path)
    let id = try journal.keep(take)
    let kept = try #require(try journal.takes(withHits: true).first)
    #expect(kept.id == id)
    #expect(kept.take == take)
    let statistics = try #require(HitStatistics(offsets: take.hits.map { ($0.seconds, $0.offset) }, tolerance: 20))
    let figures = try #require(kept.figures)
    #expect(figures.hits == 8 && figures.onTime == statistics.onTime && figures.early == 1 && figures.late == 1)
    #expect(figures.mean == statistics.mean && figures.median == statistics.median)
    #expect(figures.deviation == statistics.standardDeviation && figures.drift == statistics.driftPerMinute)
    #expect(kept.byTempo.map(\.value) == [100] && kept.byTempo.map(\.hits) == [8])
    #expect(kept.byNote.map(\.value) == [36, 38])
    // The kick's hits are -30, 0, 50, -4: one early, one late.
    let kick = try #require(HitStatistics(offsets: [(0, -30), (0, 0), (0, 50), (0, -4)], tolerance: 20))
    #expect(
      kept.byNote[0]
        == KeptTake.Group(value: 36, hits: 4, onTime: 2, mean: kick.mean, deviation: kick.standardDeviation))
    // Read without its hits, it is the same but for them.
    #expect(try journal.takes().first?.take.hits == [])
  }

  /// Every value a take holds reads back as it was kept: tempos that moved, a status and
  /// ending of their own.
  @Test func everyValueReadsBackAsItWasKept() throws {
    var take = TakeSamples.take(offsets: [1, -3])
    take.tempos = Take.Tempos(first: 100, last: 110, lowest: 95, highest: 120)
    (take.status, take.ending, take.meters, take.beats) = (143, "interrupted (SIGTERM)", ["4/4", "7/8"], 77)
    let journal = try Journal.openForKeeping(path)
    try journal.keep(take)
    #expect(try journal.takes(withHits: true).first?.take == take)
  }

  /// A row whose values are not of its column's kind (a journal written by hand, or damaged) is
  /// a damaged journal, said as such.
  @Test func aRowOfTheWrongKindIsADamagedJournal() throws {
    let journal = try Journal.openForKeeping(path)
    try journal.keep(TakeSamples.take(offsets: [1]))
    try SQLiteDatabase(path: path, access: .readWriteCreating).execute("UPDATE take SET beats = 'many'")
    #expect(throws: JournalError(path: path, .damaged("column 11 of a row is no whole number"))) {
      try journal.takes()
    }
    try SQLiteDatabase(path: path, access: .readWriteCreating).execute(
      "UPDATE take SET beats = 3; UPDATE hit SET note = 'x'")
    #expect(throws: JournalError(path: path, .damaged("column 8 of a row is no whole number"))) {
      try journal.takes(withHits: true)
    }
    try SQLiteDatabase(path: path, access: .readWriteCreating).execute("UPDATE hit_group SET mean = 'x'")
    #expect(throws: JournalError(path: path, .damaged("column 6 of a row is no number"))) { try journal.takes() }
  }

  /// A journal opened to forget from forgets the hits with their takes; one of an earlier version
  /// is no journal to read until a run has brought it forward.
  @Test func aJournalOpenedToForgetFromForgetsTheHitsToo() throws {
    try Journal.openForKeeping(path).keep(TakeSamples.take(offsets: [1, 2, 3]))
    let journal = try Journal.open(path, forgetting: true)
    #expect(try journal.forget(JournalFilter(last: 1)) == 1)
    #expect(try SQLiteDatabase(path: path, access: .read).rows("SELECT count(*) FROM hit") == [[.integer(0)]])
    let earlier = folder.file("earlier.sqlite3")
    try SQLiteDatabase(path: earlier, access: .readWriteCreating).execute(
      "PRAGMA application_id = \(JournalSchema.applicationID); PRAGMA user_version = 0")
    #expect(throws: JournalError(path: earlier, .notAJournal)) { try Journal.open(earlier, forgetting: false) }
    #expect(throws: JournalError(path: folder.path, .cannotOpen("it is not a file"))) {
      try Journal.open(folder.path, forgetting: false)
    }
  }

  /// Folders that cannot be made (a file where one should be) are one line.
  @Test func aFolderThatCannotBeMadeIsSaid() throws {
    let file = folder.file("file")
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    #expect(
      throws: JournalError(
        path: file + "/metronome/journal.sqlite3", .cannotOpen("cannot make \(file)/metronome: Not a directory"))
    ) {
      try Journal.openForKeeping(file + "/metronome/journal.sqlite3")
    }
  }

  @Test func aTakeThatDidNotListenIsKeptWithoutFigures() throws {
    let journal = try Journal.openForKeeping(path)
    try journal.keep(TakeSamples.take(tag: nil))
    let kept = try #require(try journal.takes().first)
    #expect(kept.figures == nil && kept.byTempo == [] && kept.byNote == [] && kept.take.tolerance == nil)
    #expect(kept.take.tag == nil)
  }

  /// The journal and the folders it is in are made, the folders for the user alone, and the file
  /// is marked as a journal of this version.
  @Test func aNewJournalIsMadeInFoldersForTheUserAlone() throws {
    _ = try Journal.openForKeeping(path)
    var status = stat()
    #expect(stat(folder.file("state/metronome"), &status) == 0)
    #expect(status.st_mode & 0o777 == 0o700)
    let database = try SQLiteDatabase(path: path, access: .read)
    #expect(try database.rows("PRAGMA user_version") == [[.integer(Int64(JournalSchema.version))]])
    #expect(try database.rows("PRAGMA application_id") == [[.integer(Int64(JournalSchema.applicationID))]])
  }

  /// An empty file is a journal not yet begun, and one of an earlier version is brought forward,
  /// keeping what it holds.
  @Test func anEmptyOrEarlierJournalIsBroughtForward() throws {
    let empty = folder.file("empty.sqlite3")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    try Journal.openForKeeping(empty).keep(TakeSamples.take())
    #expect(try Journal.open(empty, forgetting: false).takes().count == 1)
    let earlier = folder.file("earlier.sqlite3")
    let database = try SQLiteDatabase(path: earlier, access: .readWriteCreating)
    try database.execute("PRAGMA application_id = \(JournalSchema.applicationID); PRAGMA user_version = 0")
    try Journal.openForKeeping(earlier).keep(TakeSamples.take())
    #expect(try database.rows("PRAGMA user_version") == [[.integer(Int64(JournalSchema.version))]])
    #expect(try Journal.open(earlier, forgetting: false).takes().count == 1)
  }

  /// Which takes: by tag, from a day on (that day included), on one day, the last few of those.
  @Test func takesAreChosenByTagDaysAndTheLastFew() throws {
    let journal = try Journal.openForKeeping(path)
    for (day, tag) in [(18, "groove"), (19, "rudiments"), (20, "groove"), (20, "groove"), (22, "rudiments")] {
      try journal.keep(TakeSamples.take(day: day, hour: 9 + journal.takes().count, tag: tag))
    }
    let days = { (filter: JournalFilter) in try journal.takes(filter).map(\.take.started.day) }
    #expect(try days(JournalFilter(tag: "groove")) == ["2026-11-18", "2026-11-20", "2026-11-20"])
    #expect(try days(JournalFilter(since: "2026-11-20")) == ["2026-11-20", "2026-11-20", "2026-11-22"])
    #expect(try days(JournalFilter(day: "2026-11-19")) == ["2026-11-19"])
    #expect(try days(JournalFilter(last: 2)) == ["2026-11-20", "2026-11-22"])
    #expect(try days(JournalFilter(tag: "groove", last: 1)) == ["2026-11-20"])
    #expect(try journal.takes(JournalFilter(tag: "groove", last: 1)).first?.take.started.clock == "12:00")
    #expect(try days(JournalFilter(tag: "none")) == [])
  }

  /// Forgotten takes are gone with their hits and figures, and what they held is overwritten in
  /// the file, not only unlinked.
  @Test func forgottenTakesAreGoneWithTheirHitsAndOverwritten() throws {
    let journal = try Journal.openForKeeping(path)
    try journal.keep(TakeSamples.take(tag: "secret-exercise", offsets: [1, 2, 3]))
    try journal.keep(TakeSamples.take(day: 21, tag: "groove", offsets: [4]))
    #expect(try journal.forget(JournalFilter(tag: "secret-exercise")) == 1)
    #expect(try journal.takes().map(\.take.tag) == ["groove"])
    let database = try SQLiteDatabase(path: path, access: .read)
    #expect(try database.rows("SELECT count(*) FROM hit") == [[.integer(1)]])
    #expect(try database.rows("SELECT count(*) FROM hit_group") == [[.integer(2)]])
    let bytes = try #require(folder.bytes("state/metronome/journal.sqlite3"))
    #expect(bytes.range(of: Data("secret-exercise".utf8)) == nil)
    #expect(try journal.forget(JournalFilter(day: "2026-11-21")) == 1)
    #expect(try journal.takes().isEmpty)
  }

  /// Two runs at once keep both their takes: each waits for the other's lock.
  @Test func twoRunsAtOnceBothKeepTheirTakes() async throws {
    let path = self.path
    _ = try Journal.openForKeeping(path)
    await withThrowingTaskGroup(of: Void.self) { group in
      for run in 0..<2 {
        group.addTask {
          let journal = try Journal.openForKeeping(path)
          for take in 0..<25 { try journal.keep(TakeSamples.take(tag: "run \(run) take \(take)", offsets: [1, 2])) }
        }
      }
    }
    #expect(try Journal.open(path, forgetting: false).takes().count == 50)
  }

  /// A file that is not a journal (text, another program's database, a newer metronome's
  /// journal), a folder in its place and a journal locked by another run are refused, each with
  /// its own line, and left exactly as they were.
  @Test func whatCannotBeKeptInIsRefusedAndLeftAsItWas() throws {
    let text = folder.file("notes.txt")
    try Data("a shopping list\n".utf8).write(to: URL(fileURLWithPath: text))
    let other = folder.file("other.sqlite3")
    try SQLiteDatabase(path: other, access: .readWriteCreating).execute("CREATE TABLE recipe (name TEXT)")
    let newer = folder.file("newer.sqlite3")
    try SQLiteDatabase(path: newer, access: .readWriteCreating).execute(
      "PRAGMA application_id = \(JournalSchema.applicationID); PRAGMA user_version = 99; CREATE TABLE take (id)")
    let before = [text, other, newer].map { FileManager.default.contents(atPath: $0) }
    #expect(throws: JournalError(path: text, .notAJournal)) { try Journal.openForKeeping(text) }
    #expect(throws: JournalError(path: other, .notAJournal)) { try Journal.openForKeeping(other) }
    #expect(throws: JournalError(path: newer, .newer(version: 99))) { try Journal.openForKeeping(newer) }
    #expect(throws: JournalError(path: newer, .newer(version: 99))) { try Journal.open(newer, forgetting: false) }
    #expect([text, other, newer].map { FileManager.default.contents(atPath: $0) } == before)
    #expect(throws: JournalError(path: folder.path, .cannotOpen("a folder is there"))) {
      try Journal.openForKeeping(folder.path)
    }
    #expect(throws: JournalError(path: folder.file("none.sqlite3"), .missing)) {
      try Journal.open(folder.file("none.sqlite3"), forgetting: false)
    }
    #expect(
      JournalError(path: text, .notAJournal).description.hasPrefix("the journal \(text): not a metronome journal"))
    #expect(JournalError(path: newer, .newer(version: 99)).description.contains("schema 99, this one knows up to 1"))

    let journal = try Journal.openForKeeping(path)
    try journal.keep(TakeSamples.take())
    let holder = try SQLiteDatabase(path: path, access: .readWriteCreating)
    try holder.execute("BEGIN EXCLUSIVE")
    #expect(throws: JournalError(path: path, .locked)) {
      try Journal.openForKeeping(path, patience: 0).keep(TakeSamples.take())
    }
    try holder.execute("ROLLBACK")
    #expect(try journal.takes().count == 1)
  }

  /// A damaged journal is refused with SQLite's reason when it is read, and left as it was.
  @Test func aDamagedJournalIsRefusedAsItIsRead() throws {
    let journal = try Journal.openForKeeping(path)
    for day in 1...30 { try journal.keep(TakeSamples.take(day: day, offsets: Array(repeating: 1, count: 200))) }
    var bytes = try #require(folder.bytes("state/metronome/journal.sqlite3"))
    // Pages past the first two (the schema's) overwritten: the tables' pages no longer read.
    for index in stride(from: 8_192, to: bytes.count, by: 97) { bytes[index] = 0xA5 }
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try Journal.open(path, forgetting: false).takes(withHits: true)
    } throws: { error in
      guard case .damaged = (error as? JournalError)?.problem else { return false }
      return true
    }
    #expect(folder.bytes("state/metronome/journal.sqlite3") == bytes)
  }
}
