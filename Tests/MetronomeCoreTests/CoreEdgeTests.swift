import Foundation
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

/// More of Core's values at their edges: patterns and meters at their sizes' ends, tempos as
/// they are written, taps, trainers, swing, rates, conversions.
@Suite(.timeLimit(.minutes(1)))
struct CoreValueEdgeTests {
  /// A pattern of up to 64 beats, a meter of 1 to 64 beats over 1 to 64.
  @Test func patternsAndMetersAtTheirSizesEnds() throws {
    #expect(try AccentPattern(parsing: String(repeating: "x", count: 64)).levels.count == 64)
    #expect(throws: (any Error).self) { try AccentPattern(parsing: String(repeating: "x", count: 65)) }
    #expect(try AccentPattern(levels: Array(repeating: .normal, count: 64)).levels.count == 64)
    #expect(throws: (any Error).self) { try AccentPattern(levels: Array(repeating: .normal, count: 65)) }
    #expect(try Meter(1, 4).numerator == 1 && Meter(4, 1, cap: .widest).denominator == 1)
    #expect(throws: MeterError.self) { try Meter(0, 4) }
  }

  /// A tempo is written with at most two decimals, no trailing zeros and its sign once; a value
  /// too large to round is written as it is.
  @Test func aTempoIsWrittenAsAMusicianReadsIt() {
    #expect(Tempo.format(120) == "120" && Tempo.format(97.5) == "97.5" && Tempo.format(97.25) == "97.25")
    #expect(Tempo.format(-5.25) == "-5.25" && Tempo.format(-0.001) == "0" && Tempo.format(0) == "0")
    #expect(Tempo.format(-0.5) == "-0.5")
    #expect(Tempo.format(999_999_999_999) == "999999999999")
    #expect(Tempo.format(1e12) == "\(1e12)" && Tempo.format(-1e12) == "\(-1e12)")
  }

  /// Taps 2 s apart still measure (30 BPM in 4/4), a pause longer starts anew, a tap at the
  /// same time or earlier too; at most the set number of intervals is averaged, at least one.
  @Test func tapsMeasureUpToTheirPause() {
    var taps = TapTempo()
    #expect(taps.tap(atSeconds: 0, denominator: 4) == nil)
    #expect(taps.tap(atSeconds: 2, denominator: 4)?.bpm == 30)
    #expect(taps.tap(atSeconds: 2, denominator: 4) == nil)
    #expect(taps.tap(atSeconds: 4.001, denominator: 4) == nil)
    var one = TapTempo(maxIntervals: 0)
    for seconds in [0, 0.5, 1.0] { _ = one.tap(atSeconds: seconds, denominator: 4) }
    #expect(one.tap(atSeconds: 2.0, denominator: 4)?.bpm == 60)
  }

  /// A trainer off changes nothing; one going up stops at its limit, one going down at its.
  @Test func aTrainerStopsAtItsLimitEitherWay() {
    #expect(SpeedTrainer.off == SpeedTrainer(increment: 0, start: 0, limit: 0) && !SpeedTrainer.off.isOn)
    #expect(SpeedTrainer(increment: 40, start: 0, limit: 125).tempo(after: 120, beats: 4, chosen: 120) == 125)
    #expect(SpeedTrainer(increment: -40, start: 0, limit: 115).tempo(after: 120, beats: 4, chosen: 120) == 115)
    #expect(SpeedTrainer(increment: 8, start: 0, limit: 0).tempo(after: 120, beats: 4, chosen: 120) == 122)
  }

  /// 66.7 % (and anything within 0.05 of two thirds) is the triplet feel; further is itself.
  @Test func theTripletFeelIsTwoThirds() throws {
    #expect(Subdivision.swing(percent: 66.7) == 2.0 / 3 && Subdivision.swing(percent: 66.62) == 2.0 / 3)
    #expect(Subdivision.swing(percent: 66.75) == 0.6675 && Subdivision.swing(percent: 60) == 0.6)
    #expect(try Subdivision(2, swing: 2.0 / 3).description == "2 swung 66.67 %")
    #expect(try Subdivision(3).description == "3")
    // Straight, each click its share of the beat; swung, every second one later.
    #expect(Subdivision.offset(ofClick: 1, of: 2, swing: 0.5, length: 24_000) == 12_000)
    #expect(Subdivision.offset(ofClick: 1, of: 2, swing: 0.75, length: 24_000) == 18_000)
    #expect(Subdivision.offset(ofClick: 3, of: 4, swing: 0.75, length: 24_000) == 21_000)
  }

  /// Rates from 8 kHz to 192 kHz that the clock's ticks divide: 128 kHz does not.
  @Test func ratesAreThoseTheClockDivides() throws {
    #expect(try SampleRate(192_000).hz == 192_000 && SampleRate(44_100).hz == 44_100)
    for refused in [384_000, 128_000, 7_999] {
      #expect(throws: SampleRateError.self, "\(refused)") { try SampleRate(refused) }
    }
  }

  /// A Double past Int64's range is clamped to it, the first one past included.
  @Test func aConversionClampsAtTheRangesFirstValuePast() {
    #expect(Int64(clamping: 9_223_372_036_854_775_808.0) == .max)
    #expect(Int64(clamping: -9_223_372_036_854_775_808.0) == .min)
    #expect(Int64(clamping: -9_223_372_036_854_775_808.0 * 2) == .min)
    #expect(Int64(clamping: 9_223_372_036_854_774_784.0) == 9_223_372_036_854_774_784)
  }

  /// A tempo is written with its sign where it has one to two decimals: -0.01 is "-0.01", 0.5
  /// has none.
  @Test func aTempoIsWrittenWithItsSignToTheHundredth() {
    #expect(Tempo.format(-0.01) == "-0.01" && Tempo.format(0.5) == "0.5" && Tempo.format(-0.004) == "0")
  }

  /// A cap allows at least one beat, and over a whole note (x/1) only what it allows: one beat
  /// without more asked for, whatever meter was written over another denominator.
  @Test func aCapOverAWholeNoteAllowsOneBeatUnlessAskedForMore() throws {
    #expect(NumeratorCap.denominator.maxNumerator(denominator: 1) == 1)
    #expect(NumeratorCap(atLeast: 0).maxNumerator(denominator: 1) == 1)
    #expect(NumeratorCap(atLeast: 1).maxNumerator(denominator: 1) == 1)
    #expect(NumeratorCap(atLeast: nil, written: try Meter(3, 4)).maxNumerator(denominator: 1) == 1)
    #expect(NumeratorCap(atLeast: nil, written: try Meter(3, 1, cap: .widest)).maxNumerator(denominator: 1) == 3)
  }

  /// Unity gains leave every click as its sound has it; the loudest factor is 24 dB up.
  @Test func unityGainsAndTheLoudest() {
    for level in [AccentLevel.strong, .normal, .weak] { #expect(ClickGains.unity.gain(for: level) == 1) }
    #expect(ClickGains.unity.overall == 1)
    #expect((20 * log10(ClickGains.loudest)).rounded() == 24)
  }

  /// klick's speed trainer stops at its limit however small each bar's step, up or down.
  @Test func aSpeedTrainerStopsAtItsLimitHoweverSmallItsStep() {
    #expect(SpeedTrainer(increment: 0.5, start: 0, limit: 121).tempo(after: 120.9, beats: 1, chosen: 100) == 121)
    #expect(SpeedTrainer(increment: -0.5, start: 0, limit: 99).tempo(after: 99.1, beats: 1, chosen: 100) == 99)
  }

  /// A subdivision's click carries its beat's clicks; a second voice's click is one of its own.
  @Test func aClickCarriesItsBeatsClicksUnlessOfTheSecondVoice() {
    let divided = Beat(
      count: 0, bar: 1, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: 0, sampleRate: .standard, clicks: 3)
    #expect(divided.click(at: 8_000, level: .weak, subdivision: 1).clicks == 3)
    #expect(divided.click(at: 8_000, level: .weak, voice: .polyrhythm(click: 1, of: 3)).clicks == 1)
  }

  /// A second voice plays 1 to 64 clicks a bar.
  @Test func aSecondVoicePlaysOneToSixtyFourClicks() {
    #expect(Rhythm.polyrhythmCounts == 1...64)
  }

  /// A playhead puts the map's beat 0 on its start frame, and each beat after at its tempo.
  @Test func aPlayheadStartsTheMapOnItsFrame() {
    let map = TempoMap(sections: [TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(120))])
    let playhead = MapPlayhead(map: map, multiplier: 1, startFrame: 1_000, sampleRate: .standard)
    #expect(playhead.frame(ofBeat: 0) == 1_000 && playhead.frame(ofBeat: 3) == 73_000)
  }
}
