import Glibc
import MetronomeCore

/// `sample` as the listener takes it: one that is not a number or infinite (from a broken plugin
/// upstream) would stay in the filters' state for good, and one far past full scale would make
/// their sums infinite, so the first is heard as silence and the second at 16 times full scale.
public func saneSample(_ sample: Float) -> Float { sample.isFinite ? min(max(sample, -16), 16) : 0 }

/// Whether `sample`, after `previous`, is an input cut at full scale.
///
/// A cut input is held there: the same value twice at 0.999 of full scale or more (a converter's
/// last code, which no click or drum holds for a frame). A float input beyond full scale, which
/// nothing cut, is not.
func isClipped(_ sample: Float, after previous: Float) -> Bool {
  sample.magnitude >= 0.999 && sample == previous
}

/// Hears a player through an audio input: takes the metronome's own output out of it
/// (`OutputCanceller`), then finds the attacks left, and says how each is placed against the
/// click the player heard.
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it.
public final class AudioHitListener: @unchecked Sendable {
  private let canceller: any OutputCanceller
  private let detector: OnsetDetector
  /// Frames since the input was last cut at full scale (`isClipped`), the last sample heard, and
  /// how far apart two clips must be to count twice (a tenth of a second).
  private var framesSinceClip = Int.max
  private var lastSample: Float = 0
  private let clipGap: Int
  private let rate: Double
  /// What the canceller had followed when last asked.
  private var changesTold = CancellerChanges()
  /// How many times the input has been cut at full scale, a tenth of a second or more apart.
  public private(set) var clips = 0

  /// A listener at `sampleRate` whose input has the output taken out by `canceller`.
  public init(canceller: any OutputCanceller, sampleRate: SampleRate, settings: OnsetSettings = .standard) {
    self.canceller = canceller
    detector = OnsetDetector(sampleRate: sampleRate, settings: settings)
    clipGap = sampleRate.hz / 10
    rate = Double(sampleRate.hz)
  }

  /// Frames from a sample played to its reaching the input, at which the output is taken out.
  public var roundTrip: Int64 {
    get { canceller.roundTrip }
    set { canceller.roundTrip = newValue }
  }

  /// How an attack heard now is placed against the click the player heard.
  public var placement: Placement { canceller.placement }

  /// Keeps `output`, what the metronome played from `firstFrame` on, to take out of the input
  /// heard later; allocates nothing.
  public func played(_ output: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    canceller.played(output, from: firstFrame)
  }

  /// Takes the input's frames before `frame` as lost (a sound server ran its cycles without the
  /// client): the attacks are looked for anew from there, as at the input's start, so that the
  /// jump in the sound is not taken for one; returns the frames after `frame` in which none can
  /// start (eleven milliseconds).
  public func lostInput(before frame: Int64) -> Int64 {
    detector.restart(at: frame)
    return detector.deafFrames
  }

  /// Reads one cycle and calls `found` with each attack completed and its placement, and
  /// `noticed` with what the input noticed of itself (`InputNotice`): each time it is cut at
  /// full scale (`clips`), and each change of the click's path the canceller followed;
  /// allocates nothing.
  ///
  /// `output` is what the metronome played from `firstFrame` on (empty for none, or when it was
  /// given to `played` already), and `input` what the input heard over the same frames.
  public func listen(
    input: UnsafeBufferPointer<Float>, output: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    noticed: (InputNotice) -> Void = { _ in }, found: (Attack, Placement) -> Void
  ) {
    if !output.isEmpty { played(output, from: firstFrame) }
    for sample in input {
      defer { lastSample = sample }
      guard isClipped(sample, after: lastSample) else {
        framesSinceClip = framesSinceClip == .max ? .max : framesSinceClip + 1
        continue
      }
      if framesSinceClip >= clipGap {
        clips += 1
        noticed(.clipped)
      }
      framesSinceClip = 0
    }
    canceller.cancel(input, from: firstFrame) { cancelled, bound, first in
      detector.process(cancelled, below: bound, from: first) { found($0, canceller.placement) }
    }
    tellChanges(noticed)
  }

  /// Tells `noticed` what the canceller followed since it was last asked.
  private func tellChanges(_ noticed: (InputNotice) -> Void) {
    let changes = canceller.changes
    defer { changesTold = changes }
    guard changes != changesTold else { return }
    if changes.silences > changesTold.silences { noticed(.wentSilent) }
    if changes.levels > changesTold.levels {
      noticed(.clickLevel(decibels: 20 * log10(Double(changes.lastLevel))))
    }
    if changes.moves > changesTold.moves {
      noticed(.clickMoved(milliseconds: Double(changes.lastMove) * 1_000 / rate))
    }
    if changes.learnedAgain > changesTold.learnedAgain { noticed(.echoLearnedAgain) }
  }
}

extension AudioHitListener {
  /// Listens to a whole recording, `input` with `output` what was played over the same frames
  /// (empty for none), the output's frames from `first` on, fed in cycles of `cycle` frames as a
  /// sound server would: the attacks found, each with its placement.
  public func attacks(in input: [Float], playing output: [Float] = [], cycle: Int = 256, from first: Int64 = 0)
    -> [(Attack, Placement)]
  {
    var found: [(Attack, Placement)] = []
    input.withUnsafeBufferPointer { input in
      output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: input.count, by: cycle) {
          let end = min(start + cycle, input.count)
          listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: output.isEmpty ? output : UnsafeBufferPointer(rebasing: output[start..<end]),
            from: first + Int64(start)
          ) { found.append(($0, $1)) }
        }
      }
    }
    return found
  }
}
