import MetronomeCore
import Testing

/// `--loop-bars` as the core reads it: `FIRST-LAST` or `FIRST`, from bar 1, in order.
@Suite(.timeLimit(.minutes(1)))
struct BarRangeTests {
  @Test func oneBarOrARangeInOrderIsTaken() throws {
    for (taken, bars) in [("3", 3...3), ("2-2", 2...2), ("1-4", 1...4)] {
      #expect(try ClosedRange(bars: taken) == bars)
    }
  }

  @Test func anythingElseIsRefusedInItsWords() {
    for refused in ["0", "3-2", "1-2-3", "x", "-3", "", "2-", "-", "0-2"] {
      #expect(throws: BarRangeError(text: refused)) { try ClosedRange(bars: refused) }
    }
    #expect("\(BarRangeError(text: "3-2"))" == "'3-2' is not FIRST-LAST bars of the map, such as 5-8 (or 5)")
  }
}
