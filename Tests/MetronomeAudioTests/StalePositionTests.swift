import MetronomeAudio
import MetronomeTesting
import Testing

/// A sound card at 48 kHz read through ALSA, as qemu's emulated AC'97 behind dmix was: read about
/// every 21 ms (one write of 1 024 frames), each reading's position stale by 0 to 8 ms, since the
/// card moves it only when the emulator next hands it a chunk.
private struct StaleCard {
  var generator: SeededGenerator
  var detector: GlitchDetector
  /// The step the card's position moves by: 1 for one that reports frames.
  var cycle: Int64 = 1
  /// The card's time in frames, and how many of them passed without the stream.
  var frames: Double = 48_000 * 3_600
  var behind: Int64 = 0

  init(seed: UInt64, mayBeStale: Bool = true, cycle: Int64 = 1) {
    generator = SeededGenerator(seed: seed)
    detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 1_024, bufferFrames: 8_192, mayBeStale: mayBeStale)
    self.cycle = cycle
  }

  /// Reads every 16 to 26 ms for `seconds`, and lists what the detector found, in order.
  mutating func play(seconds: Double) -> [Int64] {
    var found: [Int64] = []
    let end = frames + seconds * 48_000
    while frames < end {
      frames += Double.random(in: 768...1_248, using: &generator)
      let stale = cycle == 1 ? Double.random(in: 0...384, using: &generator) : 0
      let heard = Int64(frames - stale) / cycle * cycle - behind
      let lost = detector.lostFrames(
        at: PlaybackPosition(heardFrames: heard, nanoseconds: Int64(frames / 48_000 * 1e9)))
      if lost != 0 { found.append(lost) }
    }
    return found
  }

  /// The stream stops for `milliseconds` while the card plays on.
  mutating func stop(milliseconds: Double) {
    frames += milliseconds * 48
    behind += Int64(milliseconds * 48)
  }
}

@Suite(.timeLimit(.minutes(1)))
struct StalePositionTests {
  /// Ten seconds of stale readings, with nothing lost, lose nothing.
  @Test(arguments: Array(1...8) as [UInt64])
  func aSoundCardReadStaleLosesNothing(seed: UInt64) {
    var card = StaleCard(seed: seed)
    #expect(card.play(seconds: 10) == [])
  }

  /// A stop of 150 ms is found once, within a millisecond (the least loss taken), from the
  /// earliest of the readings after it, in under two seconds: the emulated card's was in 1.3 s.
  @Test(arguments: Array(1...8) as [UInt64])
  func aStopOnASoundCardReadStaleIsFoundOnce(seed: UInt64) {
    var card = StaleCard(seed: seed)
    _ = card.play(seconds: 3)
    card.stop(milliseconds: 150)
    let soon = card.play(seconds: 2)
    let later = card.play(seconds: 5)
    #expect(soon.count == 1 && abs((soon.first ?? 0) - 7_200) < 48 && later == [], "\(soon) then \(later)")
  }

  /// A card that reports whole cycles is read against its own steps, stale or not: a stop is
  /// found when it would be on any device that reports cycles.
  @Test func aSoundCardReportingCyclesIsReadAsAnyDeviceReportingCycles() {
    let found = [StaleCard(seed: 4, cycle: 1_024), StaleCard(seed: 4, mayBeStale: false, cycle: 1_024)].map {
      var card = $0
      _ = card.play(seconds: 3)
      card.stop(milliseconds: 64)
      return card.play(seconds: 3)
    }
    #expect(found[0] == [3_072] && found[0] == found[1], "\(found)")
  }
}
