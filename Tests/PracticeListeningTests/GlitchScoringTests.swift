import MetronomeCore
import PracticeListening
import Testing

/// Hits where the output glitched: near a click it skipped, and where it played late.
@Suite(.timeLimit(.minutes(1))) struct GlitchScoringTests {
  /// A hit nearest a click a glitch skipped is not scored against a click beside it, whether the
  /// hits or the clicks come first; a hit nearer a click that sounded is, by a frame too.
  @Test func aHitNearestASkippedClickIsNotScoredAndOneNearerASoundingClickIs() {
    let clicks = steadyClicks(count: 4)
    for hitsFirst in [false, true] {
      var matcher = HitMatcher()
      var decided: [HitMatcher.Outcome] = []
      let hits = [24_000 - 600, 35_999, 36_001, 72_000 + 10].map { Hit(frame: $0, note: 38, velocity: 90) }
      if hitsFirst { for hit in hits { decided += matcher.played(hit) } }
      decided += matcher.heard(clicks[0])
      decided += matcher.heard(clicks[1], sounded: false)
      decided += matcher.heard(clicks[2])
      decided += matcher.heard(clicks[3])
      if !hitsFirst { for hit in hits { decided += matcher.played(hit) } }
      decided += matcher.finish()
      #expect(decided.count == 4)
      let skipped = decided.filter {
        if case .unscored(_, let reason) = $0 { reason == "its click skipped by a glitch" } else { false }
      }
      #expect(skipped.count == 2, "\(decided)")
      #expect(offsets(decided).compactMap { $0 }.sorted() == [-11_999, 10], "\(decided)")
    }
  }

  /// A skipped click stays skipped while it is kept, the oldest kept too: a hit that comes late
  /// for it, after 63 clicks more, is not scored.
  @Test func theOldestClickKeptStaysSkipped() {
    var matcher = HitMatcher()
    let clicks = steadyClicks(count: 65)
    _ = matcher.heard(clicks[0])
    _ = matcher.heard(clicks[1], sounded: false)
    for click in clicks.dropFirst(2) { _ = matcher.heard(click) }
    // 65 clicks heard, 64 kept: the oldest kept is the skipped one.
    let decided = matcher.played(Hit(frame: clicks[1].frame + 10, note: 38, velocity: 90))
    #expect(
      decided == [
        .unscored(Hit(frame: clicks[1].frame + 10, note: 38, velocity: 90), reason: "its click skipped by a glitch")
      ])
  }

  /// The scorer counts a hit nearest a skipped click as not scored, and says why among the rest.
  @Test func theScorerCountsAHitNearestASkippedClickAsNotScored() {
    var scorer = HitScorer(tolerance: 20)
    let clicks = steadyClicks(count: 3)
    _ = scorer.heard(clicks[0])
    _ = scorer.skipped(clicks[1])
    _ = scorer.played(Hit(frame: 24_100, note: 38, velocity: 90))
    _ = scorer.heard(clicks[2])
    _ = scorer.finish()
    #expect(scorer.scored.isEmpty && scorer.unscored == 1)
    #expect(scorer.summary == "no hits scored; 1 not scored (count-in, a click a glitch skipped, or no click near)")
  }

  /// Each attack heard where the output glitched is counted, and said once, in the summary and as
  /// the display's latest notice.
  @Test func attacksHeardWhereTheOutputGlitchedAreCountedAndSaid() {
    var scorer = HitScorer(tolerance: 20)
    scorer.heard(.heardWhereTheOutputGlitched)
    let once = "1 hit heard where the output glitched not scored (the click there came late)"
    #expect(scorer.summary == "no hits scored; " + once && scorer.displayLines == [once])
    scorer.heard(.heardWhereTheOutputGlitched)
    #expect(
      scorer.summary == "no hits scored; 2 hits heard where the output glitched not scored (the click there came late)")
  }

  /// The time the inputs went unheard in xruns is added up and said, in the summary and as the
  /// display's latest notice.
  @Test func theTimeTheInputsWentUnheardInXrunsIsAddedUpAndSaid() {
    var scorer = HitScorer(tolerance: 20)
    let said = { (milliseconds: String) in
      "the hits went unheard for \(milliseconds) ms where the input lost frames (xruns): any played then were lost"
    }
    scorer.heard(.unheard(milliseconds: 21.3))
    #expect(scorer.summary == "no hits scored; " + said("21.3") && scorer.displayLines == [said("21.3")])
    scorer.heard(.unheard(milliseconds: 42.7))
    #expect(scorer.summary == "no hits scored; " + said("64.0"))
  }
}
