import MetronomeCore
import PracticeListening
import Testing

/// The edges of which click a hit belongs to: a pause between clicks, the last click, the first
/// two clicks, a click told twice.
@Suite(.timeLimit(.minutes(1)))
struct HitMatcherEdgeTests {
  /// Clicks of the beats' voice at `frames`, 48 kHz.
  private func clicks(at frames: [Int64]) -> [Beat] {
    frames.enumerated().map { index, frame in
      Beat(
        count: index, bar: index / 4 + 1, beatInBar: index % 4 + 1, meter: .fourFour, tempo: .standard, frame: frame,
        sampleRate: .standard)
    }
  }

  /// Each hit's offset from its click, or nil where it was not scored.
  private func scored(_ hits: [Int64], clicks frames: [Int64]) -> [Int64?] {
    offsets(outcomes(clicks: clicks(at: frames), hits: hits.map { Hit(frame: $0, note: 38, velocity: 90) }))
  }

  /// A pause is a stretch between two clicks of at least a second and more than three times the
  /// spacing before it: a hit in it is near a click within half that spacing, and not beyond.
  @Test func aHitInAPauseIsNearAClickWithinHalfTheSpacingBefore() {
    // After the second click already: 0.5 s apart, then 2.5 s.
    let frames: [Int64] = [0, 24_000, 144_000]
    #expect(scored([36_000, 36_001, 84_000, 132_000, 131_999], clicks: frames) == [12_000, nil, nil, -12_000, nil])
    // Exactly a second, more than three times 0.25 s: a pause.
    #expect(scored([48_000], clicks: [0, 12_000, 24_000, 72_000]) == [nil])
    // A frame under a second: no pause, the nearest click takes it.
    #expect(scored([47_999], clicks: [0, 12_000, 24_000, 71_999]) == [23_999])
    // Exactly three times the spacing: no pause; a frame more: a pause.
    #expect(scored([84_000], clicks: [0, 24_000, 48_000, 120_000]) == [36_000])
    #expect(scored([84_000], clicks: [0, 24_000, 48_000, 120_001]) == [nil])
  }

  /// After the last click a hit counts within half the spacing before it, decided when the run
  /// ends.
  @Test func aHitAfterTheLastClickCountsWithinHalfASpacing() {
    #expect(scored([60_000, 60_001], clicks: [0, 24_000, 48_000]) == [12_000, nil])
  }

  /// Two clicks are enough to decide a hit before the first: it does not wait for the run's end.
  @Test func twoClicksDecideAHitBeforeTheFirst() {
    var matcher = HitMatcher()
    for click in clicks(at: [24_000, 48_000]) { #expect(matcher.heard(click).isEmpty) }
    #expect(offsets(matcher.played(Hit(frame: 23_520, note: 36, velocity: 90))) == [-480])
  }

  /// A long run keeps matching, clicks and hits coming in turn as they do live: hundreds of
  /// clicks, each hit to its own.
  @Test func aLongRunMatchesEveryHit() {
    var matcher = HitMatcher()
    var decided: [HitMatcher.Outcome] = []
    for click in clicks(at: (0..<300).map { Int64($0) * 24_000 }) {
      decided += matcher.heard(click)
      decided += matcher.played(Hit(frame: click.frame + 480, note: 38, velocity: 90))
    }
    #expect(offsets(decided + matcher.finish()) == Array(repeating: 480, count: 300))
  }

  /// A click told twice is one click: at 60 BPM a hit 100 ms late is still its click's.
  @Test func aClickToldTwiceIsOneClick() {
    var matcher = HitMatcher()
    let told = clicks(at: [0, 48_000, 96_000])
    for click in [told[0], told[1], told[1], told[2]] { _ = matcher.heard(click) }
    #expect(offsets(matcher.played(Hit(frame: 52_800, note: 38, velocity: 90)) + matcher.finish()) == [4_800])
  }
}
