import CombineSchedulers
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// The view model's fixes of Raytronome's flaws and its behaviour at the edges, in virtual time.
final class MetronomeViewModelTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!
  private var subscriptions: [AnyCancellable] = []

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
    subscriptions = []
  }

  private func makeViewModel(
    meter: Meter = .fourFour, tempo: Double = 120, autoplay: Bool = true, cap: NumeratorCap = .denominator
  ) -> MetronomeViewModel {
    MetronomeViewModel(
      initialMeter: meter, initialTempo: try! Tempo(bpm: tempo), autoplay: autoplay, cap: cap,
      beatScheduler: scheduler.limited().eraseToBeatScheduler()
    )
  }

  /// A beat as the tests write it: bar, beat in bar and frame at 48 kHz.
  private struct Position: Equatable, CustomStringConvertible {
    let bar: Int, beat: Int, frame: Int64
    init(_ bar: Int, _ beat: Int, frame: Int64) { (self.bar, self.beat, self.frame) = (bar, beat, frame) }
    init(_ beat: Beat) { self.init(beat.bar, beat.beatInBar, frame: beat.frame) }
    var description: String { "\(bar).\(beat)@\(frame)" }
  }

  private func recordPositions(_ viewModel: MetronomeViewModel) -> TestRecorder<AudioTime, Position, Never> {
    scheduler.record(viewModel.beat.map(Position.init))
  }

  /// A speed trainer set by an action moves the tempo on with each beat after the first, for the
  /// beat after it; a subdivision's click moves nothing (32 BPM a bar of four: 8 a beat).
  func testADispatchedSpeedTrainerMovesTheTempoOnWithEachBeatAfterTheFirst() throws {
    for division in [1, 3] {
      scheduler = TestScheduler(now: 0)
      let viewModel = MetronomeViewModel(
        initialSubdivision: try Subdivision(division), autoplay: true,
        beatScheduler: scheduler.limited().eraseToBeatScheduler())
      viewModel.dispatch(.setSpeedTrainer(SpeedTrainer(increment: 32, start: 0, limit: 0)))
      let tempos = scheduler.record(viewModel.beat.filter { $0.subdivision == 0 }.map(\.tempo.bpm))
      scheduler.advance(to: 1.6)
      XCTAssertEqual(Array(tempos.values.prefix(4)), [120, 120, 128, 136], "divided in \(division)")
      XCTAssertEqual(viewModel.currentState.programme.speedTrainer.increment, 32)
    }
  }

  /// FIXED: Raytronome truncated `tempo / 60` to an integer, so 90 BPM clicked every second.
  func testNinetyBPMBeatsEveryTwoThirdsOfASecond() {
    let viewModel = makeViewModel(tempo: 90)
    let beats = recordPositions(viewModel)

    scheduler.advance(to: 2)

    assertEvents(
      beats,
      [
        .next(0, Position(1, 1, frame: 0)),
        .next(AudioTime(seconds: 2.0 / 3), Position(1, 2, frame: 32_000)),
        .next(AudioTime(seconds: 4.0 / 3), Position(1, 3, frame: 64_000)),
        .next(2, Position(1, 4, frame: 96_000)),
      ])
  }

  func testTempoCountsQuarterNotesSoSevenEightAt200ClicksEvery150Milliseconds() {
    let viewModel = makeViewModel(meter: try! Meter(7, 8), tempo: 200)
    let beats = scheduler.record(viewModel.beat.map(\.frame))

    scheduler.advance(to: 0.45)

    XCTAssertEqual(beats.values, [0, 7_200, 14_400, 21_600])
  }

  /// FIXED: a tempo change no longer restarts the bar.
  ///
  /// It applies from the next beat, one new interval after the last, and the count goes on.
  func testTempoChangeMidBarKeepsThePhase() {
    let viewModel = makeViewModel()
    let beats = recordPositions(viewModel)
    scheduler.createColdPublisher([.next(1.2, 60.0)]).subscribe(viewModel.tempo).store(in: &subscriptions)

    scheduler.advance(to: 3)

    assertEvents(
      beats,
      [
        .next(0, Position(1, 1, frame: 0)),
        .next(0.5, Position(1, 2, frame: 24_000)),
        .next(1, Position(1, 3, frame: 48_000)),
        .next(2, Position(1, 4, frame: 96_000)),
        .next(3, Position(2, 1, frame: 144_000)),
      ])
  }

  /// FIXED: a meter change keeps the position in the bar (4/4 → 3/4 after beat 2 still plays beat 3).
  func testNumeratorChangeMidBarKeepsThePosition() {
    let viewModel = makeViewModel()
    let beats = recordPositions(viewModel)
    scheduler.createColdPublisher([.next(0.7, 3)]).subscribe(viewModel.steppedNumerator).store(in: &subscriptions)

    scheduler.advance(to: 2)

    assertEvents(
      beats,
      [
        .next(0, Position(1, 1, frame: 0)),
        .next(0.5, Position(1, 2, frame: 24_000)),
        .next(1, Position(1, 3, frame: 48_000)),
        .next(1.5, Position(2, 1, frame: 72_000)),
        .next(2, Position(2, 2, frame: 96_000)),
      ])
  }

  /// A denominator change is a change of beat length: 4/4 → 4/8 after beat 2 plays beat 3 an
  /// eighth note (0.25 s) after beat 2.
  func testDenominatorChangeMidBarKeepsThePhase() {
    let viewModel = makeViewModel()
    let beats = recordPositions(viewModel)
    scheduler.createColdPublisher([.next(0.6, 2)]).subscribe(viewModel.steppedDenominator).store(in: &subscriptions)

    scheduler.advance(to: 1.25)

    assertEvents(
      beats,
      [
        .next(0, Position(1, 1, frame: 0)),
        .next(0.5, Position(1, 2, frame: 24_000)),
        .next(0.75, Position(1, 3, frame: 36_000)),
        .next(1, Position(1, 4, frame: 48_000)),
        .next(1.25, Position(2, 1, frame: 60_000)),
      ])
  }

  /// Speeding up late in a long beat plays the next beat at once rather than in the past.
  func testSpeedingUpLateInABeatPlaysTheNextBeatAtOnce() {
    let viewModel = makeViewModel(tempo: 60)
    let beats = recordPositions(viewModel)
    scheduler.createColdPublisher([.next(0.9, 300.0)]).subscribe(viewModel.tempo).store(in: &subscriptions)

    scheduler.advance(to: 1.3)

    assertEvents(
      beats,
      [
        .next(0, Position(1, 1, frame: 0)),
        .next(0.9, Position(1, 2, frame: 43_200)),
        .next(1.1, Position(1, 3, frame: 52_800)),
        .next(1.3, Position(1, 4, frame: 62_400)),
      ])
  }

  /// 10 000 beats at 137 BPM land exactly on `round(n × 48000 × 60 / 137)`: no accumulated error.
  func testTenThousandBeatsAt137HaveNoAccumulatedError() {
    let viewModel = makeViewModel(tempo: 137)
    let beats = scheduler.record(viewModel.beat)
    let count = 10_000

    scheduler.advance(to: AudioTime(seconds: Double(count - 1) * 60 / 137))

    // round(n × 2 880 000 / 137) in integers, halves rounded up.
    let exact: [Int64] = (0..<Int64(count)).map { n in (n * 5_760_000 + 137) / 274 }
    XCTAssertEqual(beats.values.map(\.frame), exact)
    XCTAssertEqual(beats.events.map(\.time), exact.map { AudioTime(frame: $0, sampleRate: .standard) })
    XCTAssertEqual(beats.values.last?.bar, count / 4)
  }

  /// Documented choice: play sounds beat one at once; pause forgets the position, so the next
  /// play starts a new bar 1, beat 1 at once.
  func testPauseThenPlayStartsANewBarAtOnce() {
    let viewModel = makeViewModel(autoplay: false)
    let beats = recordPositions(viewModel)
    scheduler.createColdPublisher([.next(1, ()), .next(1.6, ()), .next(2.3, ())])
      .subscribe(viewModel.tappedPlayPause).store(in: &subscriptions)

    scheduler.advance(to: 2.8)

    assertEvents(
      beats,
      [
        .next(1, Position(1, 1, frame: 48_000)),
        .next(1.5, Position(1, 2, frame: 72_000)),
        .next(2.3, Position(1, 1, frame: 110_400)),
        .next(2.8, Position(1, 2, frame: 134_400)),
      ])
  }

  /// Tempos that are not valid are clamped into 1...1000 or, for NaN, ignored; never a zero interval.
  func testBadTemposAreClampedOrIgnored() {
    let viewModel = makeViewModel(autoplay: false)
    let text = scheduler.record(viewModel.tempoText)
    let inputs: [Recorded<AudioTime.Stride, Double, Never>] = [
      .next(1, 0), .next(2, -5), .next(3, .nan), .next(4, 100_000), .next(5, .infinity),
    ]
    scheduler.createColdPublisher(inputs).subscribe(viewModel.tempo).store(in: &subscriptions)

    scheduler.advance(to: 6)

    assertEvents(text, [.next(0, "120 BPM"), .next(1, "1 BPM"), .next(4, "1000 BPM")])
  }

  func testTempoOfZeroPlaysAtOneBPMNotInAZeroLoop() {
    let viewModel = makeViewModel()
    let beats = scheduler.record(viewModel.beat.map(\.frame))
    scheduler.createColdPublisher([.next(0.1, 0.0)]).subscribe(viewModel.tempo).store(in: &subscriptions)

    scheduler.advance(to: 121)

    XCTAssertEqual(beats.values, [0, 48_000 * 60, 48_000 * 120])
  }

  func testBadNumeratorsAndDenominatorStepsAreClamped() {
    let viewModel = makeViewModel(autoplay: false)
    let signature = scheduler.record(viewModel.signatureText)
    scheduler.createColdPublisher([.next(1, 0), .next(2, -3), .next(3, 99)])
      .subscribe(viewModel.steppedNumerator).store(in: &subscriptions)
    scheduler.createColdPublisher([.next(4, 0), .next(5, 9)])
      .subscribe(viewModel.steppedDenominator).store(in: &subscriptions)

    scheduler.advance(to: 6)

    assertEvents(signature, [.next(0, "4/4"), .next(1, "1/4"), .next(3, "4/4"), .next(5, "32/32")])
  }

  /// A raised cap lets 5/4 and 7/4 stand; the default rule still clamps to the denominator.
  func testRaisedCapAllowsSevenFour() {
    let viewModel = makeViewModel(autoplay: false, cap: NumeratorCap(atLeast: 7))
    let signature = scheduler.record(viewModel.signatureText)
    let maximum = scheduler.record(viewModel.maxNumerator)
    scheduler.createColdPublisher([.next(1, 5), .next(2, 7), .next(3, 9)])
      .subscribe(viewModel.steppedNumerator).store(in: &subscriptions)

    scheduler.advance(to: 4)

    assertEvents(signature, [.next(0, "4/4"), .next(1, "5/4"), .next(2, "7/4")])
    assertEvents(maximum, [.next(0, 7)])
  }

  func testTapTempoAveragesTheRecentTapsAndResetsAfterAPause() {
    let viewModel = makeViewModel(autoplay: false)
    let text = scheduler.record(viewModel.tempoText)
    scheduler.createColdPublisher([.next(1, ()), .next(1.5, ()), .next(2.1, ()), .next(9, ()), .next(10, ())])
      .subscribe(viewModel.tappedTempo).store(in: &subscriptions)

    scheduler.advance(to: 11)

    // 1.5 s implies 120 BPM, unchanged; 2.1 s averages 0.55 s; the pause before 9 s starts over.
    assertEvents(text, [.next(0, "120 BPM"), .next(2.1, "109.1 BPM"), .next(10, "60 BPM")])
  }

  func testActionsNudgeHalveDoubleStepAndReset() {
    let viewModel = makeViewModel(autoplay: false)
    let tempo = scheduler.record(viewModel.tempoText)
    let signature = scheduler.record(viewModel.signatureText)
    scheduler.createColdPublisher(
      [
        .next(1, .nudgeTempo(by: 10)), .next(2, .scaleTempo(by: 0.5)), .next(3, .scaleTempo(by: 2)),
        .next(4, .setMeter(try! Meter(24, 32))), .next(5, .stepDenominator(by: -1)), .next(6, .stepNumerator(by: -1)),
        .next(7, .reset),
      ] as [Recorded<AudioTime.Stride, MetronomeAction, Never>]
    )
    .subscribe(viewModel.actions).store(in: &subscriptions)

    scheduler.advance(to: 8)

    assertEvents(
      tempo, [.next(0, "120 BPM"), .next(1, "130 BPM"), .next(2, "65 BPM"), .next(3, "130 BPM"), .next(7, "120 BPM")])
    assertEvents(
      signature, [.next(0, "4/4"), .next(4, "24/32"), .next(5, "16/16"), .next(6, "15/16"), .next(7, "4/4")])
  }

  /// Every subscriber sees the same state: outputs derive from one state, not per-subscriber scans.
  func testLateSubscriberSeesTheCurrentState() {
    let viewModel = makeViewModel(autoplay: false)
    viewModel.tappedPlayPause.send(())
    let late = scheduler.record(viewModel.isPlaying)
    XCTAssertEqual(late.events, [.next(0, true)])
  }
}
