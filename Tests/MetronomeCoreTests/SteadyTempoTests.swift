import MetronomeCore
import Testing

/// The player's steady tempo as a source of beats: exact frames, the place in the bar, and a
/// change that keeps the phase.
@Suite(.timeLimit(.minutes(1)))
struct SteadyTempoTests {
  private func source(_ bpm: Double, _ meter: Meter = .fourFour, startFrame: Int64 = 0) throws -> SteadyTempo {
    SteadyTempo(startFrame: startFrame, tempo: try Tempo(bpm: bpm), meter: meter, sampleRate: .standard)
  }

  /// The next `count` beats as the source places them, each after the one before.
  private func placed(_ count: Int, of source: inout SteadyTempo) -> [SourcedBeat] {
    var last: Beat?
    return (0..<count).map { _ in
      let placed = source.nextBeat(after: last, rhythm: Rhythm())
      last = Beat(
        count: 0, bar: 1, beatInBar: placed.beatInBar, meter: placed.meter, tempo: placed.tempo, frame: placed.frame,
        sampleRate: .standard)
      return placed
    }
  }

  /// The next `count` beats' frames and places in the bar.
  private func beats(_ count: Int, of source: inout SteadyTempo) -> [(frame: Int64, beatInBar: Int)] {
    placed(count, of: &source).map { ($0.frame, $0.beatInBar) }
  }

  /// The next `count` beats' tempos and frames.
  private func tempos(_ count: Int, of source: inout SteadyTempo) -> [(bpm: Double, frame: Int64)] {
    placed(count, of: &source).map { ($0.tempo.bpm, $0.frame) }
  }

  @Test func ninetyBeatsEveryTwoThirdsOfASecondAndSevenEightAt200Every150Milliseconds() throws {
    var ninety = try source(90)
    #expect(beats(4, of: &ninety).map(\.frame) == [0, 32_000, 64_000, 96_000] as [Int64])
    var sevenEight = try source(200, try Meter(7, 8), startFrame: 100)
    let placed = beats(8, of: &sevenEight)
    #expect(placed.map(\.frame) == (0..<8).map { (beat: Int64) in 100 + beat * 7_200 })
    #expect(placed.map(\.beatInBar) == [1, 2, 3, 4, 5, 6, 7, 1])
  }

  /// 97.5 BPM: 29 538.46… frames a beat, each beat rounded from the anchor, never from the one before.
  @Test func roundingNeverAccumulates() throws {
    let steady = try source(97.5)
    let exact: Double = 1_000 * 48_000 * 60 / 97.5
    #expect(steady.frame(ofBeat: 1_000) == Int64(exact.rounded()))
    #expect(steady.frame(ofBeat: 13) == 384_000)
  }

  @Test func aNewTempoAppliesFromTheBeatAfterTheLastOne() throws {
    var steady = try source(120)
    _ = beats(2, of: &steady)
    let cut = steady.change(
      tempo: try Tempo(bpm: 60), meter: .fourFour, programme: Programme(), earliestFrame: 30_000, lastBeatFrame: 24_000)
    #expect(cut)
    #expect(steady.nextBeatFrame == 72_000)
  }

  /// Speeding up late in a long beat plays the next beat at once rather than in the past.
  @Test func aChangeNeverPlacesABeatBeforeTheFirstFrameNotRendered() throws {
    var steady = try source(30)
    _ = beats(1, of: &steady)
    _ = steady.change(
      tempo: try Tempo(bpm: 240), meter: .fourFour, programme: Programme(), earliestFrame: 90_000, lastBeatFrame: 0)
    #expect(steady.nextBeatFrame == 90_000)
  }

  @Test func onlyAnotherSpacingOrBarLengthCutsTheSecondVoicesBar() throws {
    var steady = try source(120)
    _ = beats(1, of: &steady)
    let same = steady.change(
      tempo: .standard, meter: .fourFour, programme: Programme(), earliestFrame: 10, lastBeatFrame: 0)
    #expect(!same)
    let shorter = steady.change(
      tempo: .standard, meter: try Meter(3, 4), programme: Programme(), earliestFrame: 10, lastBeatFrame: 0)
    #expect(shorter)
    #expect(steady.nextBeatFrame == 24_000)
  }

  /// klick's speed trainer starts at its start and moves the tempo on with each beat after the
  /// first, for the beat after it, each a beat of the tempo it moved to (8 BPM a bar of four: 2 a
  /// beat), and stops at the tempo the player chose when it has no limit.
  @Test func theSpeedTrainerRampsFromItsStartWithEachBeatAfterTheFirst() throws {
    var steady = SteadyTempo(
      startFrame: 0, tempo: try Tempo(bpm: 120), meter: .fourFour,
      trainer: SpeedTrainer(increment: 8, start: 100, limit: 0), sampleRate: .standard)
    let placed = tempos(14, of: &steady)
    #expect(placed.prefix(4).map(\.bpm) == [100, 100, 102, 104])
    // 60 / 100 s, then 60 / 102 s and 60 / 104 s of 48 kHz, each rounded from the beat before.
    #expect(placed.prefix(4).map(\.frame) == [0, 28_800, 57_035, 84_727])
    #expect(placed.suffix(3).map(\.bpm) == [120, 120, 120])
  }

  /// A tempo the player chooses while the trainer ramps is where it ramps on from; anything else
  /// changed (here the meter's beats) keeps the tempo it ramped to, and a trainer turned off stays
  /// where it got to, as klick's does.
  @Test func theTrainerRampsOnFromATempoChosenAndStaysWhereItGotToWhenOff() throws {
    let trainer = SpeedTrainer(increment: 12, start: 0, limit: 0)
    var steady = SteadyTempo(
      startFrame: 0, tempo: try Tempo(bpm: 120), meter: try Meter(3, 4), trainer: trainer, sampleRate: .standard)
    #expect(tempos(3, of: &steady).map(\.bpm) == [120, 120, 124])
    var training = Programme()
    training.speedTrainer = trainer
    _ = steady.change(
      tempo: try Tempo(bpm: 120), meter: .fourFour, programme: training, earliestFrame: 0, lastBeatFrame: nil)
    #expect(tempos(2, of: &steady).map(\.bpm) == [128, 131])
    _ = steady.change(
      tempo: try Tempo(bpm: 90), meter: .fourFour, programme: training, earliestFrame: 0, lastBeatFrame: nil)
    #expect(tempos(2, of: &steady).map(\.bpm) == [90, 93])
    _ = steady.change(
      tempo: try Tempo(bpm: 90), meter: .fourFour, programme: Programme(), earliestFrame: 0, lastBeatFrame: nil)
    #expect(tempos(2, of: &steady).map(\.bpm) == [96, 96])
  }

  /// A trainer set while the tempo plays ramps it from there, not from its start: the start is
  /// where play starts.
  @Test func aTrainerSetWhilePlayingRampsFromTheTempoPlaying() throws {
    var steady = try source(120)
    _ = tempos(2, of: &steady)
    var training = Programme()
    training.speedTrainer = SpeedTrainer(increment: 40, start: 60, limit: 125)
    _ = steady.change(
      tempo: try Tempo(bpm: 120), meter: .fourFour, programme: training, earliestFrame: 0, lastBeatFrame: nil)
    #expect(tempos(3, of: &steady).map(\.bpm) == [120, 125, 125])
  }
}
