import Foundation
import MetronomeCore
import MetronomeEngine
import Testing

/// A sink that takes writes at once and reports a fixed device delay.
private final class FixedDelaySink: AudioSink {
  let sampleRate = SampleRate.standard
  let outputDelayFrames: Int64
  let underrunCount = 0
  private(set) var framesWritten = 0
  private(set) var finished = false

  init(delayFrames: Int64) { outputDelayFrames = delayFrames }

  func write(_ period: RenderedPeriod) throws { framesWritten += period.frames }

  func finish() throws { finished = true }
}

/// What the player reported, gathered from its render thread.
private final class HeardLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [(frame: Int64, seconds: Double)] = []

  func add(_ beat: Beat, _ seconds: Double) { lock.withLock { entries.append((beat.frame, seconds)) } }
  var all: [(frame: Int64, seconds: Double)] { lock.withLock { entries } }
}

struct LivePlayerTests {
  /// Three beats at 120 in periods of a second: the second period is cut at the run's end
  /// (72 000), so its beat at 48 000 is heard 60 000 − (72 000 − 48 000) frames after the write.
  @Test func reportsWhenEachBeatIsHeardCountingFromWhatWasWritten() throws {
    let sink = FixedDelaySink(delayFrames: 60_000)
    let log = HeardLog()
    let player = LivePlayer(
      engine: ClickEngine(settings: PlaybackSettings(length: .beats(3))), sink: sink, periodFrames: 48_000,
      onHeard: log.add)
    player.start()
    try player.wait()

    let heardAfterFrames: [Double] = log.all.map { $0.seconds * 48_000 }
    #expect(log.all.map(\.frame) == [0, 24_000, 48_000])
    #expect(heardAfterFrames == [12_000, 36_000, 36_000])
    #expect(sink.framesWritten == 72_000)
    #expect(sink.finished)
  }
}
