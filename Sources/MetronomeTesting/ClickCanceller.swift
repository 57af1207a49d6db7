import AudioListening

/// Takes what the metronome played out of what its input hears, so that a click reaching a
/// microphone through the air or a cable is not heard as a hit while a hit on the click still is:
/// the canceller both live paths used before `EchoPathCanceller`, kept as the baseline the
/// benchmark and the tests measure that one against.
///
/// The input holds the output `roundTrip` frames late, scaled by the path's gain. The canceller
/// keeps the output it was given and, block by block (128 frames, 2.7 ms at 48 kHz), subtracts
/// it at that delay: a least-squares echo canceller with the echo's delay known (measured by
/// `metronome calibrate --loopback`). The gain is learned only from blocks the click has to
/// itself, those whose input the played block explains almost wholly (a normalized correlation
/// of 0.99 or more, squared 0.98), so that a hit on a click neither teaches it a wrong gain nor
/// is taken out with the click (the role of double-talk detection in a telephone's echo
/// canceller). The fit is made on the sample-to-sample changes of both, where a click's energy
/// is: a drum still ringing low under a click, which the level's fit would take in as a
/// thousandth too much or too little of the click, leans it least.
///
/// Where the input's clock is not the output's (two ALSA devices), the delay is known only to
/// within the error of the devices' positions: the canceller then also looks for the echo up to
/// `searchFrames` either way, in the block where a click starts if the click does not explain it
/// at the delay it has, and takes the delay at which one does (learning the gain anew).
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it.
public final class ClickCanceller: OutputCanceller, @unchecked Sendable {
  /// Frames from a sample played to its reaching the input.
  public var roundTrip: Int64
  /// Frames either way of `roundTrip` within which the echo is looked for; 0 where it is known.
  public var searchFrames = 0
  /// The output's samples by frame modulo the ring's size; 2^17 frames, 2.7 s at 48 kHz.
  private var played = [Float](repeating: 0, count: 1 << 17)
  private let playedMask: Int64 = (1 << 17) - 1
  /// The frame after the last played sample given.
  private var playedEnd: Int64 = .min
  /// The gain from output to input learned so far: the least-squares fit over the blocks the
  /// click had to itself, the latest weighing most (each block's weight falls by half over 138).
  public private(set) var gain: Float = 0
  private var learnedCross: Float = 0
  private var learnedEnergy: Float = 0
  /// The energy of the changes left in those blocks once the output was taken out, and their
  /// frames, with the same weights.
  private var leftEnergySum: Float = 0
  private var leftFrames: Float = 0
  private let block = 128
  /// Room for one block of input while the output is taken out of it, and for how loud what is
  /// left of the output may be on each frame.
  private var scratch = [Float](repeating: 0, count: 4_096)
  private var leftOverScratch = [Float](repeating: 0, count: 4_096)
  /// The clicks listened to while the click was never found in the input: from where the
  /// `clicksBeforeHeadphones`th starts, the input is taken not to hear the click (three clicks
  /// and that one's first block are given to finding it; hits on the fourth on are found).
  private var clicksUnheard = 0
  private static let clicksBeforeHeadphones = 4
  /// The last input sample before the block being cancelled, as heard.
  private var heardBefore: Float = 0
  /// The energy of the input in the block before.
  private var heardEnergyBefore: Float = 0

  /// A canceller for an input that hears the output `roundTrip` frames late.
  public init(roundTrip: Int64) { self.roundTrip = roundTrip }

  /// By the round trip the output is taken out at: the click's own where the click has been found
  /// in the input (a microphone beside the speaker, a cable), else as the devices and a
  /// calibration say (headphones).
  public var placement: Placement { Placement(roundTrip: roundTrip, heard: gain > 0) }

  /// Keeps `samples`, the output's frames from `firstFrame` on, to take out of the input later.
  public func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    played.withUnsafeMutableBufferPointer { played in
      for (index, sample) in samples.enumerated() {
        played[Int((firstFrame + Int64(index)) & playedMask)] = saneSample(sample)
      }
    }
    playedEnd = firstFrame + Int64(samples.count)
  }

  /// Takes the output out of `input` 4,096 frames at a time, each given to `cancelled` at once.
  public func cancel(
    _ input: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    cancelled body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void
  ) {
    scratch.withUnsafeMutableBufferPointer { scratch in
      leftOverScratch.withUnsafeMutableBufferPointer { leftOver in
        var start = 0
        while start < input.count {
          let count = min(scratch.count, input.count - start)
          let block = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
          let bounds = UnsafeMutableBufferPointer(rebasing: leftOver[0..<count])
          for index in 0..<count { block[index] = saneSample(input[start + index]) }
          cancel(block, leftOver: bounds, from: firstFrame + Int64(start))
          body(UnsafeBufferPointer(block), UnsafeBufferPointer(bounds), firstFrame + Int64(start))
          start += count
        }
      }
    }
  }

  /// Subtracts from `input`, the input's frames from `firstFrame` on, the output it heard, and
  /// writes into `leftOver` (as long as `input`) how loud, at most, what is left of the output
  /// may still be on each frame: three standard errors of the gain learned, or 1 % of the gain,
  /// times the output.
  public func cancel(
    _ input: UnsafeMutableBufferPointer<Float>, leftOver: UnsafeMutableBufferPointer<Float>, from firstFrame: Int64
  ) {
    played.withUnsafeBufferPointer { played in
      var start = 0
      while start < input.count {
        let end = min(start + block, input.count)
        cancelBlock(input, leftOver, start..<end, reference: firstFrame - roundTrip, played)
        start = end
      }
    }
  }

  /// Cancels `range` of `input`, whose frame 0 heard the output's frame `reference`; looks for
  /// the echo elsewhere if `searches` and `searchFrames` allow.
  private func cancelBlock(
    _ input: UnsafeMutableBufferPointer<Float>, _ leftOver: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>,
    reference: Int64, _ played: UnsafeBufferPointer<Float>, searches: Bool = true
  ) {
    for index in range { leftOver[index] = 0 }
    // Nothing was played yet: nothing to take out.
    guard let block = sums(input, range, reference: reference, played) else { return }
    let lastHeard = input[range.upperBound - 1]
    defer { heardBefore = lastHeard }
    let playedEnergy = block.playedEnergy
    let heardEnergy = block.heardEnergy
    let alone = block.fit >= 0.98
    // Looked for where a click starts, in the output or in what is heard (an echo come early):
    // once a click, where it is plainest.
    let onset = playedEnergy > 4 * block.playedBefore || heardEnergy > 4 * heardEnergyBefore
    heardEnergyBefore = heardEnergy
    if !alone, searches, onset, searchFrames > 0, block.heardChanges > 0,
      let found = echoDelay(input, range, reference: reference, played)
    {
      // The echo is elsewhere: what was learned at the old delay says nothing of it.
      roundTrip += found
      (gain, learnedCross, learnedEnergy, leftEnergySum, leftFrames) = (0, 0, 0, 0, 0)
      cancelBlock(input, leftOver, range, reference: reference - found, played, searches: false)
      return
    }
    guard playedEnergy > 1e-10 else { return }
    // A block that holds far less than the echo learned has lost it (the microphone was
    // unplugged, the loop cut): nothing is taken out, so that no echo's negative is heard.
    guard heardEnergy >= 0.25 * gain * gain * playedEnergy else { return }
    if alone {
      learnedCross = 0.995 * learnedCross + block.changesCrossed
      learnedEnergy = 0.995 * learnedEnergy + block.playedChanges
      gain = learnedCross / learnedEnergy
      let leftChanges = max(
        block.heardChanges - 2 * gain * block.changesCrossed + gain * gain * block.playedChanges, 0)
      leftEnergySum = 0.995 * leftEnergySum + leftChanges
      leftFrames = 0.995 * leftFrames + Float(range.count)
    }
    for index in range {
      input[index] -= gain * played[Int((reference + Int64(index)) & playedMask)]
    }
    // The gain's standard error: what is left per frame over the played energy it was fitted on;
    // three of them bound the echo a misjudged gain leaves, and never less than 1 % of it: the
    // blocks it learns from are chosen by how well they fit, which leans the gain a little.
    let spread = learnedEnergy > 0 && leftFrames > 0 ? 3 * (leftEnergySum / leftFrames / learnedEnergy).squareRoot() : 0
    let bound = max(spread, gain / 100)
    for index in range {
      leftOver[index] = bound * abs(played[Int((reference + Int64(index)) & playedMask)])
    }
    // Until the click has been found in the input, all that is heard under it may be its echo (a
    // microphone connected halfway through a click hears the rest of it, which fits nothing):
    // nothing there is a hit, for the first clicks listened to; a microphone that never hears the
    // click (headphones) has its hits on the clicks heard from then on.
    if gain == 0, clicksUnheard < Self.clicksBeforeHeadphones {
      if playedEnergy > 4 * block.playedBefore { clicksUnheard += 1 }
      for index in range { leftOver[index] = abs(input[index]) }
    }
  }

  /// How many frames later than `reference` the output is that explains `range` of the input alone.
  ///
  /// The best fit within `searchFrames` where the played block itself starts a click (later in a
  /// click its waves match the input's a period off), if 0.98 or more; nil for none.
  private func echoDelay(
    _ input: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>, reference: Int64,
    _ played: UnsafeBufferPointer<Float>
  ) -> Int64? {
    var best: (shift: Int64, fit: Float)?
    for shift in Int64(-searchFrames)...Int64(searchFrames) where shift != 0 {
      guard let block = sums(input, range, reference: reference - shift, played),
        block.playedEnergy > 4 * block.playedBefore, block.fit >= 0.98, block.fit > best?.fit ?? 0
      else { continue }
      best = (shift, block.fit)
    }
    return best?.shift
  }

  /// What `range` of the input and the output's frames from `reference` on hold, summed; nil
  /// where the ring does not hold those frames and the block before them.
  private func sums(
    _ input: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>, reference: Int64,
    _ played: UnsafeBufferPointer<Float>
  ) -> BlockSums? {
    guard playedEnd != .min, reference + Int64(range.lowerBound - range.count) >= playedEnd - Int64(played.count),
      reference + Int64(range.upperBound) <= playedEnd
    else { return nil }
    var sums = BlockSums()
    var heardPrevious = heardBefore
    for index in range {
      let frame = reference + Int64(index)
      let out = played[Int(frame & playedMask)]
      let playedChange = out - played[Int((frame - 1) & playedMask)]
      let earlier = played[Int((frame - Int64(range.count)) & playedMask)]
      let heardChange = input[index] - heardPrevious
      heardPrevious = input[index]
      sums.playedEnergy += out * out
      sums.heardEnergy += input[index] * input[index]
      sums.playedBefore += earlier * earlier
      sums.changesCrossed += heardChange * playedChange
      sums.playedChanges += playedChange * playedChange
      sums.heardChanges += heardChange * heardChange
    }
    return sums
  }
}

/// A block of input and the output it may hold, summed: their energies, the output's in the block
/// before, and the same of their sample-to-sample changes, which the fit is made on.
private struct BlockSums {
  var playedEnergy: Float = 0
  var heardEnergy: Float = 0
  var playedBefore: Float = 0
  var changesCrossed: Float = 0
  var playedChanges: Float = 0
  var heardChanges: Float = 0

  /// How wholly the output's changes explain the input's: the normalized correlation, squared.
  var fit: Float {
    playedChanges > 1e-10 && heardChanges > 0 ? changesCrossed * changesCrossed / (playedChanges * heardChanges) : 0
  }
}
