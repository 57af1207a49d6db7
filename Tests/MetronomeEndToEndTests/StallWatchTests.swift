import MetronomeTesting
import XCTest

/// The stall watcher's report: what the host took is read from the kernel's own count, and a
/// glitch is said only past its threshold.
final class StallWatchTests: TimeLimitedTestCase {
  private let procStat = """
    cpu  1709292 1589 158547 561137 3708 0 1476 6533 0 0
    cpu0 854646 794 79273 280568 1854 0 738 3266 0 0
    intr 123 0
    """

  func testTheStolenTimeIsTheEighthFigureOfTheCPULineInClockTicks() {
    XCTAssertEqual(StallWatch.stolenSeconds(procStat: procStat, ticksPerSecond: 100), 65.33)
    XCTAssertEqual(StallWatch.stolenSeconds(procStat: procStat, ticksPerSecond: 1000), 6.533)
  }

  func testAKernelThatDoesNotCountStolenTimeGivesNone() {
    XCTAssertNil(StallWatch.stolenSeconds(procStat: "cpu  1 2 3 4 5 6 7\n", ticksPerSecond: 100))
    XCTAssertNil(StallWatch.stolenSeconds(procStat: "cpu0 1 2 3 4 5 6 7 8 9\n", ticksPerSecond: 100))
    XCTAssertNil(StallWatch.stolenSeconds(procStat: nil, ticksPerSecond: 100))
  }

  func testThisMachinesKernelCountsIt() {
    let report = StallWatch().stop()
    XCTAssertNotNil(report.stolen)
    XCTAssertGreaterThanOrEqual(report.stolen ?? -1, 0)
  }

  func testAGlitchIsSaidOnlyPastItsThresholdWithWhatTheHostTook() {
    XCTAssertEqual(StallReport(longest: 0.015, stolen: 0.04).glitches(over: 0.015), [])
    XCTAssertEqual(
      StallReport(longest: 0.0291, stolen: 0.04).glitches(over: 0.015),
      ["the machine stalled for 29 ms (the host took 40 ms of processor time)"])
    XCTAssertEqual(StallReport(longest: 0.006, stolen: nil).glitches(over: 0.005), ["the machine stalled for 6 ms"])
    XCTAssertEqual(
      StallReport(longest: 0.01204, stolen: 0).described,
      "the longest stall beside it: 12.0 ms (the host took 0 ms of processor time)")
  }
}
