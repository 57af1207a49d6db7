import AudioListening

/// A canceller told the echo it takes out (`MovedReflectionsBound`).
///
/// It gives the input's frames less the echo given for them, at once. What is left of it may be a
/// thousandth of the echo, held as `EchoPathCanceller` holds it (falling by 1 % a frame), or,
/// where `knowsWhatIsLeft`, also as loud as what is truly left of the echo `truth`: a canceller
/// that knew where it erred. Fed at most 4,096 frames at a time (the benchmark's listener feeds 256).
final class KnownEchoCanceller: OutputCanceller {
  var roundTrip: Int64
  /// The round trip from `changedAt` on: the direct sound's after the path changed.
  private let changed: (at: Int64, roundTrip: Int64)
  private let echo: [Float]
  private let truth: [Float]
  private let knowsWhatIsLeft: Bool
  private var heldEcho: Float = 0
  private var heldLeft: Float = 0
  private var cancelled = [Float](repeating: 0, count: 4_096)
  private var bound = [Float](repeating: 0, count: 4_096)
  private var lastFrame: Int64 = 0

  /// A canceller that takes `echo` out, `roundTrip` frames late until `changed.at`.
  init(echo: [Float], truth: [Float], knowsWhatIsLeft: Bool, roundTrip: Int64, changed: (at: Int64, roundTrip: Int64)) {
    self.echo = echo
    self.truth = truth
    self.knowsWhatIsLeft = knowsWhatIsLeft
    self.roundTrip = roundTrip
    self.changed = changed
  }

  var placement: Placement {
    Placement(roundTrip: lastFrame >= changed.at ? changed.roundTrip : roundTrip, heard: true)
  }

  func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64) {}

  func cancel(
    _ input: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    cancelled body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void
  ) {
    for index in input.indices {
      let frame = Int(firstFrame) + index
      cancelled[index] = input[index] - echo[frame]
      heldEcho = max(abs(echo[frame]), heldEcho * 0.99)
      heldLeft = max(abs(truth[frame] - echo[frame]), heldLeft * 0.99)
      bound[index] = max(0.001 * heldEcho, knowsWhatIsLeft ? heldLeft : 0)
    }
    lastFrame = firstFrame + Int64(input.count)
    cancelled.withUnsafeBufferPointer { left in
      bound.withUnsafeBufferPointer { bounds in
        body(
          UnsafeBufferPointer(rebasing: left[0..<input.count]), UnsafeBufferPointer(rebasing: bounds[0..<input.count]),
          firstFrame)
      }
    }
  }
}
