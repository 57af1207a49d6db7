import MetronomeCore
import Testing

/// The player's steady tempo as a source of beats: exact frames, the place in the bar, and a
/// change that keeps the phase.
@Suite(.timeLimit(.minutes(1)))
struct SteadyTempoTests {
  private func source(_ bpm: Double, _ meter: Meter = .fourFour, startFrame: Int64 = 0) throws -> SteadyTempo {
    SteadyTempo(startFrame: startFrame, tempo: try Tempo(bpm: bpm), meter: meter, sampleRate: .standard)
  }

  /// The next `count` beats' frames and places in the bar, each after the one before.
  private func beats(_ count: Int, of source: inout SteadyTempo) -> [(frame: Int64, beatInBar: Int)] {
    var last: Beat?
    return (0..<count).map { _ in
      let placed = source.nextBeat(after: last, rhythm: Rhythm())
      last = Beat(
        count: 0, bar: 1, beatInBar: placed.beatInBar, meter: placed.meter, tempo: placed.tempo, frame: placed.frame,
        sampleRate: .standard)
      return (placed.frame, placed.beatInBar)
    }
  }

  @Test func ninetyBeatsEveryTwoThirdsOfASecondAndSevenEightAt200Every150Milliseconds() throws {
    var ninety = try source(90)
    #expect(beats(4, of: &ninety).map(\.frame) == [0, 32_000, 64_000, 96_000])
    var sevenEight = try source(200, try Meter(7, 8), startFrame: 100)
    let placed = beats(8, of: &sevenEight)
    #expect(placed.map(\.frame) == (0..<8).map { 100 + Int64($0) * 7_200 })
    #expect(placed.map(\.beatInBar) == [1, 2, 3, 4, 5, 6, 7, 1])
  }

  /// 97.5 BPM: 29 538.46… frames a beat, each beat rounded from the anchor, never from the one before.
  @Test func roundingNeverAccumulates() throws {
    let steady = try source(97.5)
    #expect(steady.frame(ofBeat: 1_000) == Int64((1_000 * 48_000 * 60 / 97.5).rounded()))
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
}
