import MetronomeCore
import Testing

/// klick's speed trainer, beat by beat, as its `metronome_simple.cc` ramps `_current_tempo`.
@Suite(.timeLimit(.minutes(1)))
struct SpeedTrainerTests {
  /// Each beat adds the increment spread over the bar, up to the limit.
  @Test func eachBeatAddsItsShareOfTheIncrementUpToTheLimit() {
    let trainer = SpeedTrainer(increment: 4, start: 0, limit: 122)
    var tempo = 120.0
    let tempos = (0..<4).map { _ in
      tempo = trainer.tempo(after: tempo, beats: 4, chosen: 120)
      return tempo
    }
    #expect(tempos == [121, 122, 122, 122])
    #expect(trainer.startingTempo(chosen: 120) == 120)
  }

  /// Slowing down stops at the limit from above.
  @Test func aNegativeIncrementSlowsDownToTheLimit() {
    let trainer = SpeedTrainer(increment: -9, start: 0, limit: 100)
    #expect(trainer.tempo(after: 105, beats: 3, chosen: 120) == 102)
    #expect(trainer.tempo(after: 102, beats: 3, chosen: 120) == 100)
  }

  /// With a start and no limit it starts there and stops at the tempo the player chose.
  @Test func fromItsStartItLeadsToTheChosenTempo() {
    let trainer = SpeedTrainer(increment: 10, start: 100, limit: 0)
    #expect(trainer.startingTempo(chosen: 120) == 100)
    #expect(trainer.tempo(after: 118, beats: 2, chosen: 120) == 120)
    #expect(trainer.tempo(after: 100, beats: 2, chosen: 120) == 105)
  }

  /// Without a start or a limit it goes on for ever; off, or given no finite number, it does nothing.
  @Test func withoutBoundsItGoesOnAndOffItDoesNothing() {
    #expect(SpeedTrainer(increment: 2, start: 0, limit: 0).tempo(after: 500, beats: 1, chosen: 120) == 502)
    #expect(SpeedTrainer.off.tempo(after: 120, beats: 4, chosen: 100) == 120)
    #expect(SpeedTrainer.off.startingTempo(chosen: 100) == 100)
    #expect(SpeedTrainer(increment: .nan, start: .infinity, limit: 1) == SpeedTrainer(increment: 0, start: 0, limit: 1))
    #expect(!SpeedTrainer(increment: .nan, start: 0, limit: 0).isOn)
  }
}
