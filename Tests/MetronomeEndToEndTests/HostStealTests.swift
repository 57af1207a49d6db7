import MetronomeTesting
import XCTest

/// What the host took is read from the kernel's own count, and a stall is said only past its
/// threshold.
final class HostStealTests: TimeLimitedTestCase {
  private let procStat = """
    cpu  1709292 1589 158547 561137 3708 0 1476 6533 0 0
    cpu0 854646 794 79273 280568 1854 0 738 3266 0 0
    intr 123 0
    """

  func testTheStolenTimeIsTheEighthFigureOfTheCPULineInClockTicks() {
    XCTAssertEqual(HostSteal.seconds(procStat: procStat, ticksPerSecond: 100), 65.33)
    XCTAssertEqual(HostSteal.seconds(procStat: procStat, ticksPerSecond: 1000), 6.533)
  }

  func testAKernelThatDoesNotCountStolenTimeGivesNone() {
    XCTAssertNil(HostSteal.seconds(procStat: "cpu  1 2 3 4 5 6 7\n", ticksPerSecond: 100))
    XCTAssertNil(HostSteal.seconds(procStat: "cpu0 1 2 3 4 5 6 7 8 9\n", ticksPerSecond: 100))
    XCTAssertNil(HostSteal.seconds(procStat: nil, ticksPerSecond: 100))
  }

  func testThisMachinesKernelCountsIt() {
    let said = HostSteal().meanwhile
    XCTAssertEqual(said.count, 1)
    XCTAssertTrue(said.first?.hasPrefix("the host took ") == true, "\(said)")
    XCTAssertTrue(said.first?.hasSuffix(" ms of processor time") == true, "\(said)")
  }

  /// 200 ms taken is still a take of metronome's; a millisecond more is the harness's.
  func testATakeBearsTheHostTakingUpTo200Milliseconds() {
    XCTAssertTrue(HostSteal.aTakeBears(milliseconds: 0))
    XCTAssertTrue(HostSteal.aTakeBears(milliseconds: 200))
    XCTAssertFalse(HostSteal.aTakeBears(milliseconds: 201))
  }

  func testAStallIsSaidOnlyPastItsThreshold() {
    XCTAssertEqual(StallReport(longest: 0.015).glitches(over: 0.015), [])
    XCTAssertEqual(StallReport(longest: 0.0291).glitches(over: 0.015), ["the machine stalled for 29 ms"])
    XCTAssertEqual(
      StallReport(longest: 0.01204, longestShowing: 0.05549).described,
      "the longest stall beside it: 12.0 ms (where the beats are shown 55.5 ms)")
  }

  /// A line late past its allowance is the machine's where threads at the priority of metronome's
  /// main thread were held for all of it beyond half the allowance; not otherwise.
  func testALateLineIsTheMachinesOnlyWhereThreadsAtThePriorityThatShowsTheBeatsWereHeldAsLong() {
    let held = StallReport(longest: 0.002, longestShowing: 0.0321)
    XCTAssertEqual(
      held.lineHeld(late: 0.057, allowed: 0.05), ["the thread that shows the beats would have been held for 32 ms"])
    XCTAssertEqual(held.lineHeld(late: 0.0572, allowed: 0.05), [])
    XCTAssertEqual(held.lineHeld(late: 0.049, allowed: 0.05), [])
    XCTAssertEqual(StallReport(longest: 0.040).lineHeld(late: 0.06, allowed: 0.05), [])
  }
}
