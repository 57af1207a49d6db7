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
    while frames < end { found += read() }
    return found
  }

  /// Reads once, 16 to 26 ms after the last reading: what the detector found, if anything.
  mutating func read() -> [Int64] {
    frames += Double.random(in: 768...1_248, using: &generator)
    let stale = cycle == 1 ? Double.random(in: 0...384, using: &generator) : 0
    let heard = Int64(frames - stale) / cycle * cycle - behind
    let lost = detector.lostFrames(at: PlaybackPosition(heardFrames: heard, nanoseconds: Int64(frames / 48_000 * 1e9)))
    return lost == 0 ? [] : [lost]
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

  /// A stop of 150 ms is found once, within 2 ms (the least loss taken from a stale card), from
  /// the earliest of the readings after it, in under two seconds: the emulated card's was in 1.3 s.
  @Test(arguments: Array(1...8) as [UInt64])
  func aStopOnASoundCardReadStaleIsFoundOnce(seed: UInt64) {
    var card = StaleCard(seed: seed)
    _ = card.play(seconds: 3)
    card.stop(milliseconds: 150)
    let soon = card.play(seconds: 2)
    let later = card.play(seconds: 5)
    #expect(soon.count == 1 && abs((soon.first ?? 0) - 7_200) < 96 && later == [], "\(soon) then \(later)")
  }

  /// Positions read through the lead-in (`readingsToSettle` of them) have settled: a stop just
  /// after it is found.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func aStopJustAfterTheLeadInIsFound(seed: UInt64) {
    var card = StaleCard(seed: seed)
    var found: [Int64] = []
    for _ in 0..<card.detector.readingsToSettle { found += card.read() }
    card.stop(milliseconds: 150)
    found += card.play(seconds: 3)
    #expect(found.count == 1 && abs((found.first ?? 0) - 7_200) < 96, "\(found)")
  }

  /// While the readings from before a stop leave the 32 the earliest is taken from, the earliest
  /// of those left rises with no loss.
  ///
  /// Here, read every 21 ms, one reading in 32 is on time and the rest 120 frames late, and the
  /// stop comes when the one on time is the oldest. Only the stop is found, once none from before
  /// it is left.
  @Test func readingsFromBeforeAStopLeavingTheEarliestsWindowAreNoLoss() {
    var readings = Self.staleCardRead(step: 1_024)
    let found = (0..<(32 * 8 + 48)).map { index in
      index < 32 * 8
        ? readings.read(behind: index.isMultiple(of: 32) ? 0 : 120)
        : readings.read(behind: 7_200, after: index == 32 * 8 ? 7_200 + 1_023 : nil)
    }
    #expect(found.filter { $0 != 0 } == [7_200])
  }

  /// Jumps of the earliest that came to nothing (fewer in a row than it takes to measure one)
  /// do not count towards the next: three times 42 readings 120 frames late between readings on
  /// time (eleven jumps each), then the stop of the test above, found once.
  @Test func jumpsThatCameToNothingCountNothingTowardsTheNext() {
    var late: [Bool] = Array(repeating: false, count: 64)
    for _ in 0..<3 { late += Array(repeating: true, count: 42) + [false] }
    late += Array(repeating: true, count: 31)
    var readings = Self.staleCardRead(step: 1_024)
    var found = late.map { readings.read(behind: $0 ? 120 : 0) }
    found.append(readings.read(behind: 7_200, after: 7_200 + (late.count.isMultiple(of: 2) ? 1_023 : 1_025)))
    found += (0..<47).map { _ in readings.read(behind: 7_200) }
    #expect(found.filter { $0 != 0 } == [7_200])
  }

  /// The earliest is of the last 32 readings.
  ///
  /// Read every 21 ms, on time and then each 200 frames late, the position is taken as 200
  /// frames further on once the last reading on time has left the 32: the 32nd late one is the
  /// first jump, jumps are measured from the 33rd on, and eight of them agree at the 71st.
  @Test func theEarliestIsOfTheLast32Readings() {
    var readings = Self.staleCardRead(step: 1_024)
    let found = (0..<200).map { readings.read(behind: $0 < 60 ? 0 : 200) }
    let at = found.indices.filter { found[$0] != 0 }
    #expect(at.map { $0 - 60 } == [31 + 32 + 7] && at.map { found[$0] } == [200], "\(found)")
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

  /// Exact readings (`GlitchDetectorTests`) of a card whose positions may be stale, `step`
  /// frames apart.
  private static func staleCardRead(step: Int64) -> ExactReadings {
    ExactReadings(
      detector: GlitchDetector(sampleRate: 48_000, cycleFrames: 1_024, bufferFrames: 8_192, mayBeStale: true),
      step: step)
  }
}
