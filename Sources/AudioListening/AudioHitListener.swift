import MetronomeCore

/// `sample` as the listener takes it: one that is not a number or infinite (from a broken plugin
/// upstream) would stay in the filters' state for good, and one far past full scale would make
/// their sums infinite, so the first is heard as silence and the second at 16 times full scale.
func saneSample(_ sample: Float) -> Float { sample.isFinite ? min(max(sample, -16), 16) : 0 }

/// Hears a player through an audio input: takes the metronome's own output out of it, then
/// finds the attacks left.
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it.
public final class AudioHitListener: @unchecked Sendable {
  private let canceller: ClickCanceller
  private let detector: OnsetDetector
  /// Room for one block of input while the output is taken out of it, and for how loud what is
  /// left of the output may be on each frame.
  private var scratch = [Float](repeating: 0, count: 4_096)
  private var leftOver = [Float](repeating: 0, count: 4_096)

  /// A listener at `sampleRate` whose input hears the output `roundTrip` frames late.
  public init(sampleRate: SampleRate, roundTrip: Int64, settings: OnsetSettings = .standard) {
    canceller = ClickCanceller(roundTrip: roundTrip)
    detector = OnsetDetector(sampleRate: sampleRate, settings: settings)
  }

  /// Frames from a sample played to its reaching the input, at which the output is taken out.
  public var roundTrip: Int64 {
    get { canceller.roundTrip }
    set { canceller.roundTrip = newValue }
  }

  /// Frames either way of `roundTrip` within which the output's echo is looked for, where the
  /// input's clock is not the output's; 0 (the default) where the round trip is known to the frame.
  public var searchFrames: Int {
    get { canceller.searchFrames }
    set { canceller.searchFrames = newValue }
  }

  /// The gain from the output to the input the canceller has learned.
  public var outputGain: Float { canceller.gain }

  /// Keeps `output`, what the metronome played from `firstFrame` on, to take out of the input
  /// heard later; allocates nothing.
  public func played(_ output: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    canceller.played(output, from: firstFrame)
  }

  /// Reads one cycle and calls `found` with each attack completed; allocates nothing.
  ///
  /// `output` is what the metronome played from `firstFrame` on (empty for none, or when it was
  /// given to `played` already), and `input` what the input heard over the same frames.
  public func listen(
    input: UnsafeBufferPointer<Float>, output: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    found: (Attack) -> Void
  ) {
    if !output.isEmpty { played(output, from: firstFrame) }
    scratch.withUnsafeMutableBufferPointer { scratch in
      leftOver.withUnsafeMutableBufferPointer { leftOver in
        var start = 0
        while start < input.count {
          let count = min(scratch.count, input.count - start)
          let block = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
          let bounds = UnsafeMutableBufferPointer(rebasing: leftOver[0..<count])
          for index in 0..<count { block[index] = saneSample(input[start + index]) }
          canceller.cancel(block, leftOver: bounds, from: firstFrame + Int64(start))
          detector.process(
            UnsafeBufferPointer(block), below: UnsafeBufferPointer(bounds), from: firstFrame + Int64(start),
            found: found)
          start += count
        }
      }
    }
  }
}

extension AudioHitListener {
  /// Listens to a whole recording, `input` with `output` what was played over the same frames
  /// (empty for none), fed in cycles of `cycle` frames as a sound server would: the attacks found.
  public func attacks(in input: [Float], playing output: [Float] = [], cycle: Int = 256) -> [Attack] {
    var found: [Attack] = []
    input.withUnsafeBufferPointer { input in
      output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: input.count, by: cycle) {
          let end = min(start + cycle, input.count)
          listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: output.isEmpty
              ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(rebasing: output[start..<end]),
            from: Int64(start)
          ) { found.append($0) }
        }
      }
    }
    return found
  }
}
