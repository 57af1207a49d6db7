import MetronomeCore
import PracticeListening
import Testing

@Suite(.timeLimit(.minutes(1))) struct HitStatisticsTests {
  @Test func meanMedianDeviationAndTheToleranceCounts() throws {
    let statistics = try #require(
      HitStatistics(
        offsets: [(0, -30), (1, -10), (2, 0), (3, 10), (4, 50)], tolerance: 20))
    #expect(statistics.count == 5)
    #expect(statistics.mean == 4)
    #expect(statistics.median == 0)
    // Deviations -34, -14, -4, 6, 46: squares 1156 + 196 + 16 + 36 + 2116 = 3520, / 5 = 704.
    #expect(abs(statistics.standardDeviation - 704.0.squareRoot()) < 1e-9)
    #expect(abs(statistics.unstableRate - 10 * 704.0.squareRoot()) < 1e-9)
    #expect(statistics.early == 1 && statistics.late == 1 && statistics.onTime == 3)
    #expect(statistics.onTimeShare == 0.6)
  }

  @Test func theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    #expect(HitStatistics.median([4, 1, 3, 2]) == 2.5)
    #expect(HitStatistics(offsets: [], tolerance: 20) == nil)
  }

  @Test func theFittedSlopeSaysRushingInMillisecondsAMinute() throws {
    // One millisecond earlier every two seconds: 30 ms a minute, rushing.
    let offsets = (0..<60).map { (seconds: Double($0) * 2, milliseconds: 5 - Double($0)) }
    let statistics = try #require(HitStatistics(offsets: offsets, tolerance: 20))
    #expect(abs(try #require(statistics.driftPerMinute) + 30) < 1e-9)
    #expect(statistics.summary.hasSuffix("rushing 30.0 ms a minute"))
    #expect(HitStatistics(offsets: [(3, 1), (3, 2)], tolerance: 20)?.driftPerMinute == nil)
    // Two hits a second apart already have a slope: 1 ms a second, 60 a minute.
    #expect(HitStatistics(offsets: [(0, 0), (1, 1)], tolerance: 20)?.driftPerMinute == 60)
    // A flat line neither rushes nor drags: it is said as dragging by nothing.
    #expect(
      HitStatistics(offsets: [(0, 2), (1, 2)], tolerance: 20)?.summary.hasSuffix(", dragging 0.0 ms a minute") == true)
  }

  @Test func theSummaryLineSaysEveryFigure() throws {
    let statistics = try #require(HitStatistics(offsets: [(0, -2), (60, 2)], tolerance: 20))
    #expect(
      statistics.summary
        == "2 hits: mean 0.0 ms, median 0.0 ms, deviation 2.0 ms (unstable rate 20), 100% within 20.0 ms,"
        + " 0 early, 0 late, dragging 4.0 ms a minute")
  }
}
