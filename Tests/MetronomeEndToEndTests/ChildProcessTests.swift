import Foundation
import Testing

/// The test kit's way of running a program (`ChildProcess`), where it meets the program's ending.
@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
  /// A child that ends without reading its input (more than a pipe holds, so that the write must
  /// meet the closed pipe) leaves the tests' process running, its status read.
  @Test func aChildThatEndsWithoutReadingItsInputLeavesTheTestsRunning() throws {
    let input = String(repeating: "unread input\n", count: 20_000)
    let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"], input: input)
    #expect(result.status == 3 && !result.signaled)
  }
}
