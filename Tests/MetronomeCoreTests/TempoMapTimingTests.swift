import Foundation
import MetronomeCore
import PropertyBased
import Testing

/// When each beat of a map falls, stated as a musician would and checked over many maps: a beat
/// of a steady section lasts a beat at its tempo, a ramp's tempo moves evenly beat by beat,
/// sections follow one another, a map that loops repeats itself exactly.
@Suite(.timeLimit(.minutes(1)))
struct TempoMapTimingTests {
  private static let denominators = [1, 2, 4, 8, 16]

  /// A position as its section and its beat in it.
  private func place(_ position: TempoMap.Position?) -> [Int]? { position.map { [$0.section, $0.beatInSection] } }

  /// A steady section's beat `k` is `k` beats of its denominator at its tempo in quarter notes a
  /// minute: at 120, a quarter is half a second and an eighth a quarter of one.
  @Test func aSteadySectionsBeatsLastABeatAtItsTempo() async {
    await propertyCheck(input: Gen.double(in: 20...400), Gen.int(in: 0...4), Gen.int(in: 0...64)) { bpm, which, k in
      let denominator = Self.denominators[which]
      let section = TempoMap.Section(bars: 8, meter: try Meter(4, denominator), tempo: .steady(bpm))
      let beat = 60 / bpm * 4 / Double(denominator)
      #expect(abs(section.seconds(toBeat: k) - Double(k) * beat) < 1e-9)
      #expect(section.bpm(ofBeat: k) == bpm)
    }
  }

  /// A ramp's tempo moves evenly from its first at beat 0 to its second at the beat after its
  /// last: each beat's time is the integral of a beat's length over a tempo that changes evenly,
  /// here summed in thousandths of a beat.
  @Test func aRampsTempoMovesEvenlyBeatByBeat() async {
    await propertyCheck(input: Gen.double(in: 30...300), Gen.double(in: 30...300), Gen.int(in: 1...6)) {
      first, last, bars in
      let section = TempoMap.Section(bars: bars, meter: .fourFour, tempo: .ramp(from: first, to: last))
      let beats = bars * 4
      var integrated = 0.0
      for k in 0...beats {
        #expect(abs(section.seconds(toBeat: k) - integrated) < 1e-6 * max(integrated, 1), "beat \(k)")
        #expect(abs(section.bpm(ofBeat: k) - (first + (last - first) * Double(k) / Double(beats))) < 1e-9)
        for step in 0..<1_000 {
          let position = Double(k) + (Double(step) + 0.5) / 1_000
          integrated += 60 / (first + (last - first) * position / Double(beats)) / 1_000
        }
      }
      #expect(section.bpm(ofBeat: 0) == first)
      #expect(abs(section.bpm(ofBeat: beats) - last) < 1e-9)
    }
  }

  /// A ramp of a single beat (a bar of 1/4) still ramps: its one beat lasts the integral from
  /// its first tempo to its second, which is the tempo of the beat after it.
  @Test func aRampOfOneBeatStillRamps() throws {
    let section = TempoMap.Section(bars: 1, meter: try Meter(1, 4), tempo: .ramp(from: 100, to: 200))
    #expect(abs(section.seconds(toBeat: 1) - 60.0 / 100 * log(2.0)) < 1e-12)
    #expect(section.bpm(ofBeat: 0) == 100 && section.bpm(ofBeat: 1) == 200)
  }

  /// A ramp that does not change, or has no end, plays steadily at its first tempo.
  @Test func aRampThatDoesNotChangeIsSteady() {
    for section in [
      TempoMap.Section(bars: 4, meter: .fourFour, tempo: .ramp(from: 90, to: 90)),
      TempoMap.Section(bars: nil, meter: .fourFour, tempo: .ramp(from: 90, to: 150)),
      TempoMap.Section(bars: 0, meter: .fourFour, tempo: .ramp(from: 90, to: 150)),
    ] {
      #expect(abs(section.seconds(toBeat: 6) - 4) < 1e-12)
      #expect(section.bpm(ofBeat: 6) == 90)
    }
  }

  /// A tempo per beat: each beat lasts a beat at its own tempo, the last tempo holding after.
  @Test func aTempoPerBeatTimesEachBeatByItsOwn() throws {
    let section = TempoMap.Section(bars: 1, meter: try Meter(3, 8), tempo: .perBeat([60, 120, 240]))
    #expect(section.seconds(toBeat: 0) == 0)
    #expect(abs(section.seconds(toBeat: 3) - (0.5 + 0.25 + 0.125)) < 1e-12)
    #expect([0, 1, 2, 3, 9].map { section.bpm(ofBeat: $0) } == [60, 120, 240, 240, 240])
    let map = TempoMap(sections: [TempoMap.Section(bars: 1, meter: .fourFour, tempo: .steady(60)), section])
    #expect(abs(map.seconds(toBeat: 6) - (4 + 0.5 + 0.25)) < 1e-12)
  }

  /// Sections follow one another: every beat of a map is found in its section, the first beat
  /// of each section and of each bar where the sections put them, the time to a beat the sum of
  /// the sections before and the time into its own; nothing before the first beat or after the
  /// last.
  @Test func sectionsFollowOneAnother() async {
    let sizes = Gen.int(in: 1...4).array(of: 1...4)
    await propertyCheck(input: sizes, Gen.int(in: 2...7), Gen.double(in: 40...240)) { bars, numerator, bpm in
      let sections = try bars.enumerated().map { index, bars in
        TempoMap.Section(
          bars: bars, meter: try Meter(index.isMultiple(of: 2) ? numerator : 3, 4, cap: .widest),
          tempo: .steady(bpm + Double(index) * 10))
      }
      let map = TempoMap(sections: sections)
      var beat = 0
      var seconds = 0.0
      var bar = 1
      for (index, section) in sections.enumerated() {
        #expect(map.firstBeat(ofSection: index) == beat)
        for k in 0..<(section.beats ?? 0) {
          #expect(place(map.position(ofBeat: beat + k)) == [index, k])
          #expect(abs(map.seconds(toBeat: beat + k) - (seconds + section.seconds(toBeat: k))) < 1e-9)
          if k.isMultiple(of: section.meter.numerator) {
            #expect(map.firstBeat(ofBar: bar) == beat + k, "bar \(bar)")
            bar += 1
          }
        }
        beat += section.beats ?? 0
        seconds += section.seconds(toBeat: section.beats ?? 0)
      }
      #expect(map.firstBeat(ofSection: sections.count) == beat)
      #expect(map.beatCount == beat && map.barCount == bar - 1)
      #expect(abs(map.duration - seconds) < 1e-9)
      #expect(abs(map.seconds(toBeat: beat) - seconds) < 1e-9)
      #expect(map.position(ofBeat: beat) == nil && map.position(ofBeat: -1) == nil)
      #expect(map.firstBeat(ofBar: 0) == nil && map.firstBeat(ofBar: bar) == nil)
    }
  }

  /// A map that loops repeats itself exactly, pass after pass, and never ends; one whose last
  /// section plays for ever has no count of beats and lasts for ever.
  @Test func aLoopingMapRepeatsItselfExactly() async {
    await propertyCheck(input: Gen.int(in: 1...3), Gen.int(in: 1...3), Gen.int(in: 0...40)) { first, second, n in
      let sections = [
        TempoMap.Section(bars: first, meter: .fourFour, tempo: .steady(100)),
        TempoMap.Section(bars: second, meter: try Meter(3, 4), tempo: .ramp(from: 100, to: 140)),
      ]
      let once = TempoMap(sections: sections)
      let looping = TempoMap(sections: sections, loops: true)
      let lap = try #require(once.beatCount)
      #expect(looping.beatCount == nil && looping.duration == .infinity && looping.barCount == first + second)
      for pass in 0..<3 {
        #expect(looping.position(ofBeat: pass * lap + n % lap) == once.position(ofBeat: n % lap))
        #expect(
          abs(
            looping.seconds(toBeat: pass * lap + n % lap)
              - (Double(pass) * once.duration + once.seconds(toBeat: n % lap)))
            < 1e-9)
      }
    }
    let endless = TempoMap(sections: [
      TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(120)),
      TempoMap.Section(bars: nil, meter: .fourFour, tempo: .steady(60)),
    ])
    #expect(endless.beatCount == nil && endless.barCount == nil && endless.duration == .infinity)
    #expect(abs(endless.seconds(toBeat: 10) - 6) < 1e-12)
    #expect(place(endless.position(ofBeat: 1_000)) == [1, 992])
  }

  /// A map started at a label plays from that section on, with its count-in; an unknown label
  /// is none.
  @Test func aMapStartsAtItsLabel() throws {
    let map = TempoMap(
      sections: ["intro", "verse", "chorus"].enumerated().map { index, label in
        TempoMap.Section(label: label, bars: index + 1, meter: .fourFour, tempo: .steady(100 + Double(index)))
      }, countIn: .bars(1))
    let verse = try #require(map.starting(at: "verse"))
    #expect(verse.sections.map(\.label) == ["verse", "chorus"])
    #expect(verse.countIn == map.countIn)
    #expect(map.starting(at: "bridge") == nil)
  }

  /// A step trainer from its start to its target, each step for its length, the target held; a
  /// length in seconds is the whole number of bars nearest it at that step's tempo, at least one.
  @Test func aStepTrainerStepsToItsTarget() throws {
    let up = try #require(
      TempoMap.stepTrainer(
        from: 100, to: 112, step: 5, every: .bars(2), meter: .fourFour, pattern: nil, loops: false))
    #expect(up.sections.map(\.tempo) == [.steady(100), .steady(105), .steady(110), .steady(112)])
    #expect(up.sections.map(\.bars) == [2, 2, 2, nil])
    let timed = try #require(
      TempoMap.stepTrainer(
        from: 120, to: 60, step: -60, every: .seconds(5), meter: try Meter(6, 8), pattern: nil, loops: true))
    // A bar of 6/8 lasts 1.5 s at 120 and 3 s at 60: 5 s is 3 bars (3.33) and 2 bars (1.67).
    #expect(timed.sections.map(\.bars) == [3, 2])
    let short = try #require(
      TempoMap.stepTrainer(
        from: 60, to: 70, step: 10, every: .seconds(0.1), meter: .fourFour, pattern: nil, loops: true))
    #expect(short.sections.map(\.bars) == [1, 1])
    #expect(
      TempoMap.stepTrainer(from: 100, to: 100, step: 5, every: .bars(1), meter: .fourFour, pattern: nil, loops: false)?
        .sections.map(\.tempo) == [.steady(100)])
    #expect(
      TempoMap.stepTrainer(
        from: 100, to: 100 + Double(TempoMap.mostSteps), step: 1, every: .bars(1), meter: .fourFour, pattern: nil,
        loops: false) == nil)
    #expect(
      TempoMap.stepTrainer(
        from: 100, to: 100 + Double(TempoMap.mostSteps - 1), step: 1, every: .bars(1), meter: .fourFour, pattern: nil,
        loops: false)?.sections.count == TempoMap.mostSteps)
  }
}
