import Foundation

/// A practice journal's files as they were (SQLite's database and what it keeps beside it), put
/// back before each take of a run the harness may take again: a take retaken leaves no row of its
/// own for the next take's checks to count.
struct JournalFiles {
  /// The database's own file, and the rollback journal and write-ahead log SQLite keeps beside it.
  private static let suffixes = ["", "-journal", "-wal", "-shm"]
  private let path: String
  private let contents: [String: Data]

  /// The files of the journal at `path` as they are now (none, where it is not there yet).
  init(of path: String) {
    self.path = path
    contents = Dictionary(
      uniqueKeysWithValues: Self.suffixes.compactMap { suffix in
        FileManager.default.contents(atPath: path + suffix).map { (suffix, $0) }
      })
  }

  /// Puts every file back as it was, and removes those that were not there.
  func restore() throws {
    for suffix in Self.suffixes {
      // Not there is as good as removed.
      try? FileManager.default.removeItem(atPath: path + suffix)
      if let data = contents[suffix] { try data.write(to: URL(fileURLWithPath: path + suffix)) }
    }
  }
}
