import XCTest

extension XCTestCase {
  /// What `attempt` captured, once `check` finds nothing off in it.
  ///
  /// An attempt is made again, up to five times, while what was off came with a glitch of the
  /// harness itself (what `attempt` gives beside its capture): a JACK server's broken cycles, a
  /// recorder's dropped periods or a stall of the whole machine move or cut the capture whatever
  /// metronome did. What is off in an attempt whose harness was whole fails the test at once.
  ///
  /// Each retake, and each glitch away from what was checked, is printed on a line of its own
  /// starting `harness:`, which `scripts/test` counts, per test, against its budget.
  func retakenWhileTheHarnessGlitches<Capture>(
    check: (Capture) -> [String], _ attempt: () throws -> (capture: Capture, harnessTrouble: [String])
  ) throws -> Capture? {
    var troubles: [[String]] = []
    for _ in 1...5 {
      let (capture, harnessTrouble) = try attempt()
      let problems = check(capture)
      if problems.isEmpty {
        if !harnessTrouble.isEmpty {
          print("harness: glitch away from what was checked: \(name): \(harnessTrouble)")
        }
        return capture
      }
      guard !harnessTrouble.isEmpty else {
        XCTFail(problems.joined(separator: "\n"))
        return capture
      }
      print("harness: retake: \(name): the capture is off (\(problems)) and the harness glitched (\(harnessTrouble))")
      troubles.append(harnessTrouble)
    }
    XCTFail("the harness glitched in all five takes: \(troubles)")
    return nil
  }
}
