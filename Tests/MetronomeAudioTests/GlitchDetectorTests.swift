import MetronomeAudio
import MetronomeTesting
import Testing

/// A device at 48 kHz, read at uneven times, whose position moves in cycles of 256 frames (as
/// PipeWire's does) or to the frame with a little jitter (as PulseAudio's does).
private struct SimulatedDevice {
  var generator = SeededGenerator(seed: 7)
  var detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 256, bufferFrames: 1_024)
  /// The step the position moves by: 256, or 1 for a device that reports frames.
  var cycle: Int64 = 256
  /// Frames of the stream the device has played.
  var heard: Int64 = 0
  /// Device time in frames, which the stream follows unless a glitch says otherwise.
  var deviceFrames: Double = 0
  /// How many of the device's frames passed without the stream.
  var behind: Int64 = 0
  /// Parts per million by which the device's clock runs fast of the system's.
  var drift: Double = 0
  /// Readings still to come that report a stale position (moving a fixed 300 frames per
  /// reading, whatever the time), as PulseAudio's plugin does for a while after a stop.
  var staleReadings = 0
  /// Frames of silence played before the stream (`ALSASink`'s lead-in): positions heard during it
  /// are negative.
  var leadIn: Int64 = 0

  /// Plays on for `frames`, then reads the position (late by `lateness` frames) and returns what
  /// the detector says was lost.
  mutating func play(_ frames: Double, readLateBy lateness: Double = 0) -> Int64 {
    deviceFrames += frames
    if staleReadings > 0 {
      staleReadings -= 1
      heard += 300
    } else {
      let jitter = cycle == 1 ? Int64.random(in: -2...2, using: &generator) : 0
      heard = Int64(deviceFrames) / cycle * cycle - behind + jitter - leadIn
    }
    let systemFrames = deviceFrames * (1 - drift / 1_000_000) + lateness
    return detector.lostFrames(
      at: PlaybackPosition(heardFrames: heard, nanoseconds: Int64(systemFrames / 48_000 * 1e9)))
  }

  /// Reads every 5 to 11 ms for `seconds`, and lists what the detector found.
  mutating func playSteadily(seconds: Double) -> [Int64] {
    var found: [Int64] = []
    var played = 0.0
    while played < seconds * 48_000 {
      let step = Double.random(in: 240...528, using: &generator)
      found.append(play(step))
      played += step
    }
    return found.filter { $0 != 0 }
  }
}

/// Readings of a device that reports frames, taken a step apart (one frame more and less in
/// turn) and never late, each at an exact offset (`behind`: frames played without the stream):
/// the detector's rules, edge by edge, with nothing random.
struct ExactReadings {
  var detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 256, bufferFrames: 1_024)
  /// The step the device's position moves by: 1 for a device that reports frames.
  var cycle: Int64 = 1
  /// The rate the frames count at.
  var rate: Int64 = 48_000
  /// Frames between readings: 240 is 5 ms.
  var step: Int64 = 240
  /// The monotonic clock's frames at the first reading: an hour after the machine started.
  var frames: Int64 = 48_000 * 3_600
  var count = 0

  /// Reads once, `after` frames (a step) after the last reading, `behind` frames behind the
  /// start's grid, and returns what was found lost.
  mutating func read(behind: Int64, after: Int64? = nil) -> Int64 {
    count += 1
    frames += after ?? (count.isMultiple(of: 2) ? step + 1 : step - 1)
    let nanoseconds = frames * 1_000_000_000 / rate
    return detector.lostFrames(
      at: PlaybackPosition(heardFrames: frames / cycle * cycle - behind, nanoseconds: nanoseconds))
  }

  /// Reads `count` times on the grid, and returns what was found.
  mutating func readSteadily(_ count: Int) -> [Int64] { (0..<count).map { _ in read(behind: 0) } }
}

@Suite(.timeLimit(.minutes(1)))
struct GlitchDetectorTests {
  @Test func aSteadyDeviceLosesNothing() {
    var device = SimulatedDevice()
    #expect(device.playSteadily(seconds: 60) == [])
  }

  @Test func clocksThatDriftApartLoseNothing() {
    var device = SimulatedDevice()
    device.drift = 200
    #expect(device.playSteadily(seconds: 600) == [])
  }

  @Test func aPositionReadLateOnceIsNotAGlitch() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 1)
    #expect(device.play(300, readLateBy: 960) == 0)
    #expect(device.playSteadily(seconds: 1) == [])
  }

  /// The process stopped for 300 ms while the server played 56 cycles without it.
  @Test func aStopIsFoundOnceInWholeCycles() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = 56 * 256
    var found = [device.play(56 * 256)]
    for _ in 0..<3 { found.append(device.play(256)) }
    found += device.playSteadily(seconds: 2)
    #expect(found.filter { $0 != 0 } == [14_336])
  }

  /// A server that dropped 3 cycles of the stream put it ahead by that much.
  @Test func droppedFramesAreFoundAsTheStreamGettingAhead() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = -768
    var found: [Int64] = []
    for _ in 0..<3 { found.append(device.play(256)) }
    found += device.playSteadily(seconds: 2)
    #expect(found.filter { $0 != 0 } == [-768])
  }

  /// A position far ahead of what the device could have taken (more than it held) is not
  /// trusted: nothing is waited for, and the detector settles again on the new position.
  @Test func aPositionAheadByMoreThanTheDeviceHeldIsNotALoss() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = -10_000_000
    #expect(device.playSteadily(seconds: 2) == [])
  }

  @Test func aDeviceReportingFramesThatDriftsLosesNothing() {
    var device = SimulatedDevice(cycle: 1)
    device.drift = 200
    #expect(device.playSteadily(seconds: 600) == [])
  }

  /// PulseAudio's estimate of its position corrects itself every second and a half by steps of
  /// up to 26 frames, with nothing lost: none of them is taken for a loss.
  @Test func anEstimateThatCorrectsItselfLosesNothing() {
    var device = SimulatedDevice(cycle: 1)
    var found: [Int64] = []
    for _ in 0..<40 {
      found += device.playSteadily(seconds: 1.5)
      let step = Int64.random(in: 7...26, using: &device.generator)
      // Away from where the estimate wandered to, as often as not past where it started.
      device.behind += device.behind > 0 ? -step : step
    }
    #expect(found == [], "\(found)")
  }

  /// A sound server ran short for 150 frames, a little over 3 ms: too little for a device that
  /// moves in cycles to show, found to within a frame on one that reports frames.
  @Test func aLossOfThreeMillisecondsIsFoundToTheFrame() {
    var device = SimulatedDevice(cycle: 1)
    _ = device.playSteadily(seconds: 2)
    device.behind = 150
    let found = device.playSteadily(seconds: 2)
    // Averaged over readings that jitter by ±2 frames: right to within one.
    #expect(found.count == 1 && abs((found.first ?? 0) - 150) <= 1, "\(found)")
  }

  /// An estimate that runs slow of its stream for seconds and steps ahead again is not a loss.
  ///
  /// Beside five busy loops, PulseAudio's ran slow by up to 8 000 ppm, then stepped ahead by as
  /// much every second and a half (300, 570, 420, and down to 70 frames), with nothing lost: none
  /// of it is taken for a loss, either way.
  @Test func anEstimateRunningSlowAndCorrectedInStepsLosesNothing() {
    var device = SimulatedDevice(cycle: 1)
    _ = device.playSteadily(seconds: 1)
    var (found, ramp): ([Int64], Double) = ([], 0)
    for correction in [300.0, 570, 420, 300, 210, 140, 100, 70] {
      var played = 0.0
      while played < 72_000 {
        let step = Double.random(in: 240...528, using: &device.generator)
        ramp += step * correction / 72_000
        device.behind = Int64(ramp)
        found.append(device.play(step))
        played += step
      }
      ramp -= correction
    }
    #expect(found.filter { $0 != 0 } == [], "\(found.filter { $0 != 0 })")
  }

  /// Readings close together teach the rate nothing: a loss across a stop is measured to the
  /// frame.
  ///
  /// PipeWire's plugin gave positions to the frame, within half a frame, read twice a cycle of
  /// 21.6 ms, 0.1 ms apart. Learned over those 0.1 ms, the rate put a 300 ms stop's loss of 13 312
  /// frames 1 to 2 frames off in three takes of six, and the clicks after it with it. Here the
  /// positions jitter by two frames, and the stream loses 14 400 (without the rule: 14 402).
  @Test func readingsCloseTogetherTeachTheRateNothing() {
    var generator = SeededGenerator(seed: 5)
    var readings = ExactReadings()
    func readPairs(_ count: Int, behind: Int64) -> [Int64] {
      (0..<count).flatMap { _ in
        [5, 1_032].map { readings.read(behind: behind + Int64.random(in: -2...2, using: &generator), after: $0) }
      }
    }
    var found = readPairs(150, behind: 0)
    found.append(readings.read(behind: 14_400, after: 1_037 + 14_400))
    found += readPairs(20, behind: 14_400)
    #expect(found.filter { $0 != 0 } == [14_400], "\(found.filter { $0 != 0 })")
  }

  /// After a 300 ms stop the position is stale for a quarter of a second, then right: the loss
  /// is taken once, to within a frame, from the right positions.
  @Test func aStopIsFoundToTheFrameOnceAStalePositionSettles() {
    var device = SimulatedDevice(cycle: 1)
    _ = device.playSteadily(seconds: 2)
    device.behind = 14_000
    device.staleReadings = 25
    var found = [device.play(14_400)]
    found += device.playSteadily(seconds: 2)
    found = found.filter { $0 != 0 }
    #expect(found.count == 1 && abs((found.first ?? 0) - 14_000) <= 1, "\(found)")
  }

  /// A cycle lost 150 ms after the device started, while it still plays the lead-in, is found.
  ///
  /// A loaded run lost one before the first positions had settled (32 of them, then), and every
  /// click after the first was a cycle late. The first position that moved is stale here, as a
  /// sound server's first of a stream is (2 367 frames off in a PipeWire run, 950 in a PulseAudio
  /// one).
  @Test func aLossSoonAfterTheDeviceStartsIsFound() {
    var device = SimulatedDevice()
    device.cycle = 1
    device.leadIn = 12_288
    var found = [device.play(0), device.play(240, readLateBy: 950)]
    found += device.playSteadily(seconds: 0.15)
    device.behind = 1_024
    found.append(device.play(1_280))
    found += device.playSteadily(seconds: 1)
    #expect(found.filter { $0 != 0 }.map { abs($0 - 1_024) <= 1 } == [true], "\(found)")
  }

  /// After a server starts a stream again (a buffer grown after an underrun), its positions can
  /// be a cycle behind for that cycle, and agree with each other (PipeWire's were 1 024 frames
  /// behind for 21 ms, read five times): a stream that has played steadily for less than 100 ms
  /// has lost nothing.
  @Test func positionsThatAgreeOnlyBrieflyAfterAStartAreNotALoss() {
    var device = SimulatedDevice()
    device.cycle = 1
    var found = [device.play(0)]
    device.behind = 1_024
    for _ in 0..<6 { found.append(device.play(170)) }
    device.behind = 0
    found += device.playSteadily(seconds: 2)
    #expect(found.filter { $0 != 0 } == [])
  }

  /// At the start, positions are trusted once they have agreed for 100 ms, however long the
  /// machine has been up: six read 5 ms apart are not yet, thirty are.
  @Test(arguments: [(steady: 6, lost: 0), (steady: 30, lost: 1_024)] as [(steady: Int, lost: Int64)])
  func atTheStartPositionsAreTrustedAfterAgreeingFor100Milliseconds(steady: Int, lost: Int64) {
    var readings = ExactReadings()
    var found = [readings.read(behind: 0), readings.read(behind: 0)] + readings.readSteadily(steady)
    found.append(readings.read(behind: 1_024, after: 1_280))
    found += (0..<12).map { _ in readings.read(behind: 1_024) }
    #expect(found.reduce(0, +) == lost, "\(found)")
  }

  /// At the start, 100 ms of agreement is enough to the nanosecond: four positions read 25 ms
  /// apart are trusted, four read a frame sooner each are not.
  @Test(arguments: [(apart: 1_200, lost: 1_024), (apart: 1_199, lost: 0)] as [(apart: Int64, lost: Int64)])
  func atTheStartAHundredMillisecondsOfAgreementIsEnough(apart: Int64, lost: Int64) {
    var readings = ExactReadings()
    var found = [readings.read(behind: 0), readings.read(behind: 0)]
    found += (0..<4).map { _ in readings.read(behind: 0, after: apart) }
    found.append(readings.read(behind: 1_024, after: 1_280))
    found += (0..<12).map { _ in readings.read(behind: 1_024) }
    #expect(found.reduce(0, +) == lost, "\(found)")
  }

  /// At the start, four positions must agree, however far apart: read 40 ms apart, three are
  /// not trusted, four are.
  @Test(arguments: [(steady: 3, lost: 0), (steady: 4, lost: 1_024)] as [(steady: Int, lost: Int64)])
  func atTheStartFourPositionsMustAgree(steady: Int, lost: Int64) {
    var readings = ExactReadings(step: 1_920)
    var found = [readings.read(behind: 0), readings.read(behind: 0)] + readings.readSteadily(steady)
    found += (0..<12).map { _ in readings.read(behind: 1_024) }
    #expect(found.reduce(0, +) == lost, "\(found)")
  }

  /// After a position not to be trusted, positions that agree for 150 ms are not trusted yet.
  ///
  /// At the start they would be, but a sound server's positions after a stop can stay stale for
  /// longer: only 32 in a row are trusted again.
  @Test func afterAPositionNotTrustedPositionsMustAgreeLongerThanAtTheStart() {
    var device = SimulatedDevice()
    device.cycle = 1
    _ = device.playSteadily(seconds: 2)
    device.behind = -10_000_000
    var found = [device.play(256)]
    found += device.playSteadily(seconds: 0.15)
    device.behind += 1_024
    found.append(device.play(1_280))
    found += device.playSteadily(seconds: 1)
    #expect(found.filter { $0 != 0 } == [], "\(found)")
  }

  /// A step that all but two of eight readings agree on is a loss: their mean, rounded.
  ///
  /// Each agreeing reading is within 3 frames of their median (the fifth smallest, not the
  /// third): a reading 6 off is not among them. With five agreeing it is not a loss yet, nor
  /// before the eighth reading.
  @Test(
    arguments: [
      (behind: [159, 160, 161, 400, 300, 160, 162, 160], lost: 160),
      (behind: [160, 164, 160, 400, 161, 300, 160, 162], lost: 161),
      (behind: [159, 160, 161, 400, 300, 160, 600, 500], lost: 0),
      (behind: [160, 160, 160, 160, 160, 160, 166, 400], lost: 160),
      (behind: [160, 160, 160, 160, 161, 161, 161, 400], lost: 160),
    ] as [(behind: [Int64], lost: Int64)])
  func aStepIsTakenWhenAllButTwoOfEightReadingsAgree(behind: [Int64], lost: Int64) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found = behind.map { readings.read(behind: $0) }
    #expect(found.dropLast().allSatisfy { $0 == 0 })
    #expect(found.last == lost, "\(found)")
  }

  /// Two positions read late a second apart are not a loss, nor two read late in a row by
  /// amounts more than half a cycle apart, on a device that moves in whole cycles.
  @Test func positionsReadLateApartOrDisagreeingAreNotALoss() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    var found = [device.play(240, readLateBy: 700)]
    found += device.playSteadily(seconds: 1)
    found.append(device.play(240, readLateBy: 700))
    found += device.playSteadily(seconds: 1)
    found.append(device.play(240, readLateBy: 600))
    found.append(device.play(240, readLateBy: 1_100))
    found += device.playSteadily(seconds: 1)
    #expect(found.filter { $0 != 0 } == [], "\(found)")
  }

  /// Positions that never agree again after a jump are not trusted after two seconds; once they
  /// agree again, how far they settled from the last trusted position is the loss, found once.
  @Test func positionsThatWanderForTwoSecondsAreMeasuredOnceTheySettle() {
    var device = SimulatedDevice()
    device.cycle = 1
    _ = device.playSteadily(seconds: 2)
    var found: [Int64] = []
    for step in 0..<300 {
      device.behind = 200 + Int64(step % 7) * 160
      found.append(device.play(480))
    }
    device.behind = 400
    let settling = (0..<33).map { _ in device.play(480) }
    found += device.playSteadily(seconds: 2)
    // Only once 32 agree: before, the positions were not trusted, and a jump is not a loss.
    #expect(settling.dropLast().allSatisfy { $0 == 0 } && found.filter { $0 != 0 } == [], "\(settling)")
    #expect(settling.last.map { (397...403).contains($0) } == true, "\(settling)")
  }

  /// A sink that starts its stream again (an underrun, its buffer grown) reads stale positions
  /// first: the loss is measured from the last trusted position once 32 agree again, to the frame.
  @Test(arguments: [150, 0, 8_000] as [Int64])
  func aLossAcrossPositionsNotTrustedIsFoundOnceTheyAgreeAgain(behind: Int64) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    #expect(readings.read(behind: -100_000) == 0)
    let found = (0..<40).map { _ in readings.read(behind: behind) }
    #expect(found.prefix(32).allSatisfy { $0 == 0 }, "\(found)")
    #expect(found.dropFirst(32).first == behind, "\(found)")
    #expect(found.dropFirst(33).allSatisfy { $0 == 0 }, "\(found)")
  }

  /// On a device that reports frames, positions that agree again ahead of the last trusted one
  /// (a new stream's estimate, once 73 frames off in a soak) cut nothing: nothing is waited for,
  /// and when they come back, nothing is skipped.
  @Test(arguments: [-200, -1_000] as [Int64])
  func positionsAgreeingAgainAheadAreTheEstimatesNotALoss(behind: Int64) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    #expect(readings.read(behind: -100_000) == 0)
    let found = (0..<40).map { _ in readings.read(behind: behind) } + readings.readSteadily(40)
    #expect(found.allSatisfy { $0 == 0 }, "\(found)")
  }

  /// A step ahead on a device that reports frames is its estimate's: PulseAudio's stepped 300 to
  /// 570 frames ahead beside five busy loops, and stayed there, with nothing cut.
  ///
  /// Nothing is waited for, a step back is not skipped, and a loss after it is found from where
  /// the stream is. A step back past where the stream is, is a loss only past it.
  @Test(
    arguments: [(back: 0, lost: 0), (back: 160, lost: 160), (back: 300, lost: 300)] as [(back: Int64, lost: Int64)])
  func aStepAheadOnADeviceReportingFramesIsItsEstimates(back: Int64, lost: Int64) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let ahead = (0..<400).map { _ in readings.read(behind: -200) }
    let stepBack = (0..<40).map { _ in readings.read(behind: back) }
    let later = (0..<40).map { _ in readings.read(behind: back + 160) }
    #expect(ahead.allSatisfy { $0 == 0 }, "\(ahead)")
    #expect(stepBack.filter { $0 != 0 } == (lost == 0 ? [] : [lost]), "\(stepBack)")
    #expect(later.filter { $0 != 0 } == [160], "\(later)")
  }

  /// On a device that reports frames, a step ahead after a loss takes the loss back, but no more.
  ///
  /// The step ahead says the estimate had stepped behind, and the stream is not ahead of where it
  /// started. The same step behind again is the loss again, past what the estimate stepped ahead.
  @Test(
    arguments: [
      (ahead: 160, found: [160, -160, 160]), (ahead: 250, found: [160, -160, 160]), (ahead: 100, found: [160]),
    ]
      as [(ahead: Int64, found: [Int64])])
  func aStepAheadTakesBackWhatWasTakenAsLostAndNoMore(ahead: Int64, found expected: [Int64]) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found =
      (0..<40).map { _ in readings.read(behind: 160) } + (0..<40).map { _ in readings.read(behind: 160 - ahead) }
      + (0..<40).map { _ in readings.read(behind: 160) }
    #expect(found.filter { $0 != 0 } == expected, "\(found)")
  }

  /// What was found lost before the grid was set (during a sink's lead-in) moved no click: a
  /// step ahead after it takes none of it back.
  @Test(
    arguments: [(gridSet: true, found: [160]), (gridSet: false, found: [160, -160])]
      as [(gridSet: Bool, found: [Int64])])
  func aLossBeforeTheGridIsSetIsNotTakenBack(gridSet: Bool, found expected: [Int64]) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    var found = (0..<40).map { _ in readings.read(behind: 160) }
    if gridSet { readings.detector.setGrid() }
    found += (0..<40).map { _ in readings.read(behind: 0) }
    #expect(found.filter { $0 != 0 } == expected, "\(found)")
  }

  /// On a device that reports cycles, a server that dropped what it held put the stream ahead:
  /// as much as it holds, plus a cycle, is a loss, found from the second reading of it; a cycle
  /// more is a position not to be trusted.
  @Test(arguments: [(behind: -1_280, found: [1: -1_280]), (behind: -1_536, found: [:])] as [(Int64, [Int: Int64])])
  func aStepAheadOnADeviceReportingCyclesIsACutUpToWhatItHolds(behind: Int64, found expected: [Int: Int64]) {
    var readings = ExactReadings(cycle: 256)
    #expect((0..<200).allSatisfy { _ in readings.read(behind: 0, after: 256) == 0 })
    let found = (0..<40).map { _ in readings.read(behind: behind, after: 256) }
    #expect(Dictionary(uniqueKeysWithValues: found.enumerated().filter { $0.element != 0 }) == expected, "\(found)")
  }

  /// A stream set up again (a position not to be trusted) learns its rate again: after positions
  /// that moved 3 frames a reading for 300 readings, a new stream whose positions stand still is
  /// measured once, from where the old one's were last trusted, and nothing after.
  @Test func aRateLearnedBeforeAStreamIsSetUpAgainIsForgotten() {
    var readings = ExactReadings()
    var found = (0..<300).map { readings.read(behind: Int64($0) * 3) }
    found.append(readings.read(behind: -100_000))
    found += (0..<300).map { _ in readings.read(behind: 1_200) }
    // 303 frames from the last position trusted, and the 4 the baseline still lagged it by.
    #expect(found.filter { $0 != 0 } == [307], "\(found.filter { $0 != 0 })")
  }

  /// A reading at the same instant as the last teaches the rate nothing (no time passed): a loss
  /// after it is found from eight readings, as ever.
  @Test func aReadingAtTheSameInstantAsTheLastChangesNothing() {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    #expect(readings.read(behind: 2, after: 0) == 0)
    let found = (0..<8).map { _ in readings.read(behind: 160) }
    #expect(found.last == 160, "\(found)")
  }

  /// The estimate moving behind again, too slowly to be a step, goes back over a step of it ahead:
  /// after a step 200 frames ahead and a drift of 200 back (a frame a reading, then a third of
  /// one), a loss of 160 is found whole.
  @Test(arguments: [1.0, 1.0 / 3])
  func anEstimateDriftingBackAfterAStepAheadLeavesALossWhole(framesPerReading: Double) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    var found = (0..<40).map { _ in readings.read(behind: -200) }
    let drift = Int(200 / framesPerReading)
    found += (1...drift).map { readings.read(behind: -200 + Int64((Double($0) * framesPerReading).rounded())) }
    found += readings.readSteadily(200)
    found += (0..<40).map { _ in readings.read(behind: 160) }
    // To within the few frames the rate the drift taught still moves the baseline by.
    #expect(found.filter { $0 != 0 }.map { abs($0 - 160) <= 3 } == [true], "\(found.filter { $0 != 0 })")
  }

  /// Positions that agree again further from the last trusted one than the time since could
  /// have lost, or ahead by more than the device held, are a new start, not a loss.
  @Test(arguments: [20_000, -2_000] as [Int64])
  func positionsAgreeingAgainFurtherThanALossCouldBeAreANewStart(behind: Int64) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    #expect(readings.read(behind: -100_000) == 0)
    let found = (0..<40).map { _ in readings.read(behind: behind) }
    #expect(found.allSatisfy { $0 == 0 }, "\(found)")
  }

  /// On a device that reports whole cycles, the loss across positions not trusted is rounded to
  /// whole cycles.
  @Test func aLossAcrossPositionsNotTrustedIsWholeCycles() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = -10_000_000
    var found = [device.play(256)]
    device.behind = 700
    found += device.playSteadily(seconds: 1)
    #expect(found.filter { $0 != 0 } == [768], "\(found)")
  }

  /// On a device that estimates its position to the frame, a step is a loss from 3 ms on (144
  /// frames at 48 kHz), and only from six times the jitter at rates where 3 ms is less (18
  /// frames at 4 kHz).
  @Test(
    arguments: [
      (rate: 48_000, behind: 140, lost: 0), (rate: 48_000, behind: 150, lost: 150),
      (rate: 4_000, behind: 16, lost: 0), (rate: 4_000, behind: 20, lost: 20),
    ] as [(rate: Int, behind: Int64, lost: Int64)])
  func aStepIsALossFromThreeMillisecondsOrSixTimesTheJitter(rate: Int, behind: Int64, lost: Int64) {
    var readings = ExactReadings(
      detector: GlitchDetector(sampleRate: rate, cycleFrames: 256, bufferFrames: 1_024), rate: Int64(rate))
    readings.step = Int64(rate / 200)
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found = (0..<8).map { _ in readings.read(behind: behind) }
    #expect(found.filter { $0 != 0 } == (lost == 0 ? [] : [lost]), "\(found)")
  }

  /// The last eight readings are what agree: after five that disagree with what follows, the
  /// sixth of those that agree, three readings later than eight would have, is the loss.
  @Test func onlyTheLastEightReadingsMustAgree() {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found = ([-300, -300, -300, -300, -300] + Array(repeating: 160, count: 6)).map { readings.read(behind: $0) }
    #expect(found.dropLast().allSatisfy { $0 == 0 } && found.last == 160, "\(found)")
  }

  /// Two losses one after the other are each found from eight readings of their own.
  @Test func aSecondLossIsFoundFromReadingsOfItsOwn() {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found = (0..<8).map { _ in readings.read(behind: 160) } + (0..<8).map { _ in readings.read(behind: 320) }
    #expect(found.enumerated().filter { $0.element != 0 }.map(\.offset) == [7, 15], "\(found)")
  }

  /// The baseline follows a shift too small to be a loss by a sixteenth a reading, and its rate a
  /// little: a loss after ten readings of it is measured from there (51 of the 100 frames
  /// followed, so 300 frames behind read as 249 lost).
  @Test func aShiftTooSmallToBeALossIsFollowedASixteenthAReading() {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let shifted = (0..<10).map { _ in readings.read(behind: 100) }
    let found = (0..<8).map { _ in readings.read(behind: 300) }
    #expect(shifted.allSatisfy { $0 == 0 } && found.last == 249, "\(found)")
  }

  /// A jump no larger than the time since the last agreeing position (plus a cycle) is a loss
  /// from eight readings; a larger one is not trusted, and is measured only once 32 positions
  /// agree again.
  @Test(
    arguments: [
      (behind: 700, apart: 480, at: [7]), (behind: 1_000, apart: 240, at: [32]),
    ] as [(behind: Int64, apart: Int64, at: [Int])])
  func aJumpTheTimeCouldNotExplainIsMeasuredOnlyOnceTrustedAgain(behind: Int64, apart: Int64, at: [Int]) {
    var readings = ExactReadings()
    #expect(readings.readSteadily(200).allSatisfy { $0 == 0 })
    let found = [readings.read(behind: behind, after: apart)] + (0..<40).map { _ in readings.read(behind: behind) }
    #expect(found.enumerated().filter { $0.element != 0 }.map(\.offset) == at, "\(found)")
    #expect(found.reduce(0, +) == (at.isEmpty ? 0 : behind), "\(found)")
  }

  /// A device whose position moves 16 frames at a time reports cycles: a step of 300 frames (a
  /// loss on one that reports frames) is within its jitter, even where its positions are not on
  /// multiples of 16 (a lead-in's frames before them).
  @Test func aDeviceMovingSixteenFramesAtATimeReportsCycles() {
    var readings = ExactReadings(cycle: 16)
    var found: [Int64] = []
    for index in 0..<200 { found.append(readings.read(behind: 4, after: index.isMultiple(of: 2) ? 240 : 256)) }
    for index in 0..<40 { found.append(readings.read(behind: 304, after: index.isMultiple(of: 2) ? 240 : 256)) }
    #expect(found.allSatisfy { $0 == 0 }, "\(found)")
  }

  /// On a device of 1 024-frame cycles a loss is two cycles or more, one is within its jitter;
  /// on one of 128-frame cycles, 10 ms or more (480 frames at 48 kHz): three cycles are not, four
  /// are.
  ///
  /// Read once a cycle, at its start; the loss is taken from the second reading that shows it.
  @Test(
    arguments: [
      (cycle: 1_024, behind: 1_024, lost: 0), (cycle: 1_024, behind: 3_072, lost: 3_072),
      (cycle: 128, behind: 384, lost: 0), (cycle: 128, behind: 512, lost: 512),
    ] as [(cycle: Int64, behind: Int64, lost: Int64)])
  func aLossIsTwoCyclesOrTenMilliseconds(cycle: Int64, behind: Int64, lost: Int64) {
    var readings = ExactReadings(
      detector: GlitchDetector(sampleRate: 48_000, cycleFrames: Int(cycle), bufferFrames: 4_096), cycle: cycle)
    #expect((0..<200).allSatisfy { _ in readings.read(behind: 0, after: cycle) == 0 })
    let found =
      [readings.read(behind: behind, after: cycle + behind)]
      + (0..<8).map { _ in readings.read(behind: behind, after: cycle) }
    #expect(found == (lost == 0 ? [] : [0, lost]) + Array(repeating: 0, count: lost == 0 ? 9 : 7), "\(found)")
  }

  /// On a device that reports cycles, two readings of a jump agree within half a cycle: read
  /// 400 frames into a 1 024-frame cycle, the second still agrees with the first.
  @Test func twoReadingsInCyclesAgreeWithinHalfACycle() {
    var readings = ExactReadings(
      detector: GlitchDetector(sampleRate: 48_000, cycleFrames: 1_024, bufferFrames: 4_096), cycle: 1_024)
    #expect((0..<200).allSatisfy { _ in readings.read(behind: 0, after: 1_024) == 0 })
    let found = [readings.read(behind: 3_072, after: 4_096), readings.read(behind: 3_072, after: 1_424)]
    #expect(found == [0, 3_072], "\(found)")
  }

  @Test func nothingCountsBeforeTheDeviceHasPlayed() {
    var detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 256, bufferFrames: 1_024)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 0)) == 0)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 1_000_000_000)) == 0)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 2_000_000_000)) == 0)
  }
}
