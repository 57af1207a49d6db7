import CustomDump
import IssueReporting

/// Fails the test at the caller, with a diff of the two timelines, unless `recorder` recorded
/// exactly `expected`.
///
/// Works in XCTest and Swift Testing.
public func assertEvents<Time: Equatable, Value: Equatable, Failure: Error & Equatable>(
  _ recorder: TestRecorder<Time, Value, Failure>,
  _ expected: [Recorded<Time, Value, Failure>],
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertTimeline(
    recorder.events, expected, what: "Recorded events",
    location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  )
}

/// Fails the test at the caller, with a diff, unless `publisher` saw exactly `expected`
/// subscriptions: RxTest's `XCTAssertEqual(xs.subscriptions, […])`.
public func assertSubscriptions<Time: Equatable, Value, Failure: Error>(
  _ publisher: TestPublisher<Time, Value, Failure>,
  _ expected: [SubscriptionLog<Time>],
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertTimeline(
    publisher.subscriptions, expected, what: "Subscriptions",
    location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  )
}

/// The one comparison behind every assertion of the kit.
func assertTimeline<Element: Equatable>(
  _ actual: [Element], _ expected: [Element], what: String, location: SourceLocation
) {
  guard actual != expected else { return }
  let difference = diff(expected, actual).map { "\n\($0)" } ?? ""
  reportIssue(
    "\(what) differ from the expected timeline (− expected, + actual):\(difference)",
    fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
  )
}
