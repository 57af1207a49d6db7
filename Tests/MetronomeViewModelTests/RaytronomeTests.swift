import CombineSchedulers
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// The thirteen tests of the Raytronome tutorial, ported from RxTest to the MetronomeTesting kit.
///
/// Times are seconds on the virtual clock. Where the view model fixes one of Raytronome's flaws,
/// the test expects the fixed behaviour and says so.
final class RaytronomeTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!
  private var viewModel: MetronomeViewModel!
  private var subscriptions: [AnyCancellable] = []

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
    viewModel = MetronomeViewModel(beatScheduler: scheduler.limited().eraseToBeatScheduler())
    subscriptions = []
  }

  // MARK: Start values (RxBlocking's `toBlocking().first()` becomes `awaitOutput`)

  func testNumeratorStartsAt4() throws {
    XCTAssertEqual(try awaitOutput(viewModel.numeratorText.first()), "4")
    XCTAssertEqual(try awaitOutput(viewModel.numeratorValue.first()), 4)
  }

  func testDenominatorStartsAt4() throws {
    XCTAssertEqual(try awaitOutput(viewModel.denominatorText.first()), "4")
  }

  func testSignatureStartsAt4By4() throws {
    XCTAssertEqual(try awaitOutput(viewModel.signatureText.first()), "4/4")
  }

  func testTempoStartsAt120() throws {
    XCTAssertEqual(try awaitOutput(viewModel.tempoText.first()), "120 BPM")
  }

  // MARK: Inputs over virtual time

  func testTappedPlayPauseChangesIsPlaying() {
    let isPlaying = scheduler.record(viewModel.isPlaying)
    scheduler.createColdPublisher([.next(10, ()), .next(20, ()), .next(30, ())])
      .subscribe(viewModel.tappedPlayPause).store(in: &subscriptions)

    scheduler.advance(to: 40)

    XCTAssertEqual(isPlaying.events, [.next(0, false), .next(10, true), .next(20, false), .next(30, true)])
  }

  func testModifyingNumeratorUpdatesNumeratorText() {
    let numerator = scheduler.record(viewModel.numeratorText)
    scheduler.createColdPublisher([.next(10, 3), .next(15, 1)])
      .subscribe(viewModel.steppedNumerator).store(in: &subscriptions)

    scheduler.advance(to: 20)

    XCTAssertEqual(numerator.events, [.next(0, "4"), .next(10, "3"), .next(15, "1")])
  }

  func testModifyingDenominatorUpdatesNumeratorText() {
    let denominator = scheduler.record(viewModel.denominatorText)
    // Stepper positions 1, 2, 3, 4 select 4, 8, 16, 32.
    scheduler.createColdPublisher([.next(10, 2), .next(15, 4), .next(20, 3), .next(25, 1)])
      .subscribe(viewModel.steppedDenominator).store(in: &subscriptions)

    scheduler.advance(to: 30)

    XCTAssertEqual(
      denominator.events,
      [.next(0, "4"), .next(10, "8"), .next(15, "32"), .next(20, "16"), .next(25, "4")]
    )
  }

  func testModifyingTempoUpdatesTempoText() {
    let tempo = scheduler.record(viewModel.tempoText)
    scheduler.createColdPublisher([.next(10, 75), .next(15, 90), .next(20, 180), .next(25, 60)])
      .subscribe(viewModel.tempo).store(in: &subscriptions)

    scheduler.advance(to: 30)

    XCTAssertEqual(
      tempo.events,
      [.next(0, "120 BPM"), .next(10, "75 BPM"), .next(15, "90 BPM"), .next(20, "180 BPM"), .next(25, "60 BPM")]
    )
  }

  func testModifyingSignatureUpdatesSignatureText() {
    let signature = scheduler.record(viewModel.signatureText)
    scheduler.createColdPublisher([
      .next(5, 3), .next(10, 1), .next(20, 5), .next(25, 7), .next(35, 12), .next(45, 24), .next(50, 32),
    ]).subscribe(viewModel.steppedNumerator).store(in: &subscriptions)
    scheduler.createColdPublisher([.next(15, 2), .next(30, 3), .next(40, 4)])
      .subscribe(viewModel.steppedDenominator).store(in: &subscriptions)

    scheduler.advance(to: 60)

    assertEvents(
      signature,
      [
        .next(0, "4/4"), .next(5, "3/4"), .next(10, "1/4"),
        .next(15, "1/8"), .next(20, "5/8"), .next(25, "7/8"),
        .next(30, "7/16"), .next(35, "12/16"),
        .next(40, "12/32"), .next(45, "24/32"), .next(50, "32/32"),
      ])
  }

  /// The tutorial's bug-fix step: the view model itself clamps the numerator, so stepping the
  /// denominator down from 24/32 gives 16/16, 8/8 and 4/4.
  func testModifyingDenominatorUpdatesNumeratorValueIfExceedsMaximum() {
    let numerator = scheduler.record(viewModel.numeratorValue)
    scheduler.createColdPublisher([.next(5, 4), .next(15, 3), .next(20, 2), .next(25, 1)])
      .subscribe(viewModel.steppedDenominator).store(in: &subscriptions)
    scheduler.createColdPublisher([.next(10, 24)])
      .subscribe(viewModel.steppedNumerator).store(in: &subscriptions)

    scheduler.advance(to: 30)

    assertEvents(numerator, [.next(0, 4), .next(10, 24), .next(15, 16), .next(20, 8), .next(25, 4)])
  }

  // MARK: Beats

  /// FIXED: Raytronome's first click came one interval after play, and RxTest rounded 0.0625 s to
  /// 6 ticks of 0.01 s on every beat (6, 12, 18, …).
  ///
  /// Here the first beat sounds at once and every beat sits on the exact grid: 4/32 at 120 is a
  /// beat every 0.0625 s.
  func testBeatBy32() {
    startPlaying(meter: try! Meter(4, 32))
    let beat = scheduler.record(viewModel.beat.map(\.kind))

    scheduler.advance(to: 0.4375)

    assertEvents(
      beat,
      [
        .next(0, .first), .next(0.0625, .regular), .next(0.125, .regular), .next(0.1875, .regular),
        .next(0.25, .first), .next(0.3125, .regular), .next(0.375, .regular), .next(0.4375, .regular),
      ])
  }

  /// FIXED: the first beat sounds at play (t = 0), not one interval later (Raytronome's 0.5 s).
  func testBeatBy4() {
    startPlaying(meter: .fourFour)
    let beat = scheduler.record(viewModel.beat.map(\.kind))

    scheduler.advance(to: 3.5)

    assertEvents(
      beat,
      [
        .next(0, .first), .next(0.5, .regular), .next(1, .regular), .next(1.5, .regular),
        .next(2, .first), .next(2.5, .regular), .next(3, .regular), .next(3.5, .regular),
      ])
  }

  /// The pendulum alternates with every beat; the first beat (at once, FIXED) is even.
  func testBeatTypeAlternates() {
    startPlaying(meter: .fourFour)
    let beatType = scheduler.record(viewModel.beatType)

    scheduler.advance(to: 3.5)

    assertEvents(
      beatType,
      [
        .next(0, .even), .next(0.5, .odd), .next(1, .even), .next(1.5, .odd),
        .next(2, .even), .next(2.5, .odd), .next(3, .even), .next(3.5, .odd),
      ])
  }

  /// Raytronome's beat tests build a view model that plays at once (`autoplay: true`).
  private func startPlaying(meter: Meter) {
    viewModel = MetronomeViewModel(
      initialMeter: meter, autoplay: true, beatScheduler: scheduler.limited().eraseToBeatScheduler()
    )
  }
}
