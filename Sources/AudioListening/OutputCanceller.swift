/// What takes the metronome's own output out of what an input hears, so that the click reaching
/// a microphone is not heard as a hit: `EchoPathCanceller` (the room's whole answer, learned), or
/// the test kit's `ClickCanceller` (one copy of the click, at a round trip known within a few
/// frames), the baseline it is measured against.
///
/// Touched only by the one thread that feeds it.
public protocol OutputCanceller: AnyObject {
  /// Frames from a sample played to its reaching the input, as the devices or a calibration say.
  var roundTrip: Int64 { get set }

  /// How an attack heard now is placed against the click the player heard.
  var placement: Placement { get }

  /// What it followed of the path so far (none, for one that follows nothing).
  var changes: CancellerChanges { get }

  /// Keeps `samples`, the output's frames from `firstFrame` on, to take out of the input later.
  func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64)

  /// Takes the output out of `input`, the input's frames from `firstFrame` on, and gives what is
  /// done to `cancelled`, in order, at once or later: frames with the output taken out, how loud
  /// what is left of it may still be on each, and the first frame. Allocates nothing.
  func cancel(
    _ input: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    cancelled: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void)
}

extension OutputCanceller {
  /// Nothing followed: a canceller at a path it was given.
  public var changes: CancellerChanges { CancellerChanges() }
}
