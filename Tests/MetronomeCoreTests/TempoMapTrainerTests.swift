import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TempoMapTrainerTests {
  /// klick's `80-120/10`: 400 bars of ramp, then 120 for ever; none for a rate of 0, NaN or one
  /// that would need more bars than a section holds.
  @Test func klicksTrainerIsARampThenAHold() throws {
    let trainer = try #require(
      TempoMap.klickTrainer(from: 80, to: 120, barsPerBPM: 10, meter: .fourFour, pattern: nil))
    #expect(trainer.sections.map(\.bars) == [400, nil])
    #expect(trainer.sections[0].tempo == .ramp(from: 80, to: 120))
    for rate in [0, -1, .nan, .infinity, 1e300] {
      #expect(TempoMap.klickTrainer(from: 80, to: 120, barsPerBPM: rate, meter: .fourFour, pattern: nil) == nil)
    }
  }

  /// A fractional rate, or a change it does not divide, ramps over the bars rounded up, as klick
  /// does, never to the nearest: `80-90/0.22` over 3 bars (2.2), `80-81/0.3` over 1 (0.3),
  /// `80-90/0.25` over 3 (2.5), downward as upward, and a whole product (`80-84/0.25`) over
  /// exactly its bars.
  @Test func klicksTrainerRoundsAFractionalLengthUp() throws {
    for (start, target, rate, bars) in [
      (80.0, 90.0, 0.22, 3), (80, 81, 0.3, 1), (80, 90, 0.25, 3), (120, 110, 0.22, 3),
      (80, 84, 0.25, 1), (80, 90, 1.02, 11),
    ] {
      let trainer = try #require(
        TempoMap.klickTrainer(from: start, to: target, barsPerBPM: rate, meter: .fourFour, pattern: nil))
      #expect(trainer.sections.map(\.bars) == [bars, nil], "\(start)-\(target)/\(rate)")
    }
    let flat = try #require(TempoMap.klickTrainer(from: 90, to: 90, barsPerBPM: 0.5, meter: .fourFour, pattern: nil))
    #expect(flat.sections.map(\.bars) == [nil])
  }

  /// Steps that never reach the target, or would take too many, build nothing; any number of
  /// seconds a step gives a count of bars a section can hold.
  @Test func theStepTrainerRefusesWhatItCannotBuild() throws {
    for step in [0, -5, 1e-300, .nan] {
      #expect(
        TempoMap.stepTrainer(
          from: 100, to: 120, step: step, every: .bars(4), meter: .fourFour, pattern: nil, loops: false) == nil)
    }
    let long = try #require(
      TempoMap.stepTrainer(
        from: 100, to: 110, step: 5, every: .seconds(1e300), meter: .fourFour, pattern: nil, loops: false))
    #expect(long.sections.map(\.bars) == [TempoMapParser.maximumBars, TempoMapParser.maximumBars, nil])
  }
}
