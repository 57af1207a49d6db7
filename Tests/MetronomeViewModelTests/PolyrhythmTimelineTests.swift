import CombineSchedulers
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// A second voice against the beats: exact timelines in virtual time.
final class PolyrhythmTimelineTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
  }

  private func makeViewModel(_ meter: Meter = .fourFour, clicks: Int) throws -> MetronomeViewModel {
    MetronomeViewModel(
      initialMeter: meter, initialTempo: .standard, initialPolyrhythm: clicks, autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
  }

  /// The second voice's frames, as `[click, frame]`.
  private func voice(_ viewModel: MetronomeViewModel) -> TestRecorder<AudioTime, [Int64], Never> {
    scheduler.record(
      viewModel.beat.compactMap { beat in
        guard case .polyrhythm(let click, _) = beat.voice else { return nil }
        return [Int64(click), beat.frame]
      })
  }

  func testThreeAgainstFourAt120PutsTheVoiceAt0_32000_64000OfA96000FrameBar() throws {
    let viewModel = try makeViewModel(clicks: 3)
    let recorded = voice(viewModel)

    scheduler.advance(to: AudioTime(frame: 191_999, sampleRate: .standard))

    XCTAssertEqual(recorded.values, [[0, 0], [1, 32_000], [2, 64_000], [0, 96_000], [1, 128_000], [2, 160_000]])
  }

  func testSevenAgainstEightSpreadsSevenClicksOverTheBarExactly() throws {
    let viewModel = try makeViewModel(try Meter(8, 8), clicks: 7)
    let recorded = voice(viewModel)

    scheduler.advance(to: AudioTime(frame: 95_999, sampleRate: .standard))

    // A bar of 8/8 at 120 lasts 96000 frames: click k at round(k × 96000 / 7).
    XCTAssertEqual(recorded.values.map { $0[1] }, (0..<7).map { Int64((Double($0) * 96_000 / 7).rounded()) })
  }

  /// The voice's clicks come after the beat on the same frame, so the beat is heard first and
  /// both sound; muting the voice silences it from the next bar, and muting all silences it too.
  func testTheVoiceFollowsTheBeatOnASharedFrameAndMutesByItself() throws {
    let viewModel = try makeViewModel(clicks: 2)
    let clicks = scheduler.record(viewModel.beat.map { "\($0.frame) \($0.isPolyrhythm ? "poly" : "beat")" })
    scheduler.schedule(after: AudioTime(frame: 100_000, sampleRate: .standard)) {
      viewModel.actions.send(.togglePolyrhythmMute)
    }

    scheduler.advance(to: AudioTime(frame: 200_000, sampleRate: .standard))

    XCTAssertEqual(
      Array(clicks.values.prefix(6)), ["0 beat", "0 poly", "24000 beat", "48000 beat", "48000 poly", "72000 beat"])
    XCTAssertFalse(clicks.values.dropFirst(10).contains { $0.hasSuffix("poly") }, "\(clicks.values)")
  }

  /// A tempo change in mid-bar drops the rest of that bar's voice; it comes back with the next bar.
  func testATempoChangeInMidBarDropsTheRestOfTheBarsVoice() throws {
    let viewModel = try makeViewModel(clicks: 3)
    let recorded = voice(viewModel)
    scheduler.schedule(after: AudioTime(frame: 40_000, sampleRate: .standard)) { viewModel.tempo.send(60) }

    scheduler.advance(to: AudioTime(frame: 300_000, sampleRate: .standard))

    // Beats at 0, 24000, then every 48000 from 24000: beat one of bar 2 at 168000, a bar of 192000.
    XCTAssertEqual(recorded.values, [[0, 0], [1, 32_000], [0, 168_000], [1, 232_000], [2, 296_000]])
  }
}
