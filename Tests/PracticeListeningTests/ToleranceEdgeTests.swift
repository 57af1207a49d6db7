import MetronomeCore
import PracticeListening
import PropertyBased
import Testing

/// The edges of what is on time and what is near a click, over every tolerance `--tolerance`
/// takes (1 to 500 ms) and the rates where a millisecond is a whole number of frames.
@Suite(.timeLimit(.minutes(1))) struct ToleranceEdgeTests {
  /// A hit exactly at the tolerance either way is on time; one frame beyond it is not.
  ///
  /// Early or late, in the statistics and in the display's word alike. The clicks are 2 s apart, so that even
  /// 500 ms and a frame is nearer its own click than the next.
  @Test func aHitAtTheToleranceIsOnTimeAndAFrameBeyondIsNot() async throws {
    // The range's ends every time, then tolerances drawn from it.
    for tolerance in [1, 500] {
      for fastRate in [false, true] { try checkEdges(tolerance: tolerance, fastRate: fastRate) }
    }
    await propertyCheck(input: Gen.int(in: 1...500), Gen.bool) { tolerance, fastRate in
      try checkEdges(tolerance: tolerance, fastRate: fastRate)
    }
  }

  /// Scores a hit at the tolerance and a frame beyond it either way, at 96 kHz if `fastRate`,
  /// else 48 kHz.
  private func checkEdges(tolerance: Int, fastRate: Bool) throws {
    let rate = fastRate ? 96_000 : 48_000
    let edge = Int64(tolerance * rate / 1_000)
    for (offset, word) in [(-edge, "on time"), (edge, "on time"), (-edge - 1, "early"), (edge + 1, "late")] {
      var scorer = HitScorer(tolerance: Double(tolerance))
      let clicks = try steadyClicks(count: 4, from: Int64(2 * rate), spacing: Int64(2 * rate)).map {
        try $0.at(rate: rate)
      }
      for click in clicks { _ = scorer.heard(click) }
      _ = scorer.played(Hit(frame: clicks[1].frame + offset, note: 38, velocity: 100))
      _ = scorer.finish()
      let statistics = scorer.statistics
      #expect(statistics?.onTime == (word == "on time" ? 1 : 0), "\(tolerance) ms, \(offset) frames at \(rate)")
      #expect(statistics?.early == (word == "early" ? 1 : 0))
      #expect(statistics?.late == (word == "late" ? 1 : 0))
      #expect(scorer.displayLines.first?.contains(" ms \(word)  early ") == true, "\(scorer.displayLines)")
    }
  }

  /// Before the first click, a hit is near it within half the spacing after it, and not scored
  /// beyond that: half a spacing is in, a frame more is out, and so is a whole spacing.
  @Test func aHitBeforeTheFirstClickCountsWithinHalfASpacing() async {
    await propertyCheck(input: Gen.int(in: 4_000...96_000)) { spacing in
      let clicks = steadyClicks(count: 3, from: 200_000, spacing: Int64(spacing))
      let half = Int64(spacing / 2)
      for (early, scored) in [(half, true), (half + 1, false), (Int64(spacing) - 1, false), (Int64(spacing), false)] {
        let hit = Hit(frame: 200_000 - early, note: 36, velocity: 90)
        for hitsFirst in [false, true] {
          let outcome = outcomes(clicks: clicks, hits: [hit], hitsFirst: hitsFirst)
          #expect(offsets(outcome) == [scored ? -early : nil], "\(early) of \(spacing) before the first click")
        }
      }
    }
  }
}

extension Beat {
  /// This click at `rate` instead, at the same frame.
  fileprivate func at(rate: Int) throws -> Beat {
    Beat(
      count: count, bar: bar, beatInBar: beatInBar, meter: meter, tempo: tempo, frame: frame,
      sampleRate: try SampleRate(rate), isCountIn: isCountIn)
  }
}
