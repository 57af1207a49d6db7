/// Takes what the metronome played out of what its input hears, so that a click reaching a
/// microphone through the air or a cable is not heard as a hit while a hit on the click still is.
///
/// The input holds the output `roundTrip` frames late, scaled by the path's gain. The canceller
/// keeps the output it was given and, block by block (128 frames, 2.7 ms at 48 kHz), subtracts
/// it at that delay: a least-squares echo canceller with the echo's delay known (measured by
/// `metronome calibrate --loopback`). The gain is learned only from blocks the click has to
/// itself, those whose input the played block explains almost wholly (a normalized correlation
/// of 0.99 or more, squared 0.98), so that a hit on a click neither teaches it a wrong gain nor
/// is taken out with the click (the role of double-talk detection in a telephone's echo
/// canceller).
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it.
public final class ClickCanceller: @unchecked Sendable {
  /// Frames from a sample played to its reaching the input.
  public var roundTrip: Int64
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
  /// The energy left in those blocks once the output was taken out, and their frames, with the
  /// same weights.
  private var leftEnergySum: Float = 0
  private var leftFrames: Float = 0
  private let block = 128

  /// A canceller for an input that hears the output `roundTrip` frames late.
  public init(roundTrip: Int64) { self.roundTrip = roundTrip }

  /// Keeps `samples`, the output's frames from `firstFrame` on, to take out of the input later.
  public func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    played.withUnsafeMutableBufferPointer { played in
      for (index, sample) in samples.enumerated() {
        played[Int((firstFrame + Int64(index)) & playedMask)] = saneSample(sample)
      }
    }
    playedEnd = firstFrame + Int64(samples.count)
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

  /// Cancels `range` of `input`, whose frame 0 heard the output's frame `reference`.
  private func cancelBlock(
    _ input: UnsafeMutableBufferPointer<Float>, _ leftOver: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>,
    reference: Int64, _ played: UnsafeBufferPointer<Float>
  ) {
    for index in range { leftOver[index] = 0 }
    let size = Int64(played.count)
    // Nothing was played yet: nothing to take out.
    guard playedEnd != .min, reference + Int64(range.lowerBound) >= playedEnd - size,
      reference + Int64(range.upperBound) <= playedEnd
    else { return }
    var crossed: Float = 0
    var playedEnergy: Float = 0
    var heardEnergy: Float = 0
    for index in range {
      let out = played[Int((reference + Int64(index)) & playedMask)]
      crossed += input[index] * out
      playedEnergy += out * out
      heardEnergy += input[index] * input[index]
    }
    guard playedEnergy > 1e-10 else { return }
    // A block that holds far less than the echo learned has lost it (the microphone was
    // unplugged, the loop cut): nothing is taken out, so that no echo's negative is heard.
    guard heardEnergy >= 0.25 * gain * gain * playedEnergy else { return }
    let alone = heardEnergy > 0 && crossed * crossed >= 0.98 * playedEnergy * heardEnergy
    if alone {
      learnedCross = 0.995 * learnedCross + crossed
      learnedEnergy = 0.995 * learnedEnergy + playedEnergy
      gain = learnedCross / learnedEnergy
    }
    var leftEnergy: Float = 0
    for index in range {
      let echo = gain * played[Int((reference + Int64(index)) & playedMask)]
      input[index] -= echo
      leftEnergy += input[index] * input[index]
    }
    if alone {
      leftEnergySum = 0.995 * leftEnergySum + leftEnergy
      leftFrames = 0.995 * leftFrames + Float(range.count)
    }
    // The gain's standard error: what is left per frame over the played energy it was fitted on;
    // three of them bound the echo a misjudged gain leaves, and never less than 1 % of it: the
    // blocks it learns from are chosen by how well they fit, which leans the gain a little.
    let spread = learnedEnergy > 0 && leftFrames > 0 ? 3 * (leftEnergySum / leftFrames / learnedEnergy).squareRoot() : 0
    let bound = max(spread, gain / 100)
    for index in range {
      leftOver[index] = bound * abs(played[Int((reference + Int64(index)) & playedMask)])
    }
  }
}
