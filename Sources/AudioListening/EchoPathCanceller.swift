import Glibc

/// Takes the metronome's output out of what a microphone in a room hears, learning the whole path
/// from the output to the input as it plays: the delay, the direct sound, the reflections and
/// the room's tail, `responseFrames` of it (384 ms at 48 kHz) from `lead` frames before the round
/// trip given; and, once the first direct sound is heard later than that (devices that leave part
/// of the round trip out: up to 139 ms at 48 kHz is looked for), from `lead` frames before it, so
/// that as much of the tail is learned however much the devices left out.
///
/// The output is a train of click sounds with silence between them, each sound played again and
/// again at its own level. So the canceller takes it as such (`ClickSounds`): each sound the output
/// plays, and where and how loud, and learns the room's answer to each sound, the input that
/// follows it. That answer is learned from one click heard alone, since a click is known exactly:
/// the learning is a normalised least-mean-squares step on an impulse train, well conditioned
/// where a general canceller must undo the click's own narrow spectrum (SpeexDSP's, which
/// learns the room's response to any signal, took out 1 to 7 dB over 16 clicks: MEASUREMENTS.md).
///
/// A hit is never learned: once a sound's answer has been heard once whole, the learning goes on
/// only through each 128 frames whose input is what the answers predict (a squared normalised
/// correlation of 0.9999 or more, and no less than what the echo usually leaves allows: a drum
/// under it, even ringing 50 dB down, is not learned) and as loud, within 2 %. A click heard
/// louder or softer is the follower's to scale (below): were it learned here too, where it is
/// heard alone, and scaled there, it would be scaled twice. A sound first heard within 1.5 s of
/// the first click (a count-in) is learned whole from that click, and while it is, nothing it may
/// have left in the input is taken for a hit; a sound first heard later starts from the direct
/// path (`ClickAnswers`).
///
/// An input's zeros before its first sound (a port or a device not yet delivering, a speaker not
/// yet connected) are not heard: the clicks begun before are heard in part, and while one of the
/// count-in's sounds, nothing is a hit. A sound whose answer learned whole holds no direct sound
/// (played before the speaker was connected) is learned whole again from its next click; after
/// 1.5 s of clicks, none holding one means the input does not hear them (headphones), and nothing
/// is taken out.
///
/// The path is followed as it changes (`PathFollower`, counted in `changes`): a sound's answer is
/// learned again where two of its clicks running were heard alike and unlike it (a microphone
/// or a speaker moved, the player resting), and, while the player plays on, every answer is
/// scaled where the clicks come back louder or softer (a volume turned) and moved where their
/// direct sound comes later or earlier. Readings through the drums scale the answers only to
/// within the readings' spread (0.5 to 3 %), which the input, heard only under strokes, may never
/// refine: until 16 segments have been heard alone and as loud, what is left of the echo may be
/// that share of it. Where what is left was heard to the sample as the click before of the same
/// sound heard it, the echo has changed and what it leaves is not a hit. Where
/// the echo is predicted and nothing is heard (a microphone unplugged), nothing is taken out,
/// and a second of it is counted.
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it.
public final class EchoPathCanceller: OutputCanceller, @unchecked Sendable {
  /// Frames of the path learned before the round trip given (10.7 ms at 48 kHz).
  ///
  /// A direct sound must stand out of the first 256 (`DirectPath.lag`), so one heard up to 256
  /// frames earlier than the round trip given is found (5.3 ms at 48 kHz).
  public static let lead: Int64 = 512
  /// The length of each sound's answer learned, in frames.
  public static let responseFrames = 18_432
  private static let segment = 128
  /// How well a segment's input must match the prediction, as a squared normalised correlation,
  /// for it to be learned from once the sounds' answers are known.
  private static let alone: Float = 0.9999

  /// Frames from a sample played to its reaching the input, as the devices or a calibration say.
  ///
  /// The echo is looked for from where this is when the first frames are cancelled: the answers
  /// learned from there on stay where they were heard, whatever the devices say later (JACK's
  /// latencies, which change as ports are connected), moved once to where the first direct sound
  /// was heard if later.
  public var roundTrip: Int64
  /// The round trip the answers are learned against: `roundTrip` when the first frames were
  /// cancelled, and how much later than that the first direct sound was heard (`ClickAnswers`).
  private var alignment: Int64?

  private let sounds = ClickSounds()
  private let answers = ClickAnswers(frames: EchoPathCanceller.responseFrames, lead: Int(EchoPathCanceller.lead))
  /// The input waiting until the output it may hear has been played, by frame modulo its size.
  private let waiting = FloatBuffer(count: 8_192)
  private var waitingFrames = 0
  private var waitingFirst: Int64 = 0
  private let heard = FloatBuffer(count: EchoPathCanceller.segment)
  private let predicted = FloatBuffer(count: EchoPathCanceller.segment)
  private let cancelled = FloatBuffer(count: EchoPathCanceller.segment)
  private let bound = FloatBuffer(count: EchoPathCanceller.segment)
  private var heldEcho: Float = 0
  /// Whether the input has held a sound yet, and the last frame of the segment before.
  private var hearing = false
  private var lastHeard: Float = 0
  /// Whether the input has lost the echo.
  private var loss = EchoLoss()
  /// What the echo usually leaves where it is heard alone.
  private let residuals = ResidualShares()
  /// What was followed of the path so far: the input going silent, the click coming back louder
  /// or softer (every answer scaled), its direct sound moving (every answer moved), a sound's
  /// answer learned again (its last two clicks heard alike and unlike it).
  public private(set) var changes = CancellerChanges()
  /// Segments in a row the echo was predicted in and not heard.
  private var unheardSegments = 0
  /// How far off the level the answers were last scaled to may be.
  private(set) var levelDoubt = LevelDoubt()
  /// What the echo usually leaves, as a share of its energy, where it is heard alone: the tenth
  /// of the last 63 such segments from the least (`ResidualShares`).
  public var residualShare: Float { residuals.usual }

  /// A canceller for an input that hears the output about `roundTrip` frames late.
  public init(roundTrip: Int64) { self.roundTrip = roundTrip }

  /// Keeps `samples`, the output's frames from `firstFrame` on, to take out of the input later.
  public func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    // A sound new in its place: whatever was learned there was another's answer.
    sounds.played(samples, from: firstFrame) { sound, frame in answers.start(sound, from: frame) }
  }

  /// Takes the output out of `input`, the input's frames from `firstFrame` on, and gives each
  /// 128 frames to `cancelled` once done (once the output they may hear has been played): the
  /// frames with the echo taken out, how loud what is left of the echo may still be on each,
  /// and the first frame.
  public func cancel(
    _ input: UnsafeBufferPointer<Float>, from firstFrame: Int64,
    cancelled body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void
  ) {
    // Input placed elsewhere than after what waits (an input on a clock of its own, placed anew):
    // what waits is cancelled as it is, and whatever is short of 128 frames let go.
    if waitingFrames > 0, firstFrame != waitingFirst + Int64(waitingFrames) {
      cancelWaiting(body, all: true)
      waitingFrames = 0
    }
    let mask = Int64(waiting.count - 1)
    for index in 0..<input.count {
      if waitingFrames == 0 { waitingFirst = firstFrame + Int64(index) }
      waiting[Int((waitingFirst + Int64(waitingFrames)) & mask)] = saneSample(input[index])
      waitingFrames += 1
      // A full queue is cancelled with what has been played, rather than lose input.
      if waitingFrames == waiting.count { cancelWaiting(body, all: true) }
    }
    cancelWaiting(body)
    answers.rehearse(sounds)
  }

  /// By the click's own round trip once it is heard, else as the devices and a calibration say.
  public var placement: Placement {
    heardRoundTrip.map { Placement(roundTrip: $0, heard: true) } ?? Placement(roundTrip: roundTrip, heard: false)
  }

  /// Frames from a sample played to the first of its sound reaching the input, as learned: where
  /// the first answer heard whole first reaches a tenth of its peak (a click starts at its loudest,
  /// but a room's reflections may add up louder than the direct sound); nil until an answer is
  /// known and explains what the input hears of the output to a tenth of its energy.
  public var heardRoundTrip: Int64? {
    guard let directLag = answers.directLag, let alignment, residualShare < 0.1 else { return nil }
    return alignment - Self.lead + Int64(directLag)
  }
}

extension EchoPathCanceller {
  /// Cancels each 128 frames waiting whose output has been played and whose clicks are all known,
  /// or `all` of them with what has been played.
  private func cancelWaiting(
    _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void, all: Bool = false
  ) {
    let segment = Self.segment
    while waitingFrames >= segment {
      let reference = waitingFirst - (alignment ?? roundTrip) + Self.lead
      let end = reference + Int64(segment)
      guard all || sounds.isKnown(through: end) else { return }
      for index in 0..<segment {
        heard[index] = waiting[Int((waitingFirst + Int64(index)) & Int64(waiting.count - 1))]
      }
      let first = waitingFirst
      waitingFrames -= segment
      waitingFirst += Int64(segment)
      cancelSegment(reference: reference)
      body(cancelled.buffer, bound.buffer, first)
    }
  }

  /// Counts what was followed of the path (`changes`); and, where the echo was predicted, whether
  /// it was `lost`: predicted and not heard for a second's worth of segments (at 48 kHz), the
  /// clicks playing on, the input stopped hearing them.
  private func count(_ changed: PathFollower.Followed, lost: Bool?) {
    if changed.learnedAgain { changes.learnedAgain += 1 }
    if let factor = changed.scaled {
      changes.levels += 1
      changes.lastLevel = factor
    }
    if let frames = changed.moved {
      changes.moves += 1
      changes.lastMove = frames
    }
    if let doubt = changed.levelDoubt { levelDoubt.doubt(by: doubt) }
    if let lost {
      unheardSegments = lost ? unheardSegments + 1 : 0
      if unheardSegments == 375 { changes.silences += 1 }
    }
  }

  /// Whether a segment whose input, of energy `heard`, crossed the echo predicted, of energy
  /// `echo`, by `crossed` holds the echo alone: their squared normalised correlation leaves
  /// unexplained no more than the gate allows (`alone`), nor ten times what the echo usually leaves
  /// (`usualShare`), so that a drum ringing under a click is not learned where the path is known
  /// better than the gate; never less than 1e-7.
  static func isHeardAlone(crossed: Float, echo: Float, heard: Float, usualShare: Float) -> Bool {
    let unexplained = min(1 - alone, max(10 * usualShare, 1e-7))
    return echo > 1e-12 && heard > 0 && crossed * crossed >= (1 - unexplained) * echo * heard
  }

  /// Predicts the segment in `heard`, whose first frame hears the output's `reference`, from the
  /// clicks sounding then; takes the prediction out; learns from what is left where allowed.
  private func cancelSegment(reference: Int64) {
    let segment = Self.segment
    hearing = hearing || heard.buffer.contains { $0 != 0 }
    let learning = answers.gather(sounds, at: reference, count: segment, hearing: hearing)
    answers.predict(into: predicted.pointer, at: reference)
    var echo: Float = 0
    var crossed: Float = 0
    var heardEnergy: Float = 0
    var left: Float = 0
    var cut = false
    var echoPeak: Float = 0
    for index in 0..<segment {
      echo += predicted[index] * predicted[index]
      crossed += predicted[index] * heard[index]
      heardEnergy += heard[index] * heard[index]
      cut = cut || isClipped(heard[index], after: index > 0 ? heard[index - 1] : lastHeard)
      echoPeak = max(echoPeak, predicted[index].magnitude)
    }
    lastHeard = heard[segment - 1]
    // The input cut at full scale where the echo is loud: what it holds is not the echo plus a
    // drum (their sum was cut), so nothing there is learned or taken for a hit.
    let clipped = cut && echoPeak >= 0.5
    let alone =
      !clipped && Self.isHeardAlone(crossed: crossed, echo: echo, heard: heardEnergy, usualShare: residuals.usual)
    // The input lost the echo: nothing is taken out, so that no echo's negative is heard.
    loss.note(heard: heardEnergy, echo: echo)
    let lost = loss.isLost(heard: heardEnergy, echo: echo, alone: alone)
    for index in 0..<segment {
      cancelled[index] = lost ? heard[index] : heard[index] - predicted[index]
      left += cancelled[index] * cancelled[index]
    }
    // Heard alone and as loud as predicted: what is left is what the echo usually leaves (heard
    // louder or softer, the path changed, which the follower reads).
    let asLoud = alone && LevelDoubt.isAsLoud(crossed: crossed, echo: echo)
    if asLoud, !learning {
      residuals.note(left / echo)
      levelDoubt.settle()
    }
    // Each click heard on its own: the path followed where it changed (`PathFollower`).
    let changed = answers.follow(
      heard.buffer, predicted: predicted.buffer, at: reference, clean: !clipped && hearing, of: sounds)
    count(changed, lost: echo > 1e-12 ? lost : nil)
    // What is left of the echo may be three times what it usually leaves, and never counted
    // below -60 dB of it: an attack must rise above that, while a soft kick starting just before
    // a click as loud as the drums still does, and a soft stroke a few milliseconds into one (at
    // -50 dB two such strokes, 39 dB under their clicks, were missed where the echo was left at
    // -130 dB). After a scale, it may be as far off as the level.
    let share = max(0.001, 3 * residualShare.squareRoot(), levelDoubt.share)
    for index in 0..<segment {
      heldEcho = max(predicted[index].magnitude, heldEcho * 0.99)
      // While an answer is learned, or a click of the count-in heard only in part sounds, or the
      // echo was cut at full scale, all that is heard may be the echo: nothing is a hit.
      bound[index] =
        learning || answers.heardInPart || clipped
        ? heard[index].magnitude
        : changed.changedHere ? cancelled[index].magnitude : lost ? 0 : share * heldEcho
    }
    if !lost, !changed.learnedAgain, changed.scaled == nil, changed.moved == nil, learning || asLoud {
      // While a sound is learned whole, the sounds already known are left as they are: what is
      // left is the new one's, or a drum. Once all are known, what is left moves the answer of
      // the click heard most, not the tails of those before it, half of the way: the input's
      // hiss is averaged over the clicks, not copied from the last.
      answers.learn(cancelled.buffer, at: reference, step: learning ? 1 : 0.5, sharing: learning ? .new : .loudest)
    }
    // Heard later than the round trip given (devices that leave part of it out): the answers were
    // moved earlier to hold the room's whole tail, and the input hears the output that much sooner.
    alignment = (alignment ?? roundTrip) + answers.heard(heard.buffer, at: reference, learning: learning, of: sounds)
  }
}
