import MetronomeCore
import MetronomeEngine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TransportFollowerTests {
  let fourFour = Meter.fourFour
  let tempo = Tempo.standard

  /// A timebase master at 120 beats a minute in 4/4, at bar 3, beat 2 and `fraction` of it.
  private func master(bar: Int = 3, beat: Int = 2, fraction: Double, frame: Int64 = 0, rolling: Bool = true)
    -> TransportReading
  {
    TransportReading(
      isRolling: rolling, frame: frame,
      barBeat: TransportReading.BarBeat(
        bar: bar, beat: beat, fraction: fraction, resolution: 1.0 / 1_920, beatsPerMinute: 120, meter: .fourFour))
  }

  /// Standing still at first holds the metronome; rolling anchors the next beat of the master's
  /// bar and beat, on its exact frame; rolling on as foreseen changes nothing; a relocation
  /// anchors again; stopping stops.
  @Test func followsAMastersBarsAndBeats() throws {
    var follower = TransportFollower(sampleRate: .standard)
    #expect(
      follower.follow(master(fraction: 0, rolling: false), atFrame: 0, tempo: tempo, meter: fourFour) == .some(nil))
    #expect(follower.follow(master(fraction: 0, rolling: false), atFrame: 256, tempo: tempo, meter: fourFour) == nil)

    let startedChange = follower.follow(master(fraction: 0.5), atFrame: 1_000, tempo: tempo, meter: fourFour)
    let started = try #require(startedChange ?? nil)
    // Half a beat of 24000 frames to go: beat 3 of bar 3 on frame 13000.
    #expect(started.frame == 13_000)
    #expect(started.bar == 3)
    #expect(started.beatInBar == 3)
    #expect(started.source == .jack)
    // 256 frames on, the master is 256/24000 of a beat further: nothing new.
    #expect(
      follower.follow(master(fraction: 0.5 + 256.0 / 24_000), atFrame: 1_256, tempo: tempo, meter: fourFour) == nil)
    // And across a bar line.
    #expect(
      follower.follow(master(bar: 4, beat: 1, fraction: 0.1), atFrame: 63_400, tempo: tempo, meter: fourFour) == nil)

    let movedChange = follower.follow(
      master(bar: 9, beat: 1, fraction: 0), atFrame: 70_000, tempo: tempo, meter: fourFour)
    let moved = try #require(movedChange ?? nil)
    #expect(moved.frame == 70_000)
    #expect(moved.bar == 9)
    #expect(moved.beatInBar == 1)
    #expect(moved.id != started.id)

    #expect(
      follower.follow(master(fraction: 0, rolling: false), atFrame: 80_000, tempo: tempo, meter: fourFour) == .some(nil)
    )
  }

  /// A master's tempo wins: a metronome at another tempo (a key pressed) is anchored again.
  @Test func theMastersTempoWins() throws {
    var follower = TransportFollower(sampleRate: .standard)
    _ = follower.follow(master(fraction: 0), atFrame: 0, tempo: tempo, meter: fourFour)
    let faster = try Tempo(bpm: 130)
    let againChange = follower.follow(master(fraction: 256.0 / 24_000), atFrame: 256, tempo: faster, meter: fourFour)
    let again = try #require(againChange ?? nil)
    #expect(again.tempo == tempo)
    #expect(again.frame == 24_000)
  }

  /// Without a timebase master, the transport's frame places the beats at the metronome's tempo:
  /// frame 30000 at 120 is 1.25 beats in, so the next, beat 3 of bar 1, is 18000 frames on.
  @Test func withoutAMasterTheFramePlacesTheBeats() throws {
    var follower = TransportFollower(sampleRate: .standard)
    let reading = TransportReading(isRolling: true, frame: 30_000, barBeat: nil)
    let anchorChange = follower.follow(reading, atFrame: 5_000, tempo: tempo, meter: fourFour)
    let anchor = try #require(anchorChange ?? nil)
    #expect(anchor.frame == 23_000)
    #expect(anchor.bar == 1)
    #expect(anchor.beatInBar == 3)
    let later = TransportReading(isRolling: true, frame: 30_256, barBeat: nil)
    #expect(follower.follow(later, atFrame: 5_256, tempo: tempo, meter: fourFour) == nil)
  }

  /// A master says where a beat is to within one of its ticks, and may number a beat otherwise for
  /// a cycle at a bar line: neither moves the beats; a numbering that holds (a relocation by whole
  /// bars, in time) does.
  @Test func aTicksJitterOrAOneCycleSlipMovesNothing() throws {
    var follower = TransportFollower(sampleRate: .standard)
    _ = follower.follow(master(bar: 1, beat: 1, fraction: 0), atFrame: 0, tempo: tempo, meter: fourFour)
    // 10 frames off (under a tick of 12.5 frames at 120): the same grid.
    #expect(
      follower.follow(master(bar: 1, beat: 1, fraction: 266.0 / 24_000), atFrame: 256, tempo: tempo, meter: fourFour)
        == nil)
    // Bar 2 said a cycle early, then bar 1 again: nothing.
    #expect(
      follower.follow(master(bar: 2, beat: 1, fraction: 512.0 / 24_000), atFrame: 512, tempo: tempo, meter: fourFour)
        == nil)
    #expect(
      follower.follow(master(bar: 1, beat: 1, fraction: 768.0 / 24_000), atFrame: 768, tempo: tempo, meter: fourFour)
        == nil)
    // Bar 5 in time, twice: the numbering moves.
    #expect(
      follower.follow(
        master(bar: 5, beat: 1, fraction: 1_024.0 / 24_000), atFrame: 1_024, tempo: tempo, meter: fourFour) == nil)
    let relocatedChange = follower.follow(
      master(bar: 5, beat: 1, fraction: 1_280.0 / 24_000), atFrame: 1_280, tempo: tempo, meter: fourFour)
    let relocated = try #require(relocatedChange ?? nil)
    #expect(relocated.bar == 5)
    #expect(relocated.beatInBar == 2)
    #expect(relocated.frame == 24_000)
  }

  /// Where a master's beats run from its frame 0 at its tempo, its frame places the beat exactly.
  ///
  /// A tick is coarse: frame 30005 at 120 is 1.2502 beats in, which the master's tick rounds down
  /// to 1.25; the next beat is 17995 frames on, not 18000.
  @Test func theTransportsFrameRefinesTheTick() throws {
    var follower = TransportFollower(sampleRate: .standard)
    let change = follower.follow(
      master(bar: 1, beat: 2, fraction: 0.25, frame: 30_005), atFrame: 100, tempo: tempo, meter: fourFour)
    let anchor = try #require(change ?? nil)
    #expect(anchor.frame == 100 + 17_995)
    #expect(anchor.beatInBar == 3)
  }

  /// As the timebase master the metronome publishes its beats counted from the transport's frame 0.
  ///
  /// 4.5 beats of 3/4 at 150 (19200 frames each) are bar 2, beat 2, half of it; JACK's tempo
  /// counts the meter's note value. A follower of that position plays the same grid as one of the
  /// frame alone.
  @Test func theTimebaseMasterPublishesTheBeatsAFollowerPlays() throws {
    let waltz = try Meter(3, 4)
    let fast = try Tempo(bpm: 150)
    let position = TimebaseMaster.position(atFrame: 86_400, tempo: fast, meter: waltz, sampleRate: .standard)
    #expect(position.bar == 2)
    #expect(position.beat == 2)
    #expect(position.fraction == 0.5)
    #expect(position.beatsPerMinute == 150)
    #expect(
      TimebaseMaster.position(atFrame: 0, tempo: fast, meter: try Meter(6, 8), sampleRate: .standard).beatsPerMinute
        == 300)

    var withMaster = TransportFollower(sampleRate: .standard)
    var withoutMaster = TransportFollower(sampleRate: .standard)
    let published = withMaster.follow(
      TransportReading(isRolling: true, frame: 86_400, barBeat: position), atFrame: 7, tempo: fast, meter: waltz)
    let derived = withoutMaster.follow(
      TransportReading(isRolling: true, frame: 86_400, barBeat: nil), atFrame: 7, tempo: fast, meter: waltz)
    let fromMaster = try #require(published ?? nil)
    let fromFrame = try #require(derived ?? nil)
    #expect(fromMaster.frame == fromFrame.frame)
    #expect(fromMaster.bar == fromFrame.bar)
    #expect(fromMaster.beatInBar == fromFrame.beatInBar)
    #expect(fromMaster.frame == 7 + 9_600)
  }
}
