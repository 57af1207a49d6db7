import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TapTempoTests {
  @Test func oneTapGivesNoTempo() {
    var tap = TapTempo()
    #expect(tap.tap(atSeconds: 1, denominator: 4) == nil)
  }

  @Test func averagesTheRecentIntervals() {
    var tap = TapTempo(maxIntervals: 2)
    let tempos = [0, 0.5, 1.0, 1.6, 2.2].map { tap.tap(atSeconds: $0, denominator: 4)?.bpm }
    // The last two intervals are 0.6 s each: 100 BPM; the first 0.5 s has fallen out.
    #expect(tempos == [nil, 120, 120, 109.1, 100])
  }

  @Test func aLongPauseStartsOver() {
    var tap = TapTempo(resetAfter: 2)
    _ = tap.tap(atSeconds: 0, denominator: 4)
    _ = tap.tap(atSeconds: 0.5, denominator: 4)
    #expect(tap.tap(atSeconds: 3, denominator: 4) == nil)
    #expect(tap.tap(atSeconds: 4, denominator: 4)?.bpm == 60)
  }

  @Test func tapsOfEighthNotesGiveQuarterNoteTempo() {
    var tap = TapTempo()
    _ = tap.tap(atSeconds: 0, denominator: 8)
    #expect(tap.tap(atSeconds: 0.15, denominator: 8)?.bpm == 200)
  }
}
