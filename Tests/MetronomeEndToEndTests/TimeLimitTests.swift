import Foundation
import MetronomeTesting
import XCTest

/// Every test in the repository has a time limit, so that one that hangs (a process that ignores
/// `/klick/quit`, a server that never answers) fails by name instead of holding the suite.
final class TimeLimitTests: TimeLimitedTestCase {
  /// The XCTest classes that give their tests a limit: the watchdog's, and those built on it.
  private static let limited = ["TimeLimitedTestCase", "FolderTestCase", "LivePlaybackTestCase"]

  func testEveryTestHasATimeLimit() throws {
    let tests = MetronomeProcess.repository.appendingPathComponent("Tests")
    let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: tests.path)).filter {
      $0.hasSuffix(".swift")
    }
    XCTAssertGreaterThan(files.count, 50)
    var unlimited: [String] = []
    for file in files {
      let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (number, line) in lines.enumerated() {
        // An XCTest class: derived from one that limits its tests.
        if line.contains("class "), line.contains(": "), line.hasPrefix("final class ") || line.hasPrefix("class "),
          let base = line.split(separator: ":").dropFirst().first?.split(separator: "{").first?
            .trimmingCharacters(in: .whitespaces),
          base.hasSuffix("TestCase"), !Self.limited.contains(base)
        {
          unlimited.append("\(file):\(number + 1): \(line)")
        }
        // A Swift Testing suite: its attribute names a limit.
        if line.hasPrefix("@Suite"), !line.contains(".timeLimit(") {
          unlimited.append("\(file):\(number + 1): \(line)")
        }
      }
      // Tests with no suite to carry a limit.
      if text.contains("@Test"), !text.contains("@Suite") { unlimited.append("\(file): @Test without a @Suite") }
    }
    XCTAssertEqual(unlimited, [], "tests without a time limit")
  }
}
