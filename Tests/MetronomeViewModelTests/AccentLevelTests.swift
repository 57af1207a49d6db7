import CombineSchedulers
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// Accent levels and patterns in the view model, in virtual time.
final class AccentLevelTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
  }

  private func makeViewModel(meter: Meter, pattern: String?) throws -> MetronomeViewModel {
    MetronomeViewModel(
      initialMeter: meter, initialTempo: .standard, initialPattern: try pattern.map { try AccentPattern(parsing: $0) },
      autoplay: true, beatScheduler: scheduler.limited().eraseToBeatScheduler())
  }

  /// A beat as the tests write it: bar, beat in bar, frame at 48 kHz and level.
  private struct Heard: Equatable, CustomStringConvertible {
    let bar: Int, beat: Int, frame: Int64, level: AccentLevel
    init(_ bar: Int, _ beat: Int, frame: Int64, _ level: AccentLevel) {
      (self.bar, self.beat, self.frame, self.level) = (bar, beat, frame, level)
    }
    init(_ beat: Beat) { self.init(beat.bar, beat.beatInBar, frame: beat.frame, beat.level) }
    var description: String { "\(bar).\(beat)@\(frame) \(level.rawValue)" }
  }

  /// A silent beat is still a beat: it is emitted on its frame, saying it is silent.
  func testEveryBeatOfAPatternIsEmittedWithItsLevelSilentOnesToo() throws {
    let viewModel = try makeViewModel(meter: Meter(3, 4), pattern: "X.o")
    let beats = scheduler.record(viewModel.beat.map(Heard.init))

    scheduler.advance(to: 1.5)

    assertEvents(
      beats,
      [
        .next(0, Heard(1, 1, frame: 0, .strong)),
        .next(0.5, Heard(1, 2, frame: 24_000, .silent)),
        .next(1.0, Heard(1, 3, frame: 48_000, .weak)),
        .next(1.5, Heard(2, 1, frame: 72_000, .strong)),
      ])
  }

  /// A level changed in mid-bar applies from the next beat, and no beat moves.
  func testALevelChangedMidBarAppliesFromTheNextBeatWithThePhaseKept() throws {
    let viewModel = try makeViewModel(meter: .fourFour, pattern: nil)
    let beats = scheduler.record(viewModel.beat.map(Heard.init))
    let patterns = scheduler.record(viewModel.pattern.map(\.description))
    scheduler.schedule(after: 0.75) {
      viewModel.actions.send(.cycleLevel(ofBeat: 3))
      viewModel.actions.send(.cycleLevel(ofBeat: 2))
      viewModel.actions.send(.cycleLevel(ofBeat: 2))
    }

    scheduler.advance(to: 2.5)

    assertEvents(
      beats,
      [
        .next(0, Heard(1, 1, frame: 0, .strong)),
        .next(0.5, Heard(1, 2, frame: 24_000, .normal)),
        .next(1.0, Heard(1, 3, frame: 48_000, .weak)),
        .next(1.5, Heard(1, 4, frame: 72_000, .normal)),
        .next(2.0, Heard(2, 1, frame: 96_000, .strong)),
        .next(2.5, Heard(2, 2, frame: 120_000, .silent)),
      ])
    assertEvents(patterns, [.next(0, "Xxxx"), .next(0.75, "Xxox"), .next(0.75, "Xoox"), .next(0.75, "X.ox")])
  }

  /// A pattern is kept while the bar has another length (which plays the standard levels) and
  /// applies again when the length fits; reset brings back the pattern the run started with.
  func testAPatternWaitsOutAMeterItDoesNotFitAndResetRestoresIt() throws {
    let viewModel = try makeViewModel(meter: try Meter(3, 4), pattern: "X.o")
    let patterns = scheduler.record(viewModel.pattern.map(\.description))
    scheduler.schedule(after: 0.1) { viewModel.actions.send(.stepNumerator(by: 1)) }
    scheduler.schedule(after: 0.2) { viewModel.actions.send(.stepNumerator(by: -1)) }
    scheduler.schedule(after: 0.3) { viewModel.actions.send(.cycleLevel(ofBeat: 1)) }
    scheduler.schedule(after: 0.4) { viewModel.actions.send(.reset) }
    // A beat the bar does not have has no level to change.
    scheduler.schedule(after: 0.5) { viewModel.actions.send(.cycleLevel(ofBeat: 4)) }

    scheduler.advance(to: 1)

    assertEvents(
      patterns, [.next(0, "X.o"), .next(0.1, "Xxxx"), .next(0.2, "X.o"), .next(0.3, "x.o"), .next(0.4, "X.o")])
  }
}
