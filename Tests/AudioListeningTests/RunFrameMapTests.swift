import AudioListening
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct RunFrameMapTests {
  private let rate = SampleRate.standard

  /// Notes writes of 256 frames from stream frame `from` up to `to`, each playing the run's frame
  /// `shift` later, sounding where `sounds` says.
  private func write(
    _ map: RunFrameMap, from: Int64, to: Int64, shift: Int64, sounds: (Int64) -> Bool = { _ in false },
    ranDryAt: Int64? = nil, bufferFrames: Int = 2_048
  ) {
    for frame in stride(from: from, to: to, by: 256) {
      map.note(
        streamFrame: frame, frames: 256, plays: frame + shift, sounds: sounds(frame), ranDryAt: ranDryAt,
        bufferFrames: bufferFrames)
    }
  }

  @Test func theRunsFramesAreTheStreamsUntilAMoveAndMovedFromItsFrameOn() {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 10_240, shift: 0)
    #expect(map.runFrame(ofStreamFrame: 5_000) == 5_000)
    write(map, from: 10_240, to: 20_480, shift: 1_024)
    #expect(map.runFrame(ofStreamFrame: 10_239) == 10_239)
    #expect(map.runFrame(ofStreamFrame: 10_240) == 11_264)
    // A second move, the other way (the device cut the stream): from its own frame on.
    write(map, from: 20_480, to: 30_720, shift: 512)
    #expect(map.runFrame(ofStreamFrame: 20_479) == 21_503)
    #expect(map.runFrame(ofStreamFrame: 20_480) == 20_992)
    #expect(map.runFrame(ofStreamFrame: 5_000) == 5_000)
  }

  /// An underrun at 10,240 with a click written from 11,008 on, the move found at 15,360 with
  /// 1,024 frames lost: the run's frames glitched from the click's to where the move put 15,360.
  @Test func anUnderrunGlitchesFromTheFirstSoundAfterItToWhereTheMovePutTheStream() {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 10_240, shift: 0, sounds: { _ in true })
    write(map, from: 10_240, to: 15_360, shift: 0, sounds: { $0 >= 11_008 }, ranDryAt: 10_240)
    // Before the move is known every frame from the sound on may have glitched, however far.
    #expect(!map.glitched(runFrame: 11_007))
    #expect(map.glitched(runFrame: 11_008))
    #expect(map.glitched(runFrame: 1_000_000))
    write(map, from: 15_360, to: 20_480, shift: 1_024, sounds: { _ in true }, ranDryAt: 10_240)
    #expect(!map.glitched(runFrame: 11_007))
    #expect(map.glitched(runFrame: 11_008))
    #expect(map.glitched(runFrame: 16_383))
    #expect(!map.glitched(runFrame: 16_384))
    #expect(!map.glitched(runFrame: 1_000_000))
  }

  /// The device says it ran dry only to the write that finds it, noted before: a click's tail
  /// written there from 10,240 (or from 10,300, the write's first 60 frames taken in time) played
  /// late from where the stream ran dry, and glitched from there.
  @Test(arguments: [10_240, 10_300] as [Int64])
  func theWriteThatFoundTheStreamDryGlitchesFromWhereItRanDry(ranDryAt: Int64) {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 10_496, shift: 0, sounds: { $0 >= 9_728 })
    write(map, from: 10_496, to: 12_288, shift: 0, ranDryAt: ranDryAt)
    #expect(!map.glitched(runFrame: ranDryAt - 1))
    #expect(map.glitched(runFrame: ranDryAt))
    write(map, from: 12_288, to: 14_336, shift: 1_024, ranDryAt: ranDryAt)
    #expect(map.glitched(runFrame: 13_311))
    #expect(!map.glitched(runFrame: 13_312))
    // Silent, that write played nothing late: the glitch waits for the first sound after it.
    let silent = RunFrameMap(sampleRate: rate)
    write(silent, from: 0, to: 10_496, shift: 0, sounds: { $0 < 10_240 })
    write(silent, from: 10_496, to: 12_288, shift: 0, sounds: { $0 >= 11_008 }, ranDryAt: ranDryAt)
    #expect(!silent.glitched(runFrame: 11_007))
    #expect(silent.glitched(runFrame: 11_008))
  }

  /// What an underrun delayed was silence up to the move: nothing glitched, before it or after.
  @Test func anUnderrunThatDelayedOnlySilenceGlitchesNothing() {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 10_240, shift: 0, sounds: { _ in true })
    write(map, from: 10_240, to: 15_360, shift: 0, ranDryAt: 10_240)
    #expect(!map.glitched(runFrame: 12_000))
    write(map, from: 15_360, to: 20_480, shift: 1_024, sounds: { _ in true }, ranDryAt: 10_240)
    #expect((0..<40).allSatisfy { !map.glitched(runFrame: Int64($0) * 512) })
    #expect(map.runFrame(ofStreamFrame: 15_360) == 16_384)
  }

  /// A second underrun before the move makes the first glitch longer, not a new one from it.
  @Test func aSecondUnderrunBeforeTheMoveKeepsWhereTheGlitchBegan() {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 12_288, shift: 0, sounds: { $0 >= 10_240 }, ranDryAt: 10_240)
    write(map, from: 12_288, to: 15_360, shift: 0, sounds: { _ in true }, ranDryAt: 12_288)
    write(map, from: 15_360, to: 16_384, shift: 2_048, sounds: { _ in true }, ranDryAt: 12_288)
    #expect(!map.glitched(runFrame: 10_239))
    #expect(map.glitched(runFrame: 10_240))
    #expect(map.glitched(runFrame: 17_407))
    #expect(!map.glitched(runFrame: 17_408))
  }

  /// An underrun whose loss is never found is given up on more than a second past where it ran
  /// dry: the glitch ends at the frame the stream had reached, and the next underrun opens one of
  /// its own.
  @Test func anUnderrunWhoseLossIsNeverFoundEndsASecondOn() {
    let map = RunFrameMap(sampleRate: rate)
    write(map, from: 0, to: 10_240, shift: 0, sounds: { _ in true })
    write(map, from: 10_240, to: 58_624, shift: 0, sounds: { _ in true }, ranDryAt: 10_368)
    // The write from 58,368, exactly 48,000 frames past 10,368, still waited for the loss.
    #expect(map.glitched(runFrame: 58_624))
    write(map, from: 58_624, to: 60_416, shift: 0, sounds: { _ in true }, ranDryAt: 10_368)
    #expect(map.glitched(runFrame: 10_240))
    #expect(map.glitched(runFrame: 58_623))
    #expect(!map.glitched(runFrame: 58_624))
    #expect(!map.glitched(runFrame: 100_000))
    write(map, from: 60_416, to: 61_440, shift: 0, sounds: { _ in true }, ranDryAt: 60_416)
    #expect(!map.glitched(runFrame: 60_415))
    #expect(map.glitched(runFrame: 100_000))
  }

  /// A move with no underrun since the last glitched as much as the stream held before it; a cut
  /// (the run's frames moved earlier) up to where the stream's frame played before.
  @Test func aMoveWithNoUnderrunGlitchesWhatTheStreamHeldBeforeIt() {
    let lost = RunFrameMap(sampleRate: rate)
    write(lost, from: 0, to: 10_240, shift: 0, sounds: { _ in true })
    write(lost, from: 10_240, to: 12_288, shift: 512, sounds: { _ in true }, bufferFrames: 1_024)
    #expect(!lost.glitched(runFrame: 9_215))
    #expect(lost.glitched(runFrame: 9_216))
    #expect(lost.glitched(runFrame: 10_751))
    #expect(!lost.glitched(runFrame: 10_752))
    let cut = RunFrameMap(sampleRate: rate)
    write(cut, from: 0, to: 10_240, shift: 0, sounds: { _ in true })
    write(cut, from: 10_240, to: 12_288, shift: -512, sounds: { _ in true }, bufferFrames: 1_024)
    #expect(!cut.glitched(runFrame: 9_215))
    #expect(cut.glitched(runFrame: 10_239))
    #expect(!cut.glitched(runFrame: 10_240))
  }

  /// Forty moves: the reader keeps the newest 16 and no more, and the frames before them keep the
  /// shift that held before the first kept (a position read now is never that old).
  @Test func manyMovesKeepTheNewestAndTheShiftBeforeThem() {
    let map = RunFrameMap(sampleRate: rate)
    for move in 0..<40 {
      let frame = Int64(move) * 1_024
      map.note(
        streamFrame: frame, frames: 256, plays: frame + Int64(move), sounds: false, ranDryAt: nil, bufferFrames: 256)
      #expect(map.runFrame(ofStreamFrame: frame) == frame + Int64(move))
    }
    #expect(map.runFrame(ofStreamFrame: 39 * 1_024 + 10) == 39 * 1_024 + 49)
    // Moves 24 to 39 are kept; frames before move 24 keep move 23's shift, move 5's too.
    #expect(map.runFrame(ofStreamFrame: 23 * 1_024 + 10) == 23 * 1_024 + 33)
    #expect(map.runFrame(ofStreamFrame: 5 * 1_024 + 10) == 5 * 1_024 + 33)
  }
}
