/// Why the journal cannot be read or written, in one line that names the file and what to do.
public struct JournalError: Error, Equatable, CustomStringConvertible {
  /// What is wrong with the journal.
  public enum Problem: Equatable, Sendable {
    /// There is no journal at the path yet.
    case missing
    /// It cannot be opened or made: SQLite's or the system's reason (a folder in its place, no
    /// permission to make its folder).
    case cannotOpen(String)
    /// It can be read but not written (its permissions, a read-only disk).
    case readOnly
    /// Another program's database, or a file that is no database at all.
    case notAJournal
    /// A journal damaged past reading: SQLite's reason.
    case damaged(String)
    /// Written by a newer metronome, whose schema this one does not know.
    case newer(version: Int)
    /// Another run held it locked for longer than the wait.
    case locked
    /// Reading or writing failed otherwise: SQLite's reason.
    case failed(String)
  }

  /// The journal's file.
  public let path: String
  /// What is wrong.
  public let problem: Problem

  /// An error as given.
  public init(path: String, _ problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// `SQLite`'s refusal for the journal at `path`, as the journal's own problem.
  init(path: String, _ error: SQLiteError) {
    self.path = path
    problem =
      switch error.cause {
      case .busy: .locked
      case .notADatabase: .notAJournal
      case .damaged: .damaged(error.message)
      case .readOnly: .readOnly
      case .cannotOpen: .cannotOpen(error.message)
      case nil: .failed("\(error)")
      }
  }

  /// What is wrong and what to do, without the file's name.
  public var reason: String {
    switch problem {
    case .missing: "there is none yet: live runs keep one as they end"
    case .cannotOpen(let reason): "cannot be opened (\(reason)): give another with --journal FILE"
    case .readOnly: "read-only: make it writable, or give another with --journal FILE"
    case .notAJournal:
      "not a metronome journal, or damaged past reading: it is left as it is; move it aside, or give another with"
        + " --journal FILE"
    case .damaged(let reason): "damaged (\(reason)): it is left as it is; move it aside to start a new one"
    case .newer(let version):
      "written by a newer metronome (schema \(version), this one knows up to \(JournalSchema.version)): it is left as"
        + " it is; update metronome"
    case .locked: "held locked by another program for too long: try again"
    case .failed(let reason): reason
    }
  }

  /// The line: the journal's file, then what is wrong and what to do.
  public var description: String { "the journal \(path): \(reason)" }
}
