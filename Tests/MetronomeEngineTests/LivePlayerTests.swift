import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeTesting
import Synchronization
import Testing

/// What the player reported: each heard beat, then the end.
private final class PlayerLog: Sendable {
  private let entries = Mutex<[String]>([])

  func heard(_ beat: Beat, _ hearing: LivePlayer.Hearing) {
    let entry =
      switch hearing {
      case .inSeconds(let seconds): "\(beat.frame) in \(seconds * 48_000)"
      case .skipped(let seconds): "\(beat.frame) skipped in \(seconds * 48_000)"
      }
    entries.withLock { $0.append(entry) }
  }
  func ended(_ result: Result<Void, any Error>) {
    entries.withLock { $0.append((try? result.get()).map { "ended" } ?? "failed") }
  }
  var all: [String] { entries.withLock { $0 } }
}

private struct DeviceGone: Error {}

/// A sound server's client for tests: the test calls each cycle, and says before it how many
/// frames of cycles the server ran without the client, as JACK knows them as it calls.
private final class FakeServerSink: CallbackAudioSink, @unchecked Sendable {
  let sampleRate = SampleRate.standard
  let outputDelayFrames: Int64 = 1_000
  let underrunCount = 0
  /// Every frame written, by the cycle it was written in.
  private(set) var cycles: [[Float]] = []
  private var missed: Int64 = 0
  private var render: (@Sendable (Int) -> Void)?

  func start(rendering render: @escaping @Sendable (Int) -> Void, failed: @escaping @Sendable (any Error) -> Void) {
    self.render = render
  }
  func stop() {}
  func finish() throws {}
  func write(_ period: RenderedPeriod) throws { cycles[cycles.count - 1] += period.samples }
  func takeLostFrames() -> Int64 {
    defer { missed = 0 }
    return missed
  }

  /// One cycle of `frames`, after `missed` frames the server ran without the client.
  func cycle(_ frames: Int, after missed: Int64 = 0) {
    self.missed = missed
    cycles.append([])
    render?(frames)
  }
}

@Suite(.timeLimit(.minutes(1)))
struct LivePlayerTests {
  /// Three beats at 120 in periods of a second: the second period is cut at the run's end
  /// (72 000), so its beat at 48 000 is heard 60 000 − (72 000 − 48 000) frames after the write.
  ///
  /// What it read of the device after the last write is kept for other threads: its delay, so
  /// that the run's end (72 000) is heard 60 000 frames after it, its underruns and its buffer,
  /// grown from what it was when the player was made.
  @Test func reportsWhenEachBeatIsHeardCountingFromWhatWasWritten() throws {
    let sink = FakeAudioSink(delayFrames: 60_000)
    let log = PlayerLog()
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(3))), sink: sink, periodFrames: 48_000,
      onHeard: log.heard, onEnd: log.ended)
    sink.underrunCount = 2
    sink.bufferFrames = 120_000
    player.run()

    #expect(log.all == ["0 in 12000.0", "24000 in 36000.0", "48000 in 36000.0", "ended"])
    #expect(sink.samples.count == 72_000)
    #expect(sink.isFinished)
    #expect(player.latencySeconds == 1.25 && player.secondsUntilHeard(frame: 72_000) == 1.25)
    #expect(player.underrunCount == 2 && player.bufferFrames == (60_000, 120_000))
  }

  /// Each underrun is placed at the run's frame of the period whose write found it, several at
  /// one frame where one write found several, the first eight only.
  @Test func underrunsArePlacedAtThePeriodThatFoundThem() {
    var writes = 0
    var found: FakeAudioSink?
    let sink = FakeAudioSink { _ in
      writes += 1
      found?.underrunCount = writes >= 3 ? 12 : writes - 1
    }
    found = sink
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(3))), sink: sink, periodFrames: 24_000,
      onHeard: { _, _ in }, onEnd: { _ in })
    let before = player.underrunsAt
    player.run()

    #expect(before.isEmpty)
    #expect(player.underrunCount == 12)
    #expect(player.underrunsAt == [24_000] + Array(repeating: 48_000, count: 7))
  }

  @Test func aSinkThatFailsEndsTheRunWithItsErrorAndIsNotFinished() {
    let sink = FakeAudioSink()
    sink.failure = DeviceGone()
    let log = PlayerLog()
    LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings()), sink: sink, periodFrames: 256, onHeard: log.heard,
      onEnd: log.ended
    ).run()

    #expect(log.all == ["failed"])
    #expect(!sink.isFinished)
  }

  /// A stop asked for while a period is written ends the loop after it, without finishing the sink.
  @Test func stoppingEndsAfterThePeriodBeingWritten() {
    let log = PlayerLog()
    var player: LivePlayer?
    var writes = 0
    let sink = FakeAudioSink { _ in
      writes += 1
      if writes == 2 { player?.stop() }
    }
    player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings()), sink: sink, periodFrames: 24_000, onHeard: log.heard,
      onEnd: log.ended)
    player?.run()

    #expect(writes == 2)
    #expect(log.all == ["0 in 0.0", "24000 in 0.0", "ended"])
    #expect(!sink.isFinished)
  }

  /// Frames a glitch lost are skipped with their beats, and the clicks keep their grid.
  ///
  /// Four beats at 120 (24 000 frames apart) in periods of 12 000: after the first period the
  /// device says it played 30 000 frames without the stream, so the frames 12 000 to 42 000 of the
  /// run are skipped with the beat at 24 000 in them, and the later clicks are written 30 000
  /// frames early in the stream, which puts them back on their grid as heard. The skipped beat is
  /// reported when the gap is reached, after the device's 6 000 frames of delay, so that it comes
  /// in order with the beats heard before it.
  @Test func framesAGlitchLostAreSkippedWithTheirBeatsAndTheClicksKeepTheirGrid() throws {
    let sink = FakeAudioSink(delayFrames: 6_000)
    sink.lostFrames = [30_000]
    let log = PlayerLog()
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(4))), sink: sink, periodFrames: 12_000,
      onHeard: log.heard, onEnd: log.ended)
    player.run()

    #expect(log.all == ["0 in 0.0", "24000 skipped in 6000.0", "48000 in 0.0", "72000 in 0.0", "ended"])
    let onsets = Onset.detect(in: sink.samples, sampleRate: 48_000).map(\.frame)
    #expect(onsets == [0, 48_000 - 30_000, 72_000 - 30_000])
    #expect(sink.samples.count == 96_000 - 30_000)
    #expect(player.lostFrames == 30_000)
  }

  /// Cycles a sound server ran without the client are skipped before the next is rendered, so
  /// that it plays what is due in it: two beats at 120 in cycles of 6 000, the server running
  /// the cycles from 12 000 to 24 000 without the client; the cycle after plays the beat due at
  /// 24 000 at its start, on its grid, and no beat is skipped (rendering the cycle due at 12 000
  /// first, late, then skipping, skipped it).
  @Test func cyclesAServerRanWithoutTheClientAreSkippedBeforeTheNextIsRendered() throws {
    let sink = FakeServerSink()
    let log = PlayerLog()
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(2))), sink: sink, periodFrames: 6_000,
      onHeard: log.heard, onEnd: log.ended)
    player.start()
    sink.cycle(6_000)
    sink.cycle(6_000)
    sink.cycle(6_000, after: 12_000)

    #expect(log.all == ["0 in 0.0", "24000 in 0.0"])
    let onsets = sink.cycles.map { Onset.detect(in: $0, sampleRate: 48_000).map(\.frame) }
    #expect(onsets == [[0], [], [0]])
    #expect(player.lostFrames == 12_000)
    sink.cycle(6_000, after: 6_000)
    #expect(player.lostFrames == 18_000)
    // A frame time behind the one expected is counted too.
    sink.cycle(6_000, after: -6_000)
    #expect(player.lostFrames == 24_000)
    // Past the run's end (48 000) the cycles end it, once.
    for _ in 1...4 { sink.cycle(6_000) }
    #expect(log.all == ["0 in 0.0", "24000 in 0.0", "ended"])
  }

  /// A device that dropped 30 000 frames of the stream got ahead of it: the player waits that
  /// long in silence, written in periods (the sink's buffer is sized for them), and every later
  /// click comes 30 000 frames later in the stream.
  @Test func framesAGlitchDroppedAreWaitedForInSilence() throws {
    var writes: [Int] = []
    let sink = FakeAudioSink { writes.append($0) }
    sink.lostFrames = [-30_000]
    let log = PlayerLog()
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(3))), sink: sink, periodFrames: 12_000,
      onHeard: log.heard, onEnd: log.ended)
    player.run()

    #expect(log.all == ["0 in 0.0", "24000 in 0.0", "48000 in 0.0", "ended"])
    let onsets = Onset.detect(in: sink.samples, sampleRate: 48_000).map(\.frame)
    #expect(onsets == [0, 24_000 + 30_000, 48_000 + 30_000])
    #expect(writes.max() == 12_000)
    #expect(player.lostFrames == 30_000)
  }
}
