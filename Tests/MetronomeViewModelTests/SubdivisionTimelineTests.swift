import CombineSchedulers
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// Subdivisions and swing in the view model: exact timelines in virtual time.
final class SubdivisionTimelineTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
  }

  private func makeViewModel(tempo: Double = 120, subdivision: Subdivision) throws -> MetronomeViewModel {
    MetronomeViewModel(
      initialMeter: .fourFour, initialTempo: try Tempo(bpm: tempo), initialSubdivision: subdivision, autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
  }

  /// Each click as the tests write it: beat in bar, click of the beat and frame.
  private func clicks(_ viewModel: MetronomeViewModel) -> TestRecorder<AudioTime, [Int64], Never> {
    scheduler.record(viewModel.beat.map { [Int64($0.beatInBar), Int64($0.subdivision), $0.frame] })
  }

  func testTripletsAt120PutTwelveClicksInABarAtRoundKTimes8000() throws {
    let viewModel = try makeViewModel(subdivision: Subdivision(3))
    let recorded = clicks(viewModel)

    scheduler.advance(to: AudioTime(frame: 95_999, sampleRate: .standard))

    XCTAssertEqual(recorded.values.map { $0[2] }, (0..<12).map { Int64($0 * 8_000) })
    XCTAssertEqual(recorded.values.map { $0[1] }, (0..<12).map { Int64($0 % 3) })
    XCTAssertEqual(recorded.values.map { $0[0] }, (0..<12).map { Int64($0 / 3 + 1) })
  }

  func testTwoThirdsSwingAt120PutsEighthPairsAt0_16000_24000_40000() throws {
    let viewModel = try makeViewModel(subdivision: Subdivision(2, swing: 2.0 / 3))
    let recorded = clicks(viewModel)

    scheduler.advance(to: AudioTime(frame: 48_000, sampleRate: .standard))

    XCTAssertEqual(recorded.values.map { $0[2] }, [0, 16_000, 24_000, 40_000, 48_000])
  }

  /// Each click is its beat's frame plus its own rounded offset: at 97 BPM a beat lasts
  /// 29690.72 frames, so sixteenths fall 7423, 14845 and 22268 frames after it, never a sum of
  /// rounded steps.
  func testClicksAreTheBeatsFramePlusTheirOwnRoundedOffset() throws {
    let viewModel = try makeViewModel(tempo: 97, subdivision: Subdivision(4))
    let recorded = clicks(viewModel)

    scheduler.advance(to: 2)

    let length = 48_000.0 * 60 / 97
    for click in recorded.values {
      let beatFrame = Int64((Double(click[0] - 1) * length).rounded())
      XCTAssertEqual(click[2], beatFrame + Int64((Double(click[1]) * length / 4).rounded()), "\(click)")
    }
    XCTAssertEqual(recorded.values.count, 13)
  }

  /// A change in mid-beat keeps the clicks of the beat already sounding as they were divided,
  /// and applies from the next beat, which stays on its frame.
  func testASubdivisionOrSwingChangeInMidBarAppliesFromTheNextBeatWithThePhaseKept() throws {
    let viewModel = try makeViewModel(subdivision: Subdivision(2))
    let recorded = clicks(viewModel)
    scheduler.schedule(after: AudioTime(frame: 6_000, sampleRate: .standard)) {
      viewModel.actions.send(.setSubdivision(try! Subdivision(4, swing: 0.75)))
    }
    scheduler.schedule(after: AudioTime(frame: 30_000, sampleRate: .standard)) {
      viewModel.actions.send(.stepSubdivision(by: -1))
    }

    scheduler.advance(to: AudioTime(frame: 60_000, sampleRate: .standard))

    XCTAssertEqual(
      recorded.values,
      [
        [1, 0, 0], [1, 1, 12_000],
        [2, 0, 24_000], [2, 1, 33_000], [2, 2, 36_000], [2, 3, 45_000],
        [3, 0, 48_000], [3, 1, 56_000],
      ])
  }

  /// Raising the tempo in mid-beat brings the next beat forward; a click of the old beat that
  /// would fall after it is dropped rather than played out of order.
  func testAClickTheNextBeatOvertakesIsDropped() throws {
    let viewModel = try makeViewModel(tempo: 60, subdivision: Subdivision(2))
    let recorded = clicks(viewModel)
    scheduler.schedule(after: AudioTime(frame: 10_000, sampleRate: .standard)) { viewModel.tempo.send(240) }

    scheduler.advance(to: AudioTime(frame: 13_000, sampleRate: .standard))

    XCTAssertEqual(recorded.values, [[1, 0, 0], [2, 0, 12_000]])
  }
}
