import MetronomeCore
import PracticeListening
import Testing

/// What the player did without the click: the drift within silent stretches, the first hit back.
@Suite(.timeLimit(.minutes(1)))
struct SilentPlayingTests {
  /// A hit `offset` ms from beat `n` of 4/4 at 120 (half a second apart), whose click was muted
  /// by a gap, earned away (volume 0) or sounded.
  private func hit(_ n: Int, _ offset: Double, _ click: String = "sounded") -> ScoredHit {
    let beat = Beat(
      count: n, bar: n / 4 + 1, beatInBar: n % 4 + 1, meter: .fourFour, tempo: .standard, frame: Int64(n) * 24_000,
      sampleRate: .standard, volume: click == "earned away" ? 0 : 1, isGapMuted: click == "gap")
    return ScoredHit(hit: Hit(frame: beat.frame + Int64(offset * 48), note: 38, velocity: 90), click: beat)
  }

  /// Two silent stretches, each rushing 1 ms a beat (120 ms a minute at 120) from a level of its
  /// own: the drift is each stretch's slope, not the jump between them; each return's first hit.
  @Test func theDriftIsWithinEachStretchAndEachReturnIsItsFirstHit() throws {
    let hits =
      [hit(0, 0), hit(1, 1)] + (2..<6).map { hit($0, -Double($0 - 2), "gap") } + [hit(6, 4), hit(7, 9)]
      + (8..<12).map { hit($0, 20 - Double($0 - 8), "earned away") } + [hit(12, -2)]
    let silent = try #require(SilentPlaying(hits.shuffled()))
    #expect(silent.hits == 8)
    #expect(abs(try #require(silent.driftPerMinute) + 120) < 1e-6)
    #expect(silent.returns == [4, -2])
    #expect(
      silent.summary
        == "without the click: 8 hits, rushing 120.0 ms a minute; back with it, the first hit +1.0 ms (mean of 2)")
  }

  @Test func withoutSilentClicksThereIsNothingToSay() throws {
    #expect(SilentPlaying([hit(0, 1), hit(1, 2)]) == nil)
    // One silent hit has no drift; a run that ends silent has no return.
    let one = try #require(SilentPlaying([hit(0, 1), hit(1, 3, "gap")]))
    #expect(one.driftPerMinute == nil && one.returns == [])
    #expect(one.summary == "without the click: 1 hit")
    let late = try #require(SilentPlaying([hit(0, 1, "gap"), hit(1, 4, "gap"), hit(2, 7)]))
    #expect(
      late.summary == "without the click: 2 hits, dragging 360.0 ms a minute; back with it, the first hit +7.0 ms")
  }
}
