import Foundation
import Glibc
import XCTest

extension XCTestCase {
  /// What `attempt` captured, once `check` finds nothing off in it.
  ///
  /// An attempt is made again, up to five times, while what was off came with a glitch of the
  /// harness itself (what `attempt` gives beside its capture): a JACK server's broken cycles, a
  /// recorder's dropped periods, a stall of the whole machine, or the host taking more of its
  /// processor time than a take bears (`HostSteal`) move or cut the capture whatever metronome
  /// did. What is off in an attempt whose harness was whole fails the test at once.
  ///
  /// Each retake, and each glitch away from what was checked, is said on a line of its own
  /// starting `harness:`, which `scripts/test` counts, per test, against its budget. Those lines
  /// and a failing attempt's message say what the host took from the machine meanwhile
  /// (`HostSteal`): first, since `scripts/test` prints each line's head and a JACK server's xruns
  /// can run to a page.
  func retakenWhileTheHarnessGlitches<Capture>(
    check: (Capture) -> [String], _ attempt: () throws -> (capture: Capture, harnessTrouble: [String])
  ) throws -> Capture? {
    var troubles: [[String]] = []
    for _ in 1...5 {
      let steal = HostSteal()
      let (capture, seen) = try attempt()
      let (host, bears) = (steal.meanwhile, steal.milliseconds.map(HostSteal.aTakeBears) ?? true)
      let problems = check(capture)
      if problems.isEmpty {
        if !seen.isEmpty { sayForTheHarness("glitch away from what was checked: \(name): \(host + seen)") }
        return capture
      }
      let harnessTrouble = seen + (bears ? [] : ["more than a take bears"])
      guard !harnessTrouble.isEmpty else {
        XCTFail((problems + host).joined(separator: "\n"))
        return capture
      }
      // Why first: scripts/test prints each line's head, and what was off can run to pages.
      sayForTheHarness(
        "retake: \(name): the harness glitched (\(host + harnessTrouble)) and the capture is off (\(problems))")
      troubles.append(host + harnessTrouble)
    }
    XCTFail("the harness glitched in all five takes: \(troubles)")
    return nil
  }
}

/// Prints `line` as the harness's, and appends it to the file `METRONOME_HARNESS_LOG` names:
/// tests run side by side (`swift test --parallel`) have their output shown only when they fail.
func sayForTheHarness(_ line: String) {
  print("harness: " + line)
  // Appended (O_APPEND), so that lines of tests run at once never overwrite one another.
  guard let path = ProcessInfo.processInfo.environment["METRONOME_HARNESS_LOG"], let log = fopen(path, "a") else {
    return
  }
  fputs("harness: " + line + "\n", log)
  fclose(log)
}
