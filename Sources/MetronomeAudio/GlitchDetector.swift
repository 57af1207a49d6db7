/// Finds how many frames a glitch cost, by comparing how far the stream's playback moved with how
/// much time passed.
///
/// While nothing is lost, the time on the monotonic clock less the frames heard (both in frames)
/// stays put, give or take how the device reports its position, and moves only as slowly as the
/// device's clock drifts from the system's (or an estimate of the position runs away): the
/// detector follows its place and its rate. A glitch moves it at once: the device played on
/// without the stream (the process was stopped, the buffer ran dry: the stream is behind by what
/// was lost) or, where it reports cycles, dropped part of it (ahead).
///
/// Devices report their position in one of two ways, told apart by the positions themselves:
/// - **in whole cycles** (PipeWire's graph, a JACK period): the position moves a cycle at a time,
///   so a reading says where playback is only to within a cycle. Such a device loses whole
///   cycles; a jump of two cycles or more that two readings in a row agree on is taken, rounded to
///   whole cycles, at once.
/// - **to the frame** (PulseAudio, which estimates its position between updates): a reading
///   jitters by a few frames. Quiet, the estimate corrects itself now and then by steps of 7 to
///   26 frames with nothing lost; on a busy machine by up to 105 (a step of 63 that it held for
///   eight seconds, beside the loaded suite, was waited out and left every click after it 63
///   frames late), so only a step of 3 ms or more is a loss. The position can also be stale for a while after a stop. A step is taken
///   once most of the last eight readings agree on it, as their mean. Such a device never drops
///   what it holds (PulseAudio's ALSA plugin has the server wait, after the stream ran dry, until
///   its buffer is nearly full again; a card stops on an underrun), so the stream is never ahead
///   of where it started: a step ahead takes back what steps behind were taken for, and the rest
///   of it is the estimate's, which the estimate moving behind again goes back over before it is a
///   loss.
///
/// A sound card's position (read through ALSA, not a sound server) can also be stale: read
/// between the card's updates of it, it is late, never early. An emulated card (qemu's AC'97
/// behind ALSA's dmix) moves it in the emulator's chunks, so that readings were late by 0 to 8 ms:
/// the detector settled on a late one, took the rest for jumps that never agreed, and a stop of
/// 150 ms left every click 127 ms off its grid without a word. For such a device, where it reports
/// frames, the offset measured is the earliest of the last 32 readings', a jump is measured from
/// readings with none from before it among those 32, and a loss is 2 ms or more.
public struct GlitchDetector: Sendable {
  private let framesPerNanosecond: Double
  private let cycleFrames: Double
  private let cycleThreshold: Double
  private let frameThreshold: Double
  private let bufferFrames: Double
  private var baseline: Double?
  /// When the baseline was read, and how fast the offset moves on its own, in frames a
  /// nanosecond: the clocks' drift, or an estimate of the position running away (below).
  private var baselineNanoseconds: Int64 = 0
  private var rate = 0.0
  /// The largest step every position has moved by so far: the device's cycle, or 1.
  private var granularity: Int64 = 0
  private var firstHeard: Int64?
  /// The jumps since the last reading that agreed with the baseline.
  private var jumps: [Double] = []
  /// Room to sort the jumps in, kept so that finding their median allocates nothing.
  private var sortedJumps: [Double] = []
  /// Readings in a row that jumped from the baseline.
  private var jumpsInARow = 0
  /// Whether positions may be read stale (a sound card's), and the offsets of the last readings,
  /// the oldest overwritten first, with where the next goes.
  private let mayBeStale: Bool
  private var recentOffsets: [Double] = []
  private var nextRecent = 0
  /// The frames heard at the first reading, until the position moves from it: a device that has
  /// not played yet (a sound server still starting the stream) tells nothing of its time.
  private var unmovedHeard: Int64?
  private var hasPlayed = false
  /// Positions in a row that agreed with the baseline, and since when: a stream that has not yet
  /// played steadily (a sound server's first positions of a stream are stale) tells nothing
  /// about losses.
  private var steadyPositions = 0
  private var steadySince: Int64 = 0
  private var lastSteadyNanoseconds: Int64 = 0
  /// Whether the positions have agreed long enough for a jump from them to be a loss, and whether
  /// they ever have.
  private var isSettled = false
  private var hasSettled = false
  /// The baseline last trusted, and when its positions last agreed, while the positions are not
  /// trusted again: what they are measured against once they are.
  private var trustedBefore: (baseline: Double, nanoseconds: Int64)?
  /// On a device reporting frames, the frames taken as lost since the grid was set (0 or more),
  /// and how far its estimate has stepped ahead of the stream and not moved back (0 or less).
  private var takenBehind: Int64 = 0
  private var estimateAhead = 0.0
  /// The positions the device's granularity is learned from, and that must agree again after a
  /// jump not to be trusted (a sound server's positions after a stop can be stale for a while).
  private static let positionsToSettleAgain = 32
  /// How many positions, and for how long, must agree at the start: longer than the one stale
  /// position a sound server gives first and the cycle that can follow a start (PipeWire's were a
  /// cycle off for 21 ms after one), shorter than the lead-in a sink plays before the stream
  /// (`ALSASink`), so that a loss just after the stream's first frame is found.
  private static let positionsToSettleFirst = 4
  private static let nanosecondsToSettleFirst: Int64 = 100_000_000
  /// How many recent readings a device reporting to the frame must mostly agree on.
  private static let window = 8
  /// How many readings the earliest offset is taken from, where positions may be stale: at a
  /// reading every 21 ms, the emulated card's earliest of 32 stayed within 20 frames, of 8
  /// within 130 (a loss there starts at 96).
  private static let recentReadings = 32
  /// Frames a device reporting to the frame may jitter by.
  private static let frameJitter = 3.0
  /// The share of a reading's jump from where it was expected that the baseline follows.
  private static let followedShare: Double = 1.0 / 16
  /// How much of a reading's jump from where it was expected moves the rate, per nanosecond
  /// since the baseline.
  ///
  /// A quarter of what would make, with the sixteenth that moves the baseline, a critically damped
  /// alpha-beta filter ((1/16)^2 / (2 - 1/16) = 0.002016), so that a step too small to be a loss
  /// moves the rate little (a rate learned from it would spread the readings of a loss after it
  /// too far apart to agree). Beside five busy loops, PulseAudio's estimate ran up to 3.5 frames
  /// a reading (7 000 ppm) slow of the stream for seconds, corrected by steps ahead every second
  /// and a half; followed only a sixteenth a reading, it lagged until its positions were no longer
  /// trusted, and what they had moved by then was taken for losses of 840 and 357 frames that were
  /// none (clicks up to 25 ms early). Followed at its rate, it is none. On a device that reports
  /// cycles, read at any point of a cycle, the rate learns nothing from where in it a reading
  /// fell, and a loss of three cycles is found as before (150 simulated seconds of 1 024-frame
  /// cycles).
  private static let rateGain = 0.000_504
  /// The shortest time between readings, in nanoseconds, that the rate is learned over.
  private static let rateInterval: Int64 = 1_000_000

  /// A detector for a device playing at `sampleRate` in cycles of `cycleFrames`, holding up to
  /// `bufferFrames` of the stream, whose positions may be read stale (a sound card's) or not.
  public init(sampleRate: Int, cycleFrames: Int, bufferFrames: Int, mayBeStale: Bool = false) {
    framesPerNanosecond = Double(sampleRate) / 1e9
    self.mayBeStale = mayBeStale
    self.cycleFrames = Double(max(cycleFrames, 1))
    self.bufferFrames = Double(max(bufferFrames, 0))
    // Above the cycle's own jitter and a busy machine's scheduling delays, below any loss that is heard.
    cycleThreshold = max(2 * self.cycleFrames, Double(sampleRate) / 100)
    // PulseAudio's estimate, with nothing lost, stepped by 7 to 26 frames at 48 kHz (every 1.5 s
    // or so, in 30 s runs), and beside five busy loops by up to 105 (and 63 beside the loaded
    // suite): 3 ms is above that. A loss that a listener hears is a stop, of 10 ms and more.
    // A stale card's earliest reading still wanders: at a millisecond, 80 simulated minutes of
    // readings 0 to 8 ms late gave three losses that were none (1.2 ms each); at two, none.
    frameThreshold = max(2 * Self.frameJitter, Double(sampleRate) / 1_000) * (mayBeStale ? 2 : 3)
    jumps.reserveCapacity(Self.window)
    recentOffsets.reserveCapacity(Self.recentReadings)
    sortedJumps.reserveCapacity(Self.window)
  }

  /// Whether positions have moved by single frames: the device reports them to the frame.
  private var reportsFrames: Bool { granularity < 16 }

  /// Where the offset is expected at `nanoseconds`: `baseline` moved on at its rate.
  private func expected(from baseline: Double, at nanoseconds: Int64) -> Double {
    baseline + rate * Double(nanoseconds - baselineNanoseconds)
  }

  /// Frames lost since the last glitch found, as of `position`: positive when the stream fell
  /// behind (skip that much of it to be back on its grid), negative when a device that reports
  /// cycles cut it and it got ahead (wait that much), 0 when nothing was lost.
  public mutating func lostFrames(at position: PlaybackPosition) -> Int64 {
    guard hasPlayed || hasMoved(position) else { return 0 }
    let read = Double(position.nanoseconds) * framesPerNanosecond - Double(position.heardFrames)
    guard let baseline, let firstHeard else {
      restart(at: read, nanoseconds: position.nanoseconds)
      firstHeard = position.heardFrames
      return 0
    }
    // Learned at the start only: positions not trusted later (a stream started again) can be
    // off by anything, and would make a device that reports cycles look like one reporting frames.
    if steadyPositions < Self.positionsToSettleAgain, isSettled || !hasSettled {
      granularity = Self.greatestCommonDivisor(granularity, position.heardFrames - firstHeard)
    }
    guard let offset = earliest(read) else { return 0 }
    let expected = expected(from: baseline, at: position.nanoseconds)
    let jump = offset - expected
    let threshold = reportsFrames ? frameThreshold : cycleThreshold
    guard abs(jump) >= threshold else {
      jumps.removeAll(keepingCapacity: true)
      jumpsInARow = 0
      steadyPositions += 1
      lastSteadyNanoseconds = position.nanoseconds
      // Follows the centre of the jitter and the offset's rate (an alpha-beta filter).
      let followed = expected + jump * Self.followedShare
      // Only from readings a millisecond or more apart: PipeWire's plugin is read twice a cycle,
      // 0.1 ms apart, and a jitter of half a frame over that taught a rate that, carried across a
      // 300 ms stop, put its loss 2 frames off in three takes of six (whole cycles without it).
      if position.nanoseconds - baselineNanoseconds >= Self.rateInterval {
        rate += jump * Self.rateGain / Double(position.nanoseconds - baselineNanoseconds)
      }
      // The estimate moving on behind the stream goes back over a step of it ahead (and moving
      // ahead slowly is the clocks' drift, which can be either way, not a step of the estimate).
      if followed > baseline { estimateAhead = min(estimateAhead + followed - baseline, 0) }
      self.baseline = followed
      baselineNanoseconds = position.nanoseconds
      if !isSettled {
        isSettled =
          hasSettled
          ? steadyPositions >= Self.positionsToSettleAgain
          : steadyPositions >= Self.positionsToSettleFirst
            && lastSteadyNanoseconds - steadySince >= Self.nanosecondsToSettleFirst
        hasSettled = hasSettled || isSettled
        // Settled again after a restart, which while settled kept what was trusted (and replaces
        // it the next time): measured against it once.
        if isSettled, let trusted = trustedBefore {
          return taken(lost(from: trusted, to: followed, at: position.nanoseconds))
        }
      }
      return 0
    }
    // A device cannot play on without the stream for longer than the time that passed, nor drop
    // more of it than it held: a larger jump is a position not to be trusted.
    let elapsed = Double(position.nanoseconds - lastSteadyNanoseconds) * framesPerNanosecond
    guard isSettled, jump <= elapsed + cycleFrames, -jump <= bufferFrames + cycleFrames else {
      restart(at: offset, nanoseconds: position.nanoseconds)
      return 0
    }
    jumpsInARow += 1
    // Read stale, a jump is measured from readings with none from before it among those the
    // earliest is taken from: while they leave, the earliest of those left rises step by step.
    if !mayBeStale || !reportsFrames || jumpsInARow > Self.recentReadings {
      if jumps.count == Self.window { jumps.removeFirst() }
      jumps.append(jump)
    }
    guard let lost = reportsFrames ? stepAgreedToTheFrame() : stepAgreedInCycles() else {
      // A position that never settles after a jump (two seconds of readings) is not to be trusted.
      if Double(position.nanoseconds - lastSteadyNanoseconds) > 2e9 {
        restart(at: offset, nanoseconds: position.nanoseconds)
      }
      return 0
    }
    jumps.removeAll(keepingCapacity: true)
    self.baseline = baseline + Double(lost)
    return taken(lost)
  }

  /// What a `step` the positions agreed on lost.
  ///
  /// On a device that reports cycles, all of it. On one that reports frames, a step ahead takes
  /// back at most what was taken as lost, the rest being the estimate's; a step behind first goes
  /// back over what the estimate stepped ahead.
  private mutating func taken(_ step: Int64) -> Int64 {
    guard reportsFrames else { return step }
    let lost = step < 0 ? max(step, -takenBehind) : max(step + Int64(estimateAhead.rounded()), 0)
    estimateAhead += Double(step - lost)
    takenBehind += lost
    return lost
  }

  /// Sets the grid from here: what was found lost before moved no click (the stream had not
  /// started), so a step ahead after it takes none of it back.
  public mutating func setGrid() { takenBehind = 0 }

  /// What the positions, settled again at `settled`, moved by from the baseline trusted before,
  /// if it could be a loss: rounded to whole cycles on a device that reports them.
  private func lost(
    from trusted: (baseline: Double, nanoseconds: Int64), to settled: Double, at nanoseconds: Int64
  ) -> Int64 {
    let moved = settled - trusted.baseline
    let elapsed = Double(nanoseconds - trusted.nanoseconds) * framesPerNanosecond
    let threshold = reportsFrames ? frameThreshold : cycleThreshold
    guard abs(moved) >= threshold, moved <= elapsed + cycleFrames, -moved <= bufferFrames + cycleFrames else {
      return 0
    }
    return Int64(reportsFrames ? moved.rounded() : (moved / cycleFrames).rounded() * cycleFrames)
  }

  /// The step the last two jumps agree on to within half a cycle, in whole cycles.
  private func stepAgreedInCycles() -> Int64? {
    guard jumps.count >= 2 else { return nil }
    let (last, previous) = (jumps[jumps.count - 1], jumps[jumps.count - 2])
    guard abs(last - previous) < cycleFrames / 2 else { return nil }
    return Int64(exactly: ((last + previous) / 2 / cycleFrames).rounded() * cycleFrames)
  }

  /// The step that all but two of the last eight jumps agree on to within the jitter: their mean.
  private mutating func stepAgreedToTheFrame() -> Int64? {
    guard jumps.count == Self.window else { return nil }
    sortedJumps.removeAll(keepingCapacity: true)
    sortedJumps.append(contentsOf: jumps)
    sortedJumps.sort()
    let median = sortedJumps[Self.window / 2]
    var (agreeing, sum) = (0, 0.0)
    for jump in jumps where abs(jump - median) <= Self.frameJitter {
      agreeing += 1
      sum += jump
    }
    guard agreeing >= Self.window - 2 else { return nil }
    return Int64(exactly: (sum / Double(agreeing)).rounded())
  }

  /// `offset`, or where positions may be stale and the device reports frames, the earliest of it
  /// and the last readings' (a device that reports cycles is read against its own steps); nil
  /// until there are as many readings as that looks at, since the earliest of fewer was later.
  private mutating func earliest(_ offset: Double) -> Double? {
    guard mayBeStale, reportsFrames else { return offset }
    if recentOffsets.count < Self.recentReadings {
      recentOffsets.append(offset)
    } else {
      recentOffsets[nextRecent] = offset
    }
    nextRecent = (nextRecent + 1) % Self.recentReadings
    return recentOffsets.count == Self.recentReadings ? recentOffsets.min() : nil
  }

  /// Readings after the device moves that its positions need to settle, about: the four that
  /// must agree, or on a sound card the earliest offset's 32 and then eight (the agreeing four,
  /// read over 100 ms).
  public var readingsToSettle: Int {
    mayBeStale ? Self.recentReadings + Self.window : Self.positionsToSettleFirst
  }

  /// Whether the device has moved from its first position, keeping that position until it has.
  private mutating func hasMoved(_ position: PlaybackPosition) -> Bool {
    guard let unmovedHeard else {
      unmovedHeard = position.heardFrames
      return false
    }
    hasPlayed = position.heardFrames != unmovedHeard
    return hasPlayed
  }

  /// Takes `offset`, read at `nanoseconds`, as the new baseline, keeping the one trusted before
  /// it (if any): the stream starts to settle again. (The jumps and the time of the last steady
  /// position are not looked at again before a steady position sets them.)
  private mutating func restart(at offset: Double, nanoseconds: Int64) {
    if isSettled, let baseline { trustedBefore = (baseline, lastSteadyNanoseconds) }
    baseline = offset
    baselineNanoseconds = nanoseconds
    rate = 0
    jumpsInARow = 0
    steadyPositions = 0
    isSettled = false
    steadySince = nanoseconds
  }

  private static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
    var (a, b) = (a.magnitude, b.magnitude)
    while b != 0 { (a, b) = (b, a % b) }
    return Int64(clamping: a)
  }
}
