import Foundation

/// A folder of a test's own under the temporary directory, removed when the test is done with it.
final class JournalFolder {
  /// The folder.
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-journal-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// `name` in the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// The bytes of `name`.
  func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }
}
