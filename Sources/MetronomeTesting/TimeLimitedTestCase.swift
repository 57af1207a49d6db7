import Dispatch
import Glibc
import XCTest

/// An `XCTestCase` whose every test has a time limit.
///
/// XCTest on Linux does not enforce `executionTimeAllowance`, so a test that hangs would stall the
/// whole suite; here a watchdog names the test and ends the run with a failure once `timeLimit`
/// seconds have passed.
open class TimeLimitedTestCase: XCTestCase {
  /// Seconds a test of this class may take; two minutes unless a class says otherwise.
  open class var timeLimit: Double { 120 }

  /// Runs the test under the watchdog.
  override open func invokeTest() {
    let name = self.name
    let limit = Self.timeLimit
    let watchdog = DispatchSource.makeTimerSource(queue: .global())
    watchdog.schedule(deadline: .now() + limit)
    watchdog.setEventHandler {
      let message = "error: \(name) did not finish within its time limit of \(limit) s; the test run stops\n"
      _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
      exit(1)
    }
    watchdog.resume()
    defer { watchdog.cancel() }
    super.invokeTest()
  }
}
