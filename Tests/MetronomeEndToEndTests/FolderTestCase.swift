import Foundation
import MetronomeTesting
import XCTest

/// An end-to-end test with a folder of its own under the temporary directory, made before each
/// test and removed after it: the one place the tests' files, captures and HOMEs are set up.
class FolderTestCase: TimeLimitedTestCase {
  /// The test's folder.
  private(set) var folder: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try FileManager.default.removeItem(at: folder)
    try super.tearDownWithError()
  }

  /// Writes `text` to `name` in the folder (making the folders it names); returns its path.
  @discardableResult
  func write(_ text: String, to name: String) throws -> String {
    let file = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file.path
  }
}
