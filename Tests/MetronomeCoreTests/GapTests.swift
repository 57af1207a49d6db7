import MetronomeCore
import PropertyBased
import Testing

@Suite(.timeLimit(.minutes(1)))
struct GapTests {
  @Test func readsBothForms() throws {
    #expect(try Gap(parsing: "3:1", seed: 0) == .bars(play: 3, mute: 1))
    #expect(try Gap(parsing: "25%", seed: 9) == .random(percent: 25, byBeat: false, seed: 9))
    #expect(try Gap(parsing: "12.5%:beats", seed: 9) == .random(percent: 12.5, byBeat: true, seed: 9))
    for bad in ["", "3", "0:1", "1:1001", "3:1:1", "x%", "101%", "-1%", "25%:bars", "25%beats", "%"] {
      #expect(throws: GapError.self) { try Gap(parsing: bad, seed: 0) }
    }
  }

  /// A random gap mutes about its share, never bar one, the same bars for the same seed and
  /// other bars for another.
  @Test func aRandomGapMutesItsShareTheSameWayForTheSameSeed() {
    let quarter = Gap.random(percent: 25, byBeat: false, seed: 42)
    let muted = (1...10_000).filter { quarter.mutes(bar: $0, count: 0) }
    #expect((2_300...2_700).contains(muted.count))
    #expect(!muted.contains(1))
    #expect(muted == (1...10_000).filter { quarter.mutes(bar: $0, count: 0) })
    let other = Gap.random(percent: 25, byBeat: false, seed: 43)
    #expect(muted != (1...10_000).filter { other.mutes(bar: $0, count: 0) })
    #expect(!(2...1000).contains { Gap.random(percent: 0, byBeat: false, seed: 1).mutes(bar: $0, count: 0) })
    #expect((2...1000).allSatisfy { Gap.random(percent: 100, byBeat: false, seed: 1).mutes(bar: $0, count: 0) })
  }

  /// Bar one always plays, to give the tempo: for any seed and any share, by bar or by beat
  /// (every beat of bar one, up to 16 of them), even a gap muting everything.
  @Test func barOneAlwaysPlaysWhateverTheSeed() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.double(in: 0...100), Gen.bool) { seed, percent, byBeat in
      for gap in [
        Gap.random(percent: percent, byBeat: byBeat, seed: seed), .random(percent: 100, byBeat: byBeat, seed: seed),
      ] {
        #expect(!(0..<16).contains { gap.mutes(bar: 1, count: $0) }, "\(gap) seed \(seed)")
      }
      #expect(Gap.random(percent: 100, byBeat: byBeat, seed: seed).mutes(bar: 2, count: 16))
    }
  }

  /// By beat, the beat's count chooses, so beats of one bar differ.
  @Test func aRandomGapByBeatChoosesEachBeat() {
    let half = Gap.random(percent: 50, byBeat: true, seed: 5)
    let bar = (0..<400).map { half.mutes(bar: 2, count: $0) }
    #expect(bar.contains(true) && bar.contains(false))
  }
}
