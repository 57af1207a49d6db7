import Foundation
import IssueReporting

/// A picture compared with the one looked at in a browser, kept as `Reference/NAME.svg` beside
/// the test file: a difference is an issue, and the new picture is written beside the reference
/// as `NAME.new.svg`, to look at and, if it is right, copy over it.
public enum ReferencePicture {
  /// Reports an issue where `drawn` is not the reference `name` kept beside the test file.
  public static func expect(
    _ drawn: String, isReference name: String, filePath: StaticString = #filePath, fileID: StaticString = #fileID,
    line: UInt = #line, column: UInt = #column
  ) throws {
    let folder = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent("Reference")
    let reference = try? String(contentsOf: folder.appendingPathComponent("\(name).svg"), encoding: .utf8)
    guard drawn != reference else { return }
    let new = folder.appendingPathComponent("\(name).new.svg")
    try drawn.write(to: new, atomically: true, encoding: .utf8)
    reportIssue(
      "the picture changed: look at \(new.path) and, if it is right, copy it over \(name).svg",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
