import Dispatch
import Glibc
import Synchronization
import XCTest

/// An `XCTestCase` whose every test has a time limit.
///
/// XCTest on Linux does not enforce `executionTimeAllowance`, so a test that hangs would stall the
/// whole suite; here a watchdog names the test and ends the run with a failure once `timeLimit`
/// seconds have passed, first stopping the servers tests started (`stopsAtTheTimeLimit`).
open class TimeLimitedTestCase: XCTestCase {
  /// Seconds a test of this class may take; two minutes unless a class says otherwise.
  open class var timeLimit: Double { 120 }

  /// The processes the watchdog stops before it ends the run.
  private static let servers = Mutex<Set<pid_t>>([])

  /// Has the watchdog stop process `pid` (SIGTERM) if a test is stopped at its time limit while
  /// it runs: a server that would otherwise outlive the run (a JACK server keeps one of the eight
  /// slots of JACK's registry, and its name, for as long as it runs: a loaded run's lane stopped
  /// so left one running).
  public static func stopsAtTheTimeLimit(_ pid: pid_t) { _ = servers.withLock { $0.insert(pid) } }

  /// Undoes `stopsAtTheTimeLimit` for `pid`, once the test stopped it itself.
  public static func stoppedByItsTest(_ pid: pid_t) { _ = servers.withLock { $0.remove(pid) } }

  /// Runs the test under the watchdog.
  override open func invokeTest() {
    let name = self.name
    let limit = Self.timeLimit
    let watchdog = DispatchSource.makeTimerSource(queue: .global())
    watchdog.schedule(deadline: .now() + limit)
    watchdog.setEventHandler {
      let message = "error: \(name) did not finish within its time limit of \(limit) s; the test run stops\n"
      _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
      Self.stopTheServers()
      exit(1)
    }
    watchdog.resume()
    defer { watchdog.cancel() }
    super.invokeTest()
  }

  /// Stops every process given to `stopsAtTheTimeLimit` and waits up to five seconds for them to
  /// end, so that each can unregister itself as it does when its test stops it.
  private static func stopTheServers() {
    let pids = servers.withLock { $0 }
    for pid in pids { kill(pid, SIGTERM) }
    // They are this process's children, which Foundation reaps: a stopped one answers ESRCH.
    for _ in 0..<500 where pids.contains(where: { kill($0, 0) == 0 }) { usleep(10_000) }
  }
}
