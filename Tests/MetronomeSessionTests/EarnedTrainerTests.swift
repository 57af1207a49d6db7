import CombineSchedulers
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeEngine
import MetronomeSession
import PracticeListening
import Testing

/// Earned practice in virtual time: a drummer plays each beat as it is heard (or leaves some out,
/// or plays one late), and the step trainer (`--step 5/4 --to 120 --earn 90`) steps up, stays or
/// falls back; the click (`--earn-silence`) fades out or comes back.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct EarnedTrainerTests {
  /// A drummer hitting each beat of the bar `plays` says, that many frames from it (nil: not at
  /// all), as it is heard.
  private final class Drummer: SessionObserver {
    weak var session: MetronomeSession<TestScheduler<AudioTime, Never>>?
    let plays: (Beat) -> Int64?
    init(plays: @escaping (Beat) -> Int64?) { self.plays = plays }
    func heard(_ beat: Beat) {
      guard beat.voice == .beats, !beat.isSubdivision, !beat.isCountIn, let offset = plays(beat) else { return }
      session?.receive(.hit(Hit(frame: beat.frame + offset, note: 38, velocity: 100)))
    }
  }

  /// The tempo of each of `bars` bars of `--step 5/4 --to 120 --earn 90` from 100 (falling back a
  /// step after two blocks below the mark), as heard, with `plays` the beats the drummer hits.
  private func tempos(bars: Int, plays: @escaping (Beat) -> Bool) throws -> [Double] {
    let trainer = try #require(
      TempoMap.stepTrainer(from: 100, to: 120, step: 5, every: .bars(4), meter: .fourFour, pattern: nil, loops: false))
    var programme = Programme(map: trainer, trainerTarget: 120)
    programme.holdsSections = true
    let drummer = Drummer { plays($0) ? 0 : nil }
    let watcher = BeatWatcher()
    let coach = StepCoach(mark: 0.9, tolerance: 20, sectionBars: trainer.sections.map(\.bars), stepsBack: 1)
    let harness = try Harness(
      PlaybackSettings(tempo: try Tempo(bpm: 100), length: .bars(bars), programme: programme),
      observers: [watcher, drummer], practice: Practice(scorer: HitScorer(tolerance: 20), coach: coach))
    drummer.session = harness.session
    harness.run()
    let beats = watcher.told.filter { $0.voice == .beats && !$0.isSubdivision }
    return (1...bars).map { bar in beats.first { $0.bar == bar }?.tempo.bpm ?? 0 }
  }

  /// Every beat on time: a step every block of 4 bars, from 100 to 120 in exactly 16 bars, each
  /// step on a block's first beat; then 120 for ever.
  @Test func aPlayerOnTimeClimbsAStepEveryBlock() throws {
    let bars = try tempos(bars: 20) { _ in true }
    #expect(
      bars == [100, 100, 100, 100, 105, 105, 105, 105, 110, 110, 110, 110, 115, 115, 115, 115, 120, 120, 120, 120])
  }

  /// Every other beat missed: half the block, below 90 %, and the tempo stays at 100; two such
  /// blocks fall back a step, but not below the start.
  @Test func aPlayerMissingEveryOtherBeatStaysAtTheStart() throws {
    #expect(try tempos(bars: 16) { $0.beatInBar.isMultiple(of: 2) } == Array(repeating: 100, count: 16))
  }

  /// On time for two blocks (up to 110), then falling apart: two blocks below the mark bring it
  /// a step back, to 105, on the next block's first beat.
  @Test func aPlayerFallingApartComesBackDown() throws {
    let bars = try tempos(bars: 20) { $0.bar <= 8 }
    #expect(
      bars == [100, 100, 100, 100, 105, 105, 105, 105, 110, 110, 110, 110, 110, 110, 110, 110, 105, 105, 105, 105])
  }

  /// One beat missed in a block of 16 is 94 %, which earns the step; two, 88 %, which does not.
  @Test func theMarkIsTheShareOfTheBlocksBeats() throws {
    #expect(try tempos(bars: 5) { !($0.bar == 2 && $0.beatInBar == 3) }.last == 105)
    #expect(try tempos(bars: 5) { !($0.bar == 2 && $0.beatInBar >= 3) }.last == 100)
  }

  /// The loudness of each beat of `bars` bars of 4/4 at 120 with `--earn-silence`, as heard, the
  /// drummer hitting each beat `plays` frames from it.
  private func levels(bars: Int, plays: @escaping (Beat) -> Int64?) throws -> [[Double]] {
    let drummer = Drummer(plays: plays)
    let watcher = BeatWatcher()
    let harness = try Harness(
      PlaybackSettings(length: .bars(bars)), observers: [watcher, drummer],
      practice: Practice(scorer: HitScorer(tolerance: 20), silence: SilenceCoach(tolerance: 20)))
    drummer.session = harness.session
    harness.run()
    let beats = watcher.told.filter { $0.voice == .beats && !$0.isSubdivision }
    return (1...bars).map { bar in beats.filter { $0.bar == bar }.map(\.volume) }
  }

  /// A steady player's click fades a quarter a bar, to silence after four bars on time; one hit
  /// 40 ms late (outside the 20 ms either way) brings it back whole on the next click, and it
  /// fades again from the bar after.
  @Test func aSteadyPlayersClickFadesToSilenceAndALateHitBringsItBack() throws {
    let bars = try levels(bars: 8) { $0.bar == 6 && $0.beatInBar == 2 ? 1_920 : 0 }
    #expect(
      bars == [
        [1, 1, 1, 1], [0.75, 0.75, 0.75, 0.75], [0.5, 0.5, 0.5, 0.5], [0.25, 0.25, 0.25, 0.25], [0, 0, 0, 0],
        [0, 0, 1, 1], [1, 1, 1, 1], [0.75, 0.75, 0.75, 0.75],
      ])
  }

  /// A beat not hit keeps the click whole for the next bar; a hit 30 ms early brings it back at
  /// once, from the next click not already on its way to the speaker; within the tolerance,
  /// early or late, it fades.
  @Test func aBeatNotHitOrAHitFarEarlyKeepsTheClick() throws {
    let missed = try levels(bars: 4) { $0.bar == 2 && $0.beatInBar == 4 ? nil : 0 }
    #expect(missed.map { $0[0] } == [1, 0.75, 1, 0.75])
    let early = try levels(bars: 4) { $0.bar == 3 && $0.beatInBar == 3 ? -1_440 : 0 }
    #expect(early == [[1, 1, 1, 1], [0.75, 0.75, 0.75, 0.75], [0.5, 0.5, 0.5, 1], [1, 1, 1, 1]])
    let close = try levels(bars: 3) { $0.beatInBar.isMultiple(of: 2) ? 960 : -960 }
    #expect(close.map { $0[0] } == [1, 0.75, 0.5])
  }

  /// What the player did without the click is summed up apart: in a gap of every other bar, the
  /// drummer drags 1 ms a beat (120 ms a minute at 120) and comes back 2 ms late on the click; the
  /// click earned away counts the same.
  @Test func whatThePlayerDidWithoutTheClickIsSummedUp() throws {
    let drummer = Drummer { beat in
      beat.isGapMuted ? Int64(beat.beatInBar * 48) : beat.bar > 1 && beat.beatInBar == 1 ? 96 : 0
    }
    let harness = try Harness(
      PlaybackSettings(length: .bars(4), programme: Programme(gap: .bars(play: 1, mute: 1))), observers: [drummer],
      practice: Practice(scorer: HitScorer(tolerance: 20)))
    drummer.session = harness.session
    harness.run()
    let summary = try #require(harness.standardError.first { $0.hasPrefix("metronome: listening: ") })
    #expect(
      summary.contains(
        "; without the click: 8 hits, dragging 120.0 ms a minute; back with it, the first hit +2.0 ms\n"), "\(summary)")
  }
}
