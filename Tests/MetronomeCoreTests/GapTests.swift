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

  /// A gap read before its seed is known draws its bars with the seed given later, as one read
  /// with that seed does; a regular gap has no seed to take.
  @Test func aGapTakesItsSeedAfterItIsRead() throws {
    #expect(try Gap(parsing: "25%:beats", seed: 0).seeded(41) == (try Gap(parsing: "25%:beats", seed: 41)))
    #expect(try Gap(parsing: "25%", seed: 3).seeded(3) == (try Gap(parsing: "25%", seed: 3)))
    #expect(Gap.bars(play: 3, mute: 1).seeded(41) == .bars(play: 3, mute: 1))
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

  /// A regular gap plays its bars, then mutes its bars, from bar one, round after round.
  ///
  /// The count-in (bar 0) is never muted. Its parts go up to 1000 each.
  @Test func aRegularGapPlaysThenMutesFromBarOne() throws {
    let gap = Gap.bars(play: 3, mute: 2)
    #expect(
      (0...11).map { gap.mutes(bar: $0, count: 0) } == [
        false, false, false, false, true, true, false, false, false, true, true, false,
      ])
    #expect((1...4).map { Gap.bars(play: 1, mute: 1).mutes(bar: $0, count: 0) } == [false, true, false, true])
    // A count-in of several bars numbers them up to 0: none is muted, whatever the gap.
    #expect((-70...0).allSatisfy { !Gap.bars(play: 1, mute: 1).mutes(bar: $0, count: 0) })
    #expect((-70...0).allSatisfy { !Gap.bars(play: 1, mute: 1_000).mutes(bar: $0, count: 0) })
    #expect(try Gap(parsing: "1000:1000", seed: 0) == .bars(play: 1_000, mute: 1_000))
    #expect(try Gap(parsing: "1:1", seed: 0) == .bars(play: 1, mute: 1))
    #expect(try Gap(parsing: "0%", seed: 3) == .random(percent: 0, byBeat: false, seed: 3))
    #expect(try Gap(parsing: "100%:beats", seed: 3) == .random(percent: 100, byBeat: true, seed: 3))
  }

  /// The bars a random gap mutes are drawn independently: at half, a bar is muted as often after
  /// a muted bar as after a played one, and a seed shares no more than chance with the next seed.
  @Test func aRandomGapsBarsAreIndependent() {
    let bars = 2...20_001
    let half = Gap.random(percent: 50, byBeat: false, seed: 1)
    let muted = bars.map { half.mutes(bar: $0, count: 0) }
    let afterMuted = zip(muted, muted.dropFirst()).filter(\.0)
    let share = Double(afterMuted.filter(\.1).count) / Double(afterMuted.count)
    #expect(abs(share - 0.5) < 0.03, "\(share) of bars after a muted one are muted")
    let next = Gap.random(percent: 50, byBeat: false, seed: 2)
    let agree = Double(zip(muted, bars.map { next.mutes(bar: $0, count: 0) }).filter { $0 == $1 }.count)
    #expect(abs(agree / Double(bars.count) - 0.5) < 0.03, "seeds 1 and 2 agree on \(agree) bars")
  }
}
