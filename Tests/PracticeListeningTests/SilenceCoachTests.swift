import MetronomeCore
import PracticeListening
import Testing

/// The click earned away: a quarter quieter for each bar on time, silent after four, back whole
/// on a miss.
@Suite(.timeLimit(.minutes(1)))
struct SilenceCoachTests {
  /// Beat `n` of 4/4 at 120: 24 000 frames apart.
  private func beat(_ n: Int, countIn: Bool = false, subdivision: Int = 0) -> Beat {
    Beat(
      count: n, bar: n / 4 + 1, beatInBar: n % 4 + 1, meter: .fourFour, tempo: .standard, frame: Int64(n) * 24_000,
      sampleRate: .standard, subdivision: subdivision, isCountIn: countIn)
  }

  /// Plays bar `bar` hitting each beat at the offset given (nil: not hit); returns the level the
  /// next bar plays at, and whether a hit brought the click back at once.
  private func bar(_ coach: inout SilenceCoach, _ bar: Int, _ offsets: [Int64?]) -> (level: Double, back: Bool) {
    var back = false
    for (index, offset) in offsets.enumerated() {
      let beat = beat(bar * 4 + index)
      let ends = coach.heard(beat)
      #expect(ends == (index == 3))
      if let offset { back = coach.played(Hit(frame: beat.frame + offset, note: 38, velocity: 90)) || back }
    }
    return (coach.decide(), back)
  }

  @Test func eachBarOnTimeTakesAQuarterOffTheClickUntilItIsSilent() {
    var coach = SilenceCoach(tolerance: 20)
    #expect(coach.level == 1)
    let onTime: [Int64?] = [0, 960, -960, 5]
    var levels: [Double] = []
    for index in 0..<6 { levels.append(bar(&coach, index, onTime).level) }
    #expect(levels == [0.75, 0.5, 0.25, 0, 0, 0])
    #expect(coach.steadyBars == SilenceCoach.barsToSilence)
  }

  /// A beat not hit, or a hit a frame past the tolerance, keeps the next bar whole; a hit that
  /// misses both the beat heard last and the next one brings the click back at once, but only
  /// once it has begun to fade.
  @Test func aMissBringsTheClickBack() {
    var coach = SilenceCoach(tolerance: 20)
    let verdict1 = bar(&coach, 0, [0, 0, 961, 0])
    #expect(verdict1 == (1, false))
    let verdict2 = bar(&coach, 1, [0, 0, nil, 0])
    #expect(verdict2 == (1, false))
    let verdict3 = bar(&coach, 2, [0, 0, 0, 0])
    #expect(verdict3 == (0.75, false))
    // 12 000 frames after a beat (250 ms) misses it and the next.
    let verdict4 = bar(&coach, 3, [0, 12_000, 0, 0])
    #expect(verdict4 == (1, true))
    let verdict5 = bar(&coach, 4, [0, 0, 0, 0])
    #expect(verdict5.level == 0.75)
    // Early for the next beat within the tolerance, before that beat is heard, is no miss: it is
    // that beat's.
    for index in 20..<23 {
      _ = coach.heard(beat(index))
      _ = coach.played(Hit(frame: beat(index).frame, note: 38, velocity: 90))
    }
    let early = coach.played(Hit(frame: beat(23).frame - 500, note: 38, velocity: 90))
    _ = coach.heard(beat(23))
    #expect(!early && coach.decide() == 0.5)
  }

  /// The count-in and the clicks between the beats are no beats of a bar.
  @Test func onlyTheBarsOwnBeatsCount() {
    var coach = SilenceCoach(tolerance: 20)
    let countIn = coach.heard(beat(3, countIn: true))
    let subdivision = coach.heard(beat(3, subdivision: 1))
    #expect(!countIn && !subdivision)
    #expect(coach.decide() == 1)
  }

  @Test func theDisplaySaysHowMuchIsEarnedAway() {
    var coach = SilenceCoach(tolerance: 20)
    #expect(coach.displayLine == "the click earned away: not yet (every beat of a bar on time quietens the next)")
    _ = bar(&coach, 0, [0, 0, 0, 0])
    _ = bar(&coach, 1, [0, 0, 0, 0])
    #expect(coach.displayLine == "the click earned away: 50% loud after 2 bars on time")
    _ = bar(&coach, 2, [0, 0, 0, 0])
    _ = bar(&coach, 3, [0, 0, 0, 0])
    #expect(coach.displayLine == "the click earned away: 0% loud after 4 bars on time")
  }

  /// A hit that misses silences nothing more: the click is whole at once, before the bar ends;
  /// one exactly at the tolerance from the beat heard last is no miss; at another rate the
  /// tolerance is that rate's frames.
  @Test func aMissIsWholeAtOnceAndTheToleranceIsInTheBeatsFrames() throws {
    var coach = SilenceCoach(tolerance: 20)
    _ = bar(&coach, 0, [0, 0, 0, 0])
    _ = coach.heard(beat(4))
    // Exactly a tolerance before where the next beat falls is that beat's, and no miss.
    let early = coach.played(Hit(frame: beat(5).frame - 960, note: 38, velocity: 90))
    #expect(!early)
    let within = coach.played(Hit(frame: beat(4).frame + 960, note: 38, velocity: 90))
    let missed = coach.played(Hit(frame: beat(4).frame + 961 + 12_000, note: 38, velocity: 90))
    #expect(!within && missed)
    #expect(coach.level == 1 && coach.steadyBars == 0)
    var slower = SilenceCoach(tolerance: 20)
    let rate = try SampleRate(44_100)
    for index in 0..<4 {
      let beat = Beat(
        count: index, bar: 1, beatInBar: index + 1, meter: .fourFour, tempo: .standard, frame: Int64(index) * 22_050,
        sampleRate: rate)
      _ = slower.heard(beat)
      _ = slower.played(Hit(frame: beat.frame + 900, note: 38, velocity: 90))
    }
    // 900 frames is 20.4 ms at 44.1 kHz: outside.
    #expect(slower.decide() == 1)
  }

  /// A hit at the bar's edge, a tolerance before its first beat or after its last, is the bar's;
  /// the next bar's first beat's, played early before this verdict, is not, and counts for it.
  @Test func theBarsHitsAreItsOwn() {
    var coach = SilenceCoach(tolerance: 20)
    for index in 0..<4 {
      _ = coach.heard(beat(index))
      _ = coach.played(
        Hit(frame: beat(index).frame + (index == 0 ? -960 : index == 3 ? 960 : 0), note: 38, velocity: 90))
    }
    _ = coach.played(Hit(frame: beat(4).frame - 500, note: 38, velocity: 90))
    #expect(coach.decide() == 0.75)
    for index in 4..<8 {
      _ = coach.heard(beat(index))
      if index > 4 { _ = coach.played(Hit(frame: beat(index).frame, note: 38, velocity: 90)) }
    }
    #expect(coach.decide() == 0.5)
  }
}
