import Glibc
import PracticeListening

/// The practice journal: every live run kept, when it ends, in an SQLite file of its own schema;
/// read back as takes with their figures, exported, and forgotten on request.
///
/// A file that is not a journal, is damaged, is from a newer metronome or cannot be written is
/// never changed: opening it throws the one line that says so.
public final class Journal {
  /// Its file.
  public let path: String
  private let database: SQLiteDatabase

  private init(path: String, database: SQLiteDatabase) {
    self.path = path
    self.database = database
  }

  /// Where the journal is kept: `$XDG_STATE_HOME/metronome/journal.sqlite3`, else
  /// `~/.local/state/metronome/journal.sqlite3`; nil without a home, `variable` reading the
  /// environment.
  public static func standardPath(_ variable: (String) -> String?) -> String? {
    func given(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
    guard let folder = given("XDG_STATE_HOME") ?? given("HOME").map({ $0 + "/.local/state" }) else { return nil }
    return folder + "/metronome/journal.sqlite3"
  }

  /// How long a journal another run holds locked is waited for before giving up, in ms.
  public static let patience: Int32 = 5_000

  /// Opens the journal at `path` to keep takes in, making it (and its folders) where there is
  /// none and bringing an older one forward; another run's lock is waited for `patience` ms.
  public static func openForKeeping(_ path: String, patience: Int32 = patience) throws(JournalError) -> Journal {
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw JournalError(path: path, .cannotOpen("a folder is there"))
    }
    try makeFolders(of: path)
    let database: SQLiteDatabase
    do { database = try SQLiteDatabase(path: path, access: .readWriteCreating, busyMilliseconds: patience) } catch {
      throw JournalError(path: path, .cannotOpen(error.message))
    }
    if database.isReadOnly { throw JournalError(path: path, .readOnly) }
    let journal = Journal(path: path, database: database)
    try journal.bringForward()
    return journal
  }

  /// Opens the journal at `path` to read, and to forget from if `forgetting`; another run's lock
  /// is waited for `patience` ms.
  public static func open(_ path: String, forgetting: Bool, patience: Int32 = patience) throws(JournalError)
    -> Journal
  {
    var status = stat()
    guard stat(path, &status) == 0 else { throw JournalError(path: path, .missing) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw JournalError(path: path, .cannotOpen("it is not a file")) }
    let database: SQLiteDatabase
    do {
      database = try SQLiteDatabase(
        path: path, access: forgetting ? .readWriteCreating : .read, busyMilliseconds: patience)
    } catch {
      throw JournalError(path: path, .cannotOpen(error.message))
    }
    if forgetting, database.isReadOnly { throw JournalError(path: path, .readOnly) }
    let journal = Journal(path: path, database: database)
    let version = try journal.version()
    if version > JournalSchema.version { throw JournalError(path: path, .newer(version: version)) }
    // An earlier version is brought forward only by a run that keeps a take in it.
    if version < JournalSchema.version { throw JournalError(path: path, .notAJournal) }
    try journal.configure()
    return journal
  }

  /// Makes the folders `path` is in, for the user alone, where they are missing.
  private static func makeFolders(of path: String) throws(JournalError) {
    var folders: [String] = []
    var folder = path
    while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
      folder = String(folder[..<slash])
      folders.append(folder)
    }
    var status = stat()
    for folder in folders.reversed() where stat(folder, &status) != 0 {
      guard mkdir(folder, 0o700) == 0 else {
        throw JournalError(path: path, .cannotOpen("cannot make \(folder): \(String(cString: strerror(errno)))"))
      }
    }
  }

  /// The schema's version, after checking that the file is a journal (or nothing yet: 0).
  private func version() throws(JournalError) -> Int {
    let (application, version) = (try number("PRAGMA application_id"), try number("PRAGMA user_version"))
    if application == Int64(JournalSchema.applicationID) { return Int(version) }
    let tables = try number("SELECT count(*) FROM sqlite_master")
    guard application == 0, version == 0, tables == 0 else { throw JournalError(path: path, .notAJournal) }
    return 0
  }

  /// The number `query` reads.
  private func number(_ query: String) throws(JournalError) -> Int64 {
    let rows: [[SQLiteValue]]
    do { rows = try database.rows(query) } catch { throw JournalError(path: path, error) }
    guard let number = rows.first?.first?.integer else { throw JournalError(path: path, .notAJournal) }
    return number
  }

  /// Brings a journal of an earlier version (or a new, empty file) to this one's, in one
  /// transaction; one of a later version is refused untouched.
  private func bringForward() throws(JournalError) {
    let version = try version()
    guard version <= JournalSchema.version else { throw JournalError(path: path, .newer(version: version)) }
    try configure()
    let steps = JournalSchema.steps.dropFirst(version)
    guard !steps.isEmpty else { return }
    do {
      try database.transaction { () throws(SQLiteError) in
        for step in steps { try database.execute(step) }
        try database.execute(
          "PRAGMA application_id = \(JournalSchema.applicationID); PRAGMA user_version = \(JournalSchema.version)")
      }
    } catch {
      throw JournalError(path: path, error)
    }
  }

  private func configure() throws(JournalError) {
    do { try database.execute("PRAGMA foreign_keys = ON") } catch { throw JournalError(path: path, error) }
  }

  /// Keeps `take`, its hits and their figures, in one transaction; returns its row.
  @discardableResult
  public func keep(_ take: Take) throws(JournalError) -> Int64 {
    // Hits are judged within the take's tolerance: a take without one did not listen, and has none.
    let figures = take.tolerance.flatMap {
      HitStatistics(offsets: take.hits.map { ($0.seconds, $0.offset) }, tolerance: $0)
    }
    let real = { (value: Double?) in value.map(SQLiteValue.real) ?? .null }
    let integer = { (value: Int?) in value.map { SQLiteValue.integer(Int64($0)) } ?? .null }
    let row: [SQLiteValue] = [
      .real(take.started.seconds), .integer(Int64(take.started.utcOffset)), .text(take.started.day),
      .real(take.seconds), take.tag.map(SQLiteValue.text) ?? .null, .text(take.meters.joined(separator: " ")),
      real(take.tempos?.first), real(take.tempos?.last), real(take.tempos?.lowest), real(take.tempos?.highest),
      .integer(Int64(take.beats)), .text(take.programme), .text(take.ending), .integer(Int64(take.status)),
      real(take.tolerance), .integer(Int64(take.hits.count)), integer(figures?.onTime), integer(figures?.early),
      integer(figures?.late), real(figures?.mean), real(figures?.median), real(figures?.standardDeviation),
      real(figures?.driftPerMinute),
    ]
    do {
      return try database.transaction { () throws(SQLiteError) -> Int64 in
        try database.run(
          "INSERT INTO take (started, utc_offset, day, seconds, tag, meters, tempo_first, tempo_last, tempo_lowest,"
            + " tempo_highest, beats, programme, ending, status, tolerance, hits, on_time, early, late, mean, median,"
            + " deviation, drift) VALUES (" + Array(repeating: "?", count: row.count).joined(separator: ", ") + ")",
          rows: [row])
        let id = database.lastInsertedRow
        try database.run(
          "INSERT INTO hit (take, seconds, bar, beat, subdivision, tempo, offset, note, velocity)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          rows: take.hits.map { hit in
            [
              .integer(id), .real(hit.seconds), .integer(Int64(hit.bar)), .integer(Int64(hit.beat)),
              .integer(Int64(hit.subdivision)), .real(hit.tempo), .real(hit.offset), .integer(Int64(hit.note)),
              .integer(Int64(hit.velocity)),
            ]
          })
        let tolerance = take.tolerance ?? .infinity
        let groups =
          Self.groups(of: take.hits, by: { ($0.tempo * 10).rounded() / 10 }, tolerance: tolerance).map { ("tempo", $0) }
          + Self.groups(of: take.hits, by: { Double($0.note) }, tolerance: tolerance).map { ("note", $0) }
        try database.run(
          "INSERT INTO hit_group (take, kind, value, hits, on_time, mean, deviation) VALUES (?, ?, ?, ?, ?, ?, ?)",
          rows: groups.map { kind, group in
            [
              .integer(id), .text(kind), .real(group.value), .integer(Int64(group.hits)),
              .integer(Int64(group.onTime)), .real(group.mean), .real(group.deviation),
            ]
          })
        return id
      }
    } catch {
      throw JournalError(path: path, error)
    }
  }

  /// `hits` grouped by `key`, each group's figures judged within `tolerance`, by key ascending.
  private static func groups(of hits: [TakeHit], by key: (TakeHit) -> Double, tolerance: Double) -> [KeptTake.Group] {
    Dictionary(grouping: hits, by: key).sorted { $0.key < $1.key }.compactMap { value, hits in
      HitStatistics(offsets: hits.map { ($0.seconds, $0.offset) }, tolerance: tolerance).map {
        KeptTake.Group(
          value: value, hits: $0.count, onTime: $0.onTime, mean: $0.mean, deviation: $0.standardDeviation)
      }
    }
  }

  /// The takes `filter` asks for, oldest first, with their figures; with their hits too if `withHits`.
  public func takes(_ filter: JournalFilter = JournalFilter(), withHits: Bool = false) throws(JournalError)
    -> [KeptTake]
  {
    let (condition, values) = filter.condition
    let chosen =
      "SELECT id FROM take WHERE \(condition) ORDER BY started DESC, id DESC LIMIT \(filter.last.map(String.init) ?? "-1")"
    do {
      let rows = try database.rows(
        "SELECT id, started, utc_offset, seconds, tag, meters, tempo_first, tempo_last, tempo_lowest, tempo_highest,"
          + " beats, programme, ending, status, tolerance, hits, on_time, early, late, mean, median, deviation, drift"
          + " FROM take WHERE id IN (\(chosen)) ORDER BY started, id", values)
      var groups: [Int64: (tempo: [KeptTake.Group], note: [KeptTake.Group])] = [:]
      for values in try database.rows(
        "SELECT take, kind, value, hits, on_time, mean, deviation FROM hit_group WHERE take IN (\(chosen))"
          + " ORDER BY take, kind, value", values)
      {
        let row = JournalRow(values, path: path)
        let (take, group) = (try row.integer(0), try KeptTake.Group(row))
        if try row.text(1) == "tempo" {
          groups[take, default: ([], [])].tempo.append(group)
        } else {
          groups[take, default: ([], [])].note.append(group)
        }
      }
      var hits: [Int64: [TakeHit]] = [:]
      if withHits {
        for values in try database.rows(
          "SELECT take, seconds, bar, beat, subdivision, tempo, offset, note, velocity FROM hit"
            + " WHERE take IN (\(chosen)) ORDER BY take, rowid", values)
        {
          let row = JournalRow(values, path: path)
          hits[try row.integer(0), default: []].append(try TakeHit(row))
        }
      }
      return try rows.map { values in
        let row = JournalRow(values, path: path)
        let id = try row.integer(0)
        let group = groups[id] ?? ([], [])
        return try KeptTake(row, hits: hits[id] ?? [], byTempo: group.tempo, byNote: group.note)
      }
    } catch let error as JournalError {
      throw error
    } catch let error as SQLiteError {
      throw JournalError(path: path, error)
    } catch {
      throw JournalError(path: path, .failed("\(error)"))
    }
  }

  /// Forgets the takes `filter` asks for, their hits with them, overwriting what they held in the
  /// file; returns how many.
  public func forget(_ filter: JournalFilter) throws(JournalError) -> Int {
    let (condition, values) = filter.condition
    do {
      try database.execute("PRAGMA secure_delete = ON")
      return try database.transaction { () throws(SQLiteError) -> Int in
        try database.run("DELETE FROM take WHERE \(condition)", rows: [values])
        return database.changes
      }
    } catch {
      throw JournalError(path: path, error)
    }
  }
}
