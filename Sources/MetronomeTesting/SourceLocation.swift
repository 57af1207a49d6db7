/// Where in a test an assertion or a guard was written, so failures point there.
public struct SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}
