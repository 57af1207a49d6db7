import CSQLite

/// A value SQLite stores: what a statement binds and a row holds.
public enum SQLiteValue: Hashable, Sendable {
  /// No value.
  case null
  /// A whole number.
  case integer(Int64)
  /// A floating-point number.
  case real(Double)
  /// Text, in UTF-8.
  case text(String)

  /// The number this holds, whole or not; nil for text or no value.
  public var double: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .real(let value): value
    case .null, .text: nil
    }
  }

  /// The whole number this holds; nil for another value.
  public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }

  /// The text this holds; nil for another value.
  public var text: String? { if case .text(let value) = self { value } else { nil } }
}

/// Why SQLite refused: its result code and its own message, and what was being done.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
  /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
  public let code: Int32
  /// SQLite's message for it.
  public let message: String
  /// What failed, in words: "open", "read", "write".
  public let operation: String

  /// What the code says of the file, where it says something of it.
  public enum Cause: Sendable {
    /// Another connection held it locked for longer than the wait allowed.
    case busy
    /// It is not a database at all (or its header is damaged).
    case notADatabase
    /// A database damaged past reading.
    case damaged
    /// It cannot be written.
    case readOnly
    /// It cannot be opened or made.
    case cannotOpen
  }

  /// What the code says of the file; nil for another failure.
  public var cause: Cause? {
    switch code {
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_NOTADB: .notADatabase
    case SQLITE_CORRUPT: .damaged
    case SQLITE_READONLY: .readOnly
    case SQLITE_CANTOPEN, SQLITE_PERM: .cannotOpen
    default: nil
    }
  }

  /// How it reads in messages: "could not open: unable to open database file".
  public var description: String { "could not \(operation): \(message)" }
}

/// One connection to an SQLite database file: the only place the project calls SQLite.
///
/// Statements are prepared and finalised within each call; a connection is used from one thread.
public final class SQLiteDatabase {
  /// How a file is opened.
  public enum Access: Sendable {
    /// Read only: nothing is written, not even a journal file.
    case read
    /// Read and written, made if it is not there.
    case readWriteCreating
  }

  private let connection: OpaquePointer

  /// Opens `path` for `access`, waiting up to `busyMilliseconds` whenever another connection holds
  /// it locked; throws SQLite's reason when it cannot be opened.
  public init(path: String, access: Access, busyMilliseconds: Int32 = 5_000) throws(SQLiteError) {
    var opened: OpaquePointer?
    let flags =
      switch access {
      case .read: SQLITE_OPEN_READONLY
      case .readWriteCreating: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      }
    let code = sqlite3_open_v2(path, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_close_v2(opened)
      throw SQLiteError(code: code & 0xFF, message: message, operation: "open")
    }
    connection = opened
    sqlite3_busy_timeout(connection, busyMilliseconds)
  }

  deinit { sqlite3_close_v2(connection) }

  /// Whether the file could only be opened for reading (its permissions, or a read-only mount).
  public var isReadOnly: Bool { sqlite3_db_readonly(connection, "main") == 1 }

  /// Runs `sql`, one statement or several separated by semicolons, with no values bound.
  public func execute(_ sql: String, operation: String = "write") throws(SQLiteError) {
    let code = sqlite3_exec(connection, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, operation) }
  }

  /// Runs the statement `sql` once for each of `rows`, binding its values to the statement's
  /// parameters in order; a statement prepared once, for many rows.
  public func run(_ sql: String, rows: [[SQLiteValue]], operation: String = "write") throws(SQLiteError) {
    let statement = try prepare(sql, operation)
    defer { sqlite3_finalize(statement) }
    for values in rows {
      try bind(values, to: statement, operation)
      let code = sqlite3_step(statement)
      guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code, operation) }
      sqlite3_reset(statement)
    }
  }

  /// Runs the statement `sql` with `values` bound; returns the rows it gives, each a value per
  /// column.
  public func rows(_ sql: String, _ values: [SQLiteValue] = [], operation: String = "read") throws(SQLiteError)
    -> [[SQLiteValue]]
  {
    let statement = try prepare(sql, operation)
    defer { sqlite3_finalize(statement) }
    try bind(values, to: statement, operation)
    var rows: [[SQLiteValue]] = []
    var code = sqlite3_step(statement)
    while code == SQLITE_ROW {
      rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
      code = sqlite3_step(statement)
    }
    guard code == SQLITE_DONE else { throw error(code, operation) }
    return rows
  }

  /// The row id of the last row inserted through this connection.
  public var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(connection) }

  /// How many rows the last statement changed.
  public var changes: Int { Int(sqlite3_changes(connection)) }

  /// Runs `body` in one transaction that takes the file's write lock at once (waiting as the
  /// connection waits), committed if `body` returns and rolled back if it throws.
  public func transaction<Value>(_ body: () throws(SQLiteError) -> Value) throws(SQLiteError) -> Value {
    try execute("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  private func prepare(_ sql: String, _ operation: String) throws(SQLiteError) -> OpaquePointer {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw error(code, operation) }
    return statement
  }

  private func bind(_ values: [SQLiteValue], to statement: OpaquePointer, _ operation: String) throws(SQLiteError) {
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      let code =
        switch value {
        case .null: sqlite3_bind_null(statement, position)
        case .integer(let number): sqlite3_bind_int64(statement, position, number)
        case .real(let number): sqlite3_bind_double(statement, position, number)
        case .text(let text): sqlite3_bind_text(statement, position, text, -1, metronome_sqlite_transient())
        }
      guard code == SQLITE_OK else { throw error(code, operation) }
    }
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT: .text(sqlite3_column_text(statement, index).map { String(cString: $0) } ?? "")
    default: .null
    }
  }

  private func error(_ code: Int32, _ operation: String) -> SQLiteError {
    SQLiteError(code: code & 0xFF, message: String(cString: sqlite3_errmsg(connection)), operation: operation)
  }
}
