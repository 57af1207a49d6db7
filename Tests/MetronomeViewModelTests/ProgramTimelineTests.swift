import CombineSchedulers
import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// Count-ins, tempo maps and the speed trainer: exact timelines in virtual time.
final class ProgramTimelineTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
  }

  private func makeViewModel(tempo: Double = 120, _ program: Program) throws -> MetronomeViewModel {
    MetronomeViewModel(
      initialTempo: try Tempo(bpm: tempo), program: program, autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
  }

  /// Each beat as "bar.beat@frame", with "count-in" or its section and bar in it when it has one.
  private func record(_ viewModel: MetronomeViewModel) -> TestRecorder<AudioTime, String, Never> {
    scheduler.record(
      viewModel.beat.map { beat in
        let place =
          beat.isCountIn ? " count-in" : beat.section.map { " s\($0.index) b\($0.barInSection)" } ?? ""
        return "\(beat.bar).\(beat.beatInBar)@\(beat.frame)\(place)"
      })
  }

  private func advance(toFrame frame: Int64) { scheduler.advance(to: AudioTime(frame: frame, sampleRate: .standard)) }

  func testACountInOfOneBarAt120PutsTheFirstBarOfMusicAtFrame96000() throws {
    let viewModel = try makeViewModel(Program(countInBars: 1))
    let beats = record(viewModel)

    advance(toFrame: 120_000)

    XCTAssertEqual(
      beats.values,
      [
        "0.1@0 count-in", "0.2@24000 count-in", "0.3@48000 count-in", "0.4@72000 count-in", "1.1@96000",
        "1.2@120000",
      ])
  }

  /// klick's `-c 0`: two beats, then bar one.
  func testACountInOfNoBarsCountsTwoBeats() throws {
    let viewModel = try makeViewModel(Program(countInBars: 0))
    let beats = record(viewModel)

    advance(toFrame: 48_000)

    XCTAssertEqual(beats.values, ["0.1@0 count-in", "0.2@24000 count-in", "1.1@48000"])
  }

  /// A map's sections set each beat's meter and frame; its end is marked by one silent beat and
  /// nothing follows.
  func testAMapPlaysItsSectionsThenEnds() throws {
    let map = try TempoMapParser.parse("intro: 1 2/4 120\n1 3/8 60 X.x\n", source: "map")
    let viewModel = try makeViewModel(Program(map: map))
    let beats = record(viewModel)
    let levels = scheduler.record(viewModel.beat.map(\.level))

    advance(toFrame: 10_000_000)

    // 2/4 at 120: 24000 frames a beat; 3/8 at 60 (quarter notes): 24000 frames an eighth.
    XCTAssertEqual(
      beats.values,
      ["1.1@0 s0 b1", "1.2@24000 s0 b1", "2.1@48000 s1 b1", "2.2@72000 s1 b1", "2.3@96000 s1 b1", "3.1@120000"])
    XCTAssertEqual(levels.values, [.strong, .normal, .strong, .silent, .normal, .silent])
  }

  /// `80-120/10` as klick plays it: a ramp over ceil(10 × 40) = 400 bars, the tempo changing evenly
  /// from beat to beat, each beat as long as the logarithmic mean of its ends; 120 from bar 401 on.
  func testKlicksTrainerReaches120AtBar401() throws {
    let ramp = TempoMap.Section(bars: 400, tempo: .ramp(from: 80, to: 120))
    let hold = TempoMap.Section(bars: nil, tempo: .steady(120))
    let viewModel = try makeViewModel(tempo: 80, Program(map: TempoMap(sections: [ramp, hold])))
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }

    // 1600 beats of the ramp take 240/4 × 1600/40 × ln(120/80) seconds.
    let rampSeconds = 60.0 * 1_600 / 40 * log(1.5)
    advance(toFrame: Int64(rampSeconds * 48_000) + 24_000)
    recording.cancel()

    XCTAssertEqual(beats.count, 1_602)
    XCTAssertEqual(beats[1_600].bar, 401)
    XCTAssertEqual(beats[1_600].frame, Int64((rampSeconds * 48_000).rounded()))
    XCTAssertEqual(beats[1_600].tempo.bpm, 120)
    XCTAssertEqual(beats[1_601].frame - beats[1_600].frame, 24_000)
    XCTAssertEqual(beats[800].tempo.bpm, 100)
    XCTAssertLessThan(beats[1_599].tempo.bpm, 120)
  }

  /// A tempo key while a map plays scales the map from the next beat, keeping the phase: at 150
  /// the 120 BPM beats of the map follow each other every 19200 frames instead of 24000.
  func testATempoChangeScalesTheMapFromTheNextBeat() throws {
    let map = try TempoMapParser.parse("2 120\n1 60\n", source: "map")
    let viewModel = try makeViewModel(Program(map: map))
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 30_000, sampleRate: .standard)) { viewModel.tempo.send(150) }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values.map { $0.split(separator: " ")[0] },
      [
        "1.1@0", "1.2@24000", "1.3@43200", "1.4@62400", "2.1@81600", "2.2@100800", "2.3@120000", "2.4@139200",
        "3.1@158400", "3.2@196800", "3.3@235200", "3.4@273600", "4.1@312000",
      ])
  }
}
