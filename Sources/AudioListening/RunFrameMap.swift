import MetronomeCore
import Synchronization

/// Which of the run's frames each frame of an output stream plays, and where a glitch left what
/// was played unknown, written by the thread that plays them and read by the one that listens,
/// with neither waiting for the other.
///
/// The two count alike until a glitch. Then the player skips as many of the run's frames as the
/// device played without the stream (or, where the device cut the stream, writes as much silence
/// that plays none of them), so that the clicks keep their grid: from there on, the run's frames
/// are the stream's moved by that much. A device's position, read in the stream's frames, moves
/// with a glitch; read in the run's, it goes on where it was (what the player kept the grid for),
/// so an input placed on it hears the same echo of the clicks before the glitch and after.
///
/// Around a glitch, what the device played is not what was written there: a stream that ran dry
/// played what was written next late, until the player learned what was lost (from the device's
/// positions, some periods later) and moved the run's frames. The run's frames from the first
/// sound written after the stream ran dry until they were moved glitched; from that sound on,
/// until the move is known, every frame may have. (Silence played late is silence as written.)
///
/// One writer, one reader.
public final class RunFrameMap: @unchecked Sendable {
  /// A frame of the stream from which the run's frames are the stream's moved by `shift`, and the
  /// run's frames around it that glitched (up to `Int64.max` while what was lost is not known).
  private struct Move {
    var streamFrame: Int64
    var shift: Int64
    var glitched: Range<Int64>

    /// Whether the glitch's end is not known yet.
    var isOpen: Bool { glitched.upperBound == .max }
  }

  /// Moves not yet read, far more than glitches between two reads (a read every input period).
  private static let capacity = 64
  /// Moves the reader keeps, newest last: a position read now is never that many glitches old.
  private static let kept = 16
  private let written: UnsafeMutablePointer<Move>
  private let writtenCount = Atomic<Int>(0)
  /// How far past where it ran dry a stream may play before a loss not found is given up on: a
  /// second (a loss is found within a tenth of one, MEASUREMENTS).
  private let givenUpAfter: Int64
  /// On the writer's thread: the shift last written, the stream's frame of the last move, where
  /// the stream last ran dry, and the last write's frames of the stream, with whether it sounded.
  private var lastShift: Int64 = 0
  private var lastMoveFrame: Int64 = .min
  private var lastRanDryAt: Int64?
  private var lastWrite: (frames: Range<Int64>, sounds: Bool)?
  /// Where the stream ran dry, while what it lost is not known, and the run's frame the glitch
  /// opened since starts on.
  private var dryFrom: Int64?
  private var glitchFrom: Int64?
  /// What the reader took, newest last, the shift before the first of them, and how many it took.
  private var known: [Move] = []
  private var shiftBeforeKnown: Int64 = 0
  private var readCount = 0

  /// A map on which the run's frames are the stream's, for a stream at `sampleRate`.
  public init(sampleRate: SampleRate) {
    givenUpAfter = Int64(sampleRate.hz)
    written = .allocate(capacity: Self.capacity)
    written.initialize(repeating: Move(streamFrame: 0, shift: 0, glitched: 0..<0), count: Self.capacity)
    known.reserveCapacity(Self.kept)
  }

  deinit { written.deallocate() }

  /// Takes that the write of `frames` from the stream's frame `streamFrame` plays the run's frames
  /// from `runFrame` (on the writer's thread, before it is written), whether what is written
  /// there `sounds`, the stream's frame it started again from the last time it ran dry
  /// (`ranDryAt`) and how much it holds now; allocates nothing.
  ///
  /// After an underrun, the first write that sounds opens a glitch from there (what came late
  /// before it was silence, as written). The device says it ran dry only to the write that finds
  /// it, which was noted before: if that one sounds, the glitch opens where it ran dry within it.
  /// A move closes the glitch where the stream's frame now plays. A move with no underrun since
  /// the last (the device cut the stream, or a stall it did not call one) glitched as much as the
  /// stream holds before it. A second underrun before the move only makes the same glitch longer.
  public func note(
    streamFrame: Int64, frames: Int, plays runFrame: Int64, sounds: Bool, ranDryAt: Int64?, bufferFrames: Int
  ) {
    if let ranDryAt, ranDryAt != lastRanDryAt {
      lastRanDryAt = ranDryAt
      if dryFrom == nil { dryFrom = ranDryAt }
      if glitchFrom == nil, let last = lastWrite, last.sounds, last.frames.contains(ranDryAt) {
        openGlitch(atStreamFrame: ranDryAt)
      }
    }
    lastWrite = (streamFrame..<(streamFrame &+ Int64(frames)), sounds)
    let shift = runFrame &- streamFrame
    // What the move's own write plays is where the move put it: that is on time.
    if sounds, glitchFrom == nil, dryFrom != nil, shift == lastShift {
      openGlitch(atStreamFrame: streamFrame)
    }
    if shift != lastShift {
      let from =
        glitchFrom
        ?? (dryFrom != nil ? .max : max(streamFrame &- Int64(bufferFrames), lastMoveFrame) &+ lastShift)
      // Up to where the stream's frame plays, moved later (frames lost) or as it was (frames cut).
      let until = max(streamFrame &+ max(shift, lastShift), from)
      publish(Move(streamFrame: streamFrame, shift: shift, glitched: from..<until))
      (lastShift, lastMoveFrame, glitchFrom, dryFrom) = (shift, streamFrame, nil, nil)
    } else if let dry = dryFrom, streamFrame &- dry > givenUpAfter {
      if let glitchFrom {
        publish(Move(streamFrame: streamFrame, shift: shift, glitched: glitchFrom..<(streamFrame &+ shift)))
      }
      (glitchFrom, dryFrom) = (nil, nil)
    }
  }

  /// Opens a glitch from the run's frame that the stream's frame `streamFrame` plays, until what
  /// was lost is known.
  private func openGlitch(atStreamFrame streamFrame: Int64) {
    glitchFrom = streamFrame &+ lastShift
    publish(Move(streamFrame: streamFrame, shift: lastShift, glitched: (streamFrame &+ lastShift)..<Int64.max))
  }

  /// Hands `move` to the reader.
  private func publish(_ move: Move) {
    let count = writtenCount.load(ordering: .relaxed)
    written[count % Self.capacity] = move
    writtenCount.store(count + 1, ordering: .releasing)
  }

  /// The run's frame that the stream's frame `streamFrame` plays, on the reader's thread.
  ///
  /// A frame before the first noted plays the run's frame of its own number. Allocates nothing.
  public func runFrame(ofStreamFrame streamFrame: Int64) -> Int64 {
    readWritten()
    let move = known.last { $0.streamFrame <= streamFrame }
    return streamFrame &+ (move?.shift ?? shiftBeforeKnown)
  }

  /// Whether the run's frame `runFrame` may have been played around a glitch, not as written.
  ///
  /// On the reader's thread; allocates nothing.
  public func glitched(runFrame: Int64) -> Bool {
    readWritten()
    return known.contains { $0.glitched.contains(runFrame) }
  }

  /// Takes the moves written since the last read; one that closes a glitch replaces it open.
  private func readWritten() {
    let count = writtenCount.load(ordering: .acquiring)
    while readCount < count {
      let move = written[readCount % Self.capacity]
      readCount += 1
      if let last = known.last, last.isOpen {
        known.removeLast()
      } else if known.count == Self.kept {
        shiftBeforeKnown = known.removeFirst().shift
      }
      known.append(move)
    }
  }
}
