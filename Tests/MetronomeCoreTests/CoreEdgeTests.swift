import MetronomeCore
import Testing

/// Small promises of Core's values, each at its edge.
@Suite(.timeLimit(.minutes(1)))
struct CoreEdgeTests {
  private func beat(count: Int = 0, bar: Int = 1, frame: Int64 = 0, level: AccentLevel = .normal) -> Beat {
    Beat(
      count: count, bar: bar, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: frame, sampleRate: .standard,
      level: level)
  }

  /// A run of N beats holds beats 0 to N-1; of N bars, bars up to N; of S seconds, the beats
  /// before S: the first one at the end is outside.
  @Test func aLengthHoldsWhatComesBeforeItsEnd() {
    #expect(PlayLength.beats(4).contains(beat(count: 3)) && !PlayLength.beats(4).contains(beat(count: 4)))
    #expect(PlayLength.bars(2).contains(beat(bar: 2)) && !PlayLength.bars(2).contains(beat(bar: 3)))
    #expect(PlayLength.seconds(1).contains(beat(frame: 47_999)) && !PlayLength.seconds(1).contains(beat(frame: 48_000)))
  }

  /// A beat's time is its frame at its rate; an accent is a strong beat.
  @Test func aBeatsTimeAndAccent() {
    #expect(beat(frame: 72_000).seconds == 1.5)
    #expect(beat(level: .strong).isAccent && !beat(level: .normal).isAccent)
  }

  /// A beat of a meter holds 4 / its denominator quarters, a bar its numerator's worth.
  @Test func quartersInABeatAndABar() throws {
    #expect(try Meter(6, 8).quartersPerBeat == 0.5 && Meter(6, 8).quartersPerBar == 3)
    #expect(try Meter(3, 2, cap: .widest).quartersPerBeat == 2 && Meter(3, 2, cap: .widest).quartersPerBar == 6)
    #expect(Meter.fourFour.quartersPerBar == 4)
  }

  /// A count-in of beats is from 1 to 256; of bars from 0 to 64.
  @Test func aCountInsRangesEnds() throws {
    #expect(try CountIn(parsing: "1b") == .beats(1) && CountIn(parsing: "256b") == .beats(256))
    #expect(try CountIn(parsing: "0") == .bars(0) && CountIn(parsing: "64") == .bars(64))
    for bad in ["0b", "257b", "65", "-1", "b", "1bb"] {
      #expect(throws: CountInError.self) { try CountIn(parsing: bad) }
    }
  }

  /// Tempos order by their BPM, an equal one not before the other.
  @Test func temposOrderByTheirBPM() throws {
    #expect(try Tempo(bpm: 90) < Tempo(bpm: 91))
    #expect(try !(Tempo(bpm: 90) < Tempo(bpm: 90)))
  }
}
