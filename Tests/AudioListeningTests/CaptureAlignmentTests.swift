import AudioListening
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct CaptureAlignmentTests {
  @Test func theInputsFramesArePlacedWhereTheOutputsWereHeardThen() {
    // The input's frame 0 was taken in 10 ms after the output's frame 0 was heard: at 48 kHz it
    // heard the output's frame 480.
    var alignment = CaptureAlignment(sampleRate: .standard)
    alignment.update(inputFrameZeroMicros: nil, outputFrameZeroMicros: 5_000)
    #expect(alignment.offset == nil)
    alignment.update(inputFrameZeroMicros: 15_000, outputFrameZeroMicros: 5_000)
    #expect(alignment.offset == 480)
  }

  @Test func itKeepsItsPlaceWithinHalfAMillisecondAndMovesBeyond() {
    var alignment = CaptureAlignment(sampleRate: .standard)
    alignment.update(inputFrameZeroMicros: 15_000, outputFrameZeroMicros: 5_000)
    alignment.update(inputFrameZeroMicros: 15_490, outputFrameZeroMicros: 5_000)
    #expect(alignment.offset == 480)
    alignment.update(inputFrameZeroMicros: 15_510, outputFrameZeroMicros: 5_000)
    #expect(alignment.offset == 504)
    alignment.restart()
    #expect(alignment.offset == nil)
  }

  @Test func aReadingYearsAwayIsLetGo() {
    var alignment = CaptureAlignment(sampleRate: .standard)
    alignment.update(inputFrameZeroMicros: 1e30, outputFrameZeroMicros: 0)
    #expect(alignment.offset == nil)
  }

  /// Half a millisecond exactly (24 frames at 48 kHz) is beyond: the place is taken anew.
  @Test func halfAMillisecondExactlyMovesIt() {
    var alignment = CaptureAlignment(sampleRate: .standard)
    alignment.update(inputFrameZeroMicros: 0, outputFrameZeroMicros: 0)
    alignment.update(inputFrameZeroMicros: 500, outputFrameZeroMicros: 0)
    #expect(alignment.offset == 24)
  }

  /// A reading whose frames would not be exact in a Double (2^52 frames and more, some three
  /// thousand years at 48 kHz) is let go; one just under is taken.
  @Test func aReadingBeyondWhatADoubleCountsExactlyIsLetGo() throws {
    let microsPerFrame = 1e6 / 48_000
    var alignment = CaptureAlignment(sampleRate: .standard)
    alignment.update(inputFrameZeroMicros: 0x1.8p52 * microsPerFrame, outputFrameZeroMicros: 0)
    #expect(alignment.offset == nil)
    alignment.update(inputFrameZeroMicros: 0x1p51 * microsPerFrame, outputFrameZeroMicros: 0)
    #expect(alignment.offset.map { abs($0 - (1 << 51)) <= 1 } == true)
    // 2^52 frames exactly: at 32 kHz, 125 × 2^50 µs, which the arithmetic keeps exact.
    var exactly = try CaptureAlignment(sampleRate: SampleRate(32_000))
    exactly.update(inputFrameZeroMicros: 125 * 0x1p50, outputFrameZeroMicros: 0)
    #expect(exactly.offset == nil)
  }
}
