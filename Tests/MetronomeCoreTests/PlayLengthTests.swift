import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PlayLengthTests {
  @Test func lengthsLastWhatTheirTempoAndMeterSay() throws {
    let sevenEight = try Meter(7, 8)
    let tempo = try Tempo(bpm: 200)
    #expect(PlayLength.beats(10).seconds(tempo: tempo, meter: sevenEight) == 1.5)
    #expect(PlayLength.bars(2).seconds(tempo: tempo, meter: sevenEight) == 2.1)
    #expect(PlayLength.seconds(7).seconds(tempo: tempo, meter: sevenEight) == 7)
  }

  @Test func lengthsPastTheLongestRunAreRefusedWithTheOptionNamed() throws {
    let slowest = try Tempo(bpm: 1)
    #expect(throws: PlayLengthError(length: .beats(.max))) {
      try PlayLength.beats(.max).checkFits(tempo: .standard, meter: .fourFour)
    }
    #expect(throws: PlayLengthError(length: .bars(.max))) {
      try PlayLength.bars(.max).checkFits(tempo: slowest, meter: .fourFour)
    }
    #expect(throws: PlayLengthError(length: .seconds(1e15))) {
      try PlayLength.seconds(1e15).checkFits(tempo: .standard, meter: .fourFour)
    }
    try PlayLength.seconds(PlayLength.longestSeconds).checkFits(tempo: .standard, meter: .fourFour)
    #expect(
      PlayLengthError(length: .seconds(1e15)).description
        == "--duration 1000000000000000.0 lasts longer than the longest run, 100000000 seconds (about three years):"
        + " ask for less")
  }

  @Test func clampingConversionNeverTraps() {
    #expect(Int64(clamping: 1e300) == .max)
    #expect(Int64(clamping: -1e300) == .min)
    #expect(Int64(clamping: .infinity) == .max)
    #expect(Int64(clamping: .nan) == 0)
    #expect(Int64(clamping: 2.5) == 3)
    #expect(Int64(clamping: -9_223_372_036_854_775_808.0) == .min)
  }

  @Test func aLengthInSecondsEndsOnItsFrame() throws {
    #expect(PlayLength.seconds(1.5).endFrame(at: .standard) == 72_000)
    #expect(PlayLength.beats(3).endFrame(at: .standard) == nil)
  }
}
