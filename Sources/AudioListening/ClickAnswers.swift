import Glibc

/// The room's answer to each click sound (`ClickSounds`): what the input hears after the sound
/// is played, `frames` of it from the frame the sound starts, per unit of the sound's level.
///
/// An answer is learned by a least-mean-squares step on the train of clicks, which needs no
/// deconvolution of the click's narrow spectrum: one click heard alone teaches its whole answer.
/// Where several clicks sound at once, what is heard is shared among them by the square of their
/// levels and by how long ago their sound reached the input. The count-in's clicks overlap while
/// none of their answers is known, so what was heard while answers were first learned is kept
/// (`rehearsalFrames` of it) and learned from again, once a cycle, until the shares settle.
///
/// Allocates nothing once made; touched by one thread.
final class ClickAnswers {
  /// Frames of each answer.
  let frames: Int
  /// Frames at the start of each answer before the round trip given.
  let lead: Int
  /// Frames before the direct sound still learned: a click's rise, and a path a little shorter.
  private static let directGuard = 64
  /// Frames from the first click within which a new sound is learned whole (1.5 s at 48 kHz).
  static let wholeFrames = 73_728
  /// The frame the first click played while listening starts on, and the output's frame from
  /// which the input is heard (nil while it has held only zeros).
  private var firstClick: Int64?
  private var firstReference: Int64?
  /// Frames of the count-in kept to learn from again.
  private static let rehearsalFrames = 1 << 17
  /// How many times the count-in is learned from again: where one sound's clicks overlap at two
  /// levels (normal and weak beats at 200 BPM), the shares settle by about a decibel a pass, and
  /// 12 passes left the weak beats' echo at -31 dB of itself for good; 60 leave under -70 dB.
  private static let rehearsals = 60
  /// Segments of 128 frames learned from again each cycle: 60 passes over a count-in are over
  /// before its fourth click (at 200 BPM, in cycles of 256 frames), whose echo would otherwise be
  /// heard while still settling.
  private static let rehearsedSegments = 128

  private let answers: FloatBuffer
  /// Whether each sound's answer has been heard whole at least once (or taken from the direct
  /// path), and whether its learning has begun.
  private var answered = [Bool](repeating: false, count: ClickSounds.most)
  private var begun = [Bool](repeating: false, count: ClickSounds.most)
  /// The output's frame from which each sound's clicks are heard: a sound begun again (`close`)
  /// was not heard before.
  private var heardSince = [Int64](repeating: .min, count: ClickSounds.most)
  /// The lag of the direct sound in the answers, from the first click's; nil before.
  private(set) var directLag: Int?
  /// Frames over which the room's answer loses all but 1/e of its energy, from the first click's
  /// answer; until it is heard, as a cable's (256): what is heard is the latest click's, so
  /// that none still unheard (a speaker not yet connected) takes a share of another's echo.
  private var energyDecay: Float = 256
  /// Each lag's share of what is heard (`weigh`), and the sum of the shares on each frame at hand.
  private let weights: FloatBuffer
  /// The direct path, fitted to the first answer heard (`fitDirectPath`).
  private let direct = DirectPath()
  private let power = FloatBuffer(count: 128)
  /// The click heard most on each frame at hand, by its place among those gathered.
  private let loudest = UnsafeMutableBufferPointer<Int>.allocate(capacity: 128)
  /// Whether a click of the count-in heard only in part sounds in the segment at hand: what is
  /// left there may be its echo, which is not known.
  private(set) var heardInPart = false
  /// The clicks sounding in the segment at hand.
  private let active = UnsafeMutableBufferPointer<ClickSounds.Click>.allocate(capacity: 64)
  private var activeCount = 0
  /// What was heard while answers were first learned, by the output's frame it heard, and the
  /// frames that holds; how many times it is still to be learned from again.
  private let rehearsal = FloatBuffer(count: ClickAnswers.rehearsalFrames)
  private(set) var rehearsed: Range<Int64>?
  private var rehearsalsLeft = 0
  /// Where the rehearsal under way is.
  private var rehearsalAt: Int64 = .min
  /// How far the rehearsal's frames are kept from the references they heard: the answers were
  /// moved that much earlier once learned (`realign`).
  private var rehearsalShift: Int64 = 0
  /// Whether the answers have been placed by the first direct sound heard.
  private var realigned = false
  private let rehearsalLeft = FloatBuffer(count: 128)
  /// What follows the path as it changes, once the answers are known.
  private let follower: PathFollower

  /// No answers yet, each to be `frames` long, the round trip given `lead` frames into each.
  init(frames: Int, lead: Int) {
    self.frames = frames
    self.lead = lead
    answers = FloatBuffer(count: ClickSounds.most * frames)
    follower = PathFollower(frames: frames)
    weights = FloatBuffer(count: frames)
    active.initialize(repeating: ClickSounds.Click(frame: 0, sound: 0, gain: 0, energy: 0))
    loudest.initialize(repeating: -1)
    weigh()
  }

  deinit {
    active.deallocate()
    loudest.deallocate()
  }

  /// Takes `sound` as new in its place from the output's `frame` on: nothing of its answer is
  /// known yet, and its clicks before are not heard (another sound's, or not heard at all).
  func start(_ sound: Int, from frame: Int64) {
    heardSince[sound] = frame
    for index in 0..<frames { answers[sound * frames + index] = 0 }
    answered[sound] = false
    begun[sound] = false
    follower.forget(sound)
  }

  /// Takes the clicks of `sounds` that sound in the `count` frames from the output's `reference`,
  /// where the input is `hearing` (it has held a sound); whether any of them is still being
  /// learned whole (and `heardInPart`).
  ///
  /// A sound's first click heard within `wholeFrames` of the first click played while listening
  /// (the clicks before the player starts, as a count-in) is learned whole; a sound first heard
  /// later, which the player may well be playing over, starts from the direct path learned from
  /// the first clicks.
  func gather(_ sounds: ClickSounds, at reference: Int64, count: Int, hearing: Bool) -> Bool {
    activeCount = 0
    heardInPart = false
    var learning = false
    // An input's zeros before its first sound are a port or device not yet delivering, or a
    // speaker not yet connected: the clicks before are heard from there on, in part. The first
    // `lead` frames of an answer, before the round trip given, hold nothing to hear.
    if hearing, firstReference == nil { firstReference = reference - Int64(lead) }
    let heardFrom = firstReference ?? .max
    sounds.forEachClick(from: reference - Int64(frames) + 1, through: reference + Int64(count) - 1) { click in
      firstClick = min(firstClick ?? click.frame, click.frame)
      guard activeCount < active.count, click.frame >= heardSince[click.sound] else { return }
      // A click whose answer began before anything was heard is heard in part: it teaches nothing,
      // but what is left of it is foretold where its sound's answer is known.
      guard answered[click.sound] || click.frame >= heardFrom else {
        heardInPart = heardInPart || click.frame - (firstClick ?? click.frame) <= Int64(Self.wholeFrames)
        return
      }
      active[activeCount] = click
      activeCount += 1
      if !answered[click.sound], !begun[click.sound] { begin(click, of: sounds) }
      learning = learning || !answered[click.sound]
    }
    return learning
  }

  /// Starts learning `click`'s sound, heard for the first time: whole, or from the direct path.
  private func begin(_ click: ClickSounds.Click, of sounds: ClickSounds) {
    let firstHeard = firstClick ?? click.frame
    begun[click.sound] = true
    guard click.frame - firstHeard > Int64(Self.wholeFrames) else { return }
    answered[click.sound] = true
    // No click stood out in what was heard in all that time: the input does not hear them.
    guard let directLag else { return }
    direct.add(
      to: answer(of: click.sound), at: directLag, of: { sounds.sample(of: click.sound, at: $0) },
      length: sounds.length(of: click.sound))
  }

  /// Writes into `predicted` what the clicks gathered make heard from the output's `reference` on.
  func predict(into predicted: UnsafeMutableBufferPointer<Float>, at reference: Int64) {
    predicted.update(repeating: 0)
    for slot in 0..<activeCount {
      let click = active[slot]
      let lags = lags(of: click, at: reference, count: predicted.count)
      let base = click.sound * frames + Int(reference - click.frame)
      for index in lags { predicted[index] += click.gain * answers[base + index] }
    }
  }

  /// Hears the clicks gathered on their own and follows what changed of the path (`PathFollower`).
  func follow(
    _ heard: UnsafeBufferPointer<Float>, predicted: UnsafeBufferPointer<Float>, at reference: Int64, clean: Bool,
    of sounds: ClickSounds
  ) -> PathFollower.Followed {
    follower.hear(heard, predicted: predicted, at: reference, clean: clean, in: self, of: sounds)
  }

  /// Which clicks' answers a step moves.
  enum Sharing {
    /// Those still learned whole, sharing what is left.
    case new
    /// All of them, sharing what is left.
    case all
    /// On each frame, only the one heard most then: a click's echo heard louder or softer is that
    /// click's, not the fading tail of one before it.
    case loudest
  }

  /// Moves the gathered clicks' answers towards `left`, what is left unexplained from the output's
  /// `reference` on, by `step` of the way, shared (`sharing`) as each click is expected to be heard
  /// then (its energy, times how much of it the room still holds: hardly at all before the direct
  /// sound).
  func learn(_ left: UnsafeBufferPointer<Float>, at reference: Int64, step: Float, sharing: Sharing) {
    // Where a click is loudest is read only where some click's power was set: nothing stale.
    power.fill(0)
    for slot in 0..<activeCount where sharing != .new || !answered[active[slot].sound] {
      let click = active[slot]
      let offset = Int(reference - click.frame)
      for index in lags(of: click, at: reference, count: left.count) {
        let expected = weights[offset + index] * click.energy * click.gain * click.gain
        if sharing == .loudest {
          guard expected > power[index] else { continue }
          power[index] = expected
          loudest[index] = slot
        } else {
          power[index] += expected
        }
      }
    }
    for slot in 0..<activeCount where sharing != .new || !answered[active[slot].sound] {
      let click = active[slot]
      let offset = Int(reference - click.frame)
      let base = click.sound * frames + offset
      for index in lags(of: click, at: reference, count: left.count) where power[index] > 0 {
        guard sharing != .loudest || loudest[index] == slot else { continue }
        // The click's share first: where it is barely heard (lags far before its direct sound),
        // its weight and the power are both tiny, and what is left over the power alone overflows.
        let share = weights[offset + index] * click.energy * click.gain / power[index]
        answers[base + index] += step * left[index] * share
      }
    }
  }

  /// The indices of the `count` frames from the output's `reference` on within `click`'s answer.
  func lags(of click: ClickSounds.Click, at reference: Int64, count: Int) -> Range<Int> {
    let first = Int(max(click.frame - reference, 0))
    let end = Int(min(click.frame + Int64(frames) - reference, Int64(count)))
    return first < end ? first..<end : 0..<0
  }

  /// After a segment from the output's `reference` on, `count` frames, was heard as `heard` (while
  /// `learning`): keeps it for the rehearsal, takes the direct sound once the first click's answer
  /// has enough of it, and marks answers heard whole; returns how many frames later than the
  /// round trip given the direct sound was then heard, by which every answer was moved earlier
  /// (0 but once): the input's frames from then on hear the output that much earlier.
  func heard(_ heard: UnsafeBufferPointer<Float>, at reference: Int64, learning: Bool, of sounds: ClickSounds)
    -> Int64
  {
    let end = reference + Int64(heard.count)
    if learning {
      // Kept while it follows what is kept and fits; a new stretch of learning starts anew.
      rehearsalsLeft = 0
      let start = rehearsed.flatMap { $0.upperBound == reference ? $0.lowerBound : nil } ?? reference
      if end - start <= Int64(rehearsal.count) {
        for index in 0..<heard.count {
          rehearsal[Int((reference + rehearsalShift + Int64(index)) & Int64(rehearsal.count - 1))] = heard[index]
        }
        rehearsed = start..<end
      }
    } else if let span = rehearsed, rehearsalsLeft == 0 {
      rehearsalsLeft = Self.rehearsals
      rehearsalAt = span.lowerBound
    }
    for slot in 0..<activeCount {
      let click = active[slot]
      let lag = end - click.frame
      if directLag == nil, lag >= DirectPath.heard { learnDirectLag(from: click.sound, of: sounds) }
      if lag >= Int64(frames), !answered[click.sound] { close(click.sound, at: end) }
    }
    return realign()
  }

  /// Moves every answer earlier by how much later than the round trip given the first direct
  /// sound was heard, once it has been (`learnDirectLag`), so that each answer holds as much of
  /// the room's tail whatever the devices left out of the round trip; returns by how much.
  private func realign() -> Int64 {
    guard let directLag, !realigned else { return 0 }
    realigned = true
    let late = directLag - lead
    guard late > 0 else { return 0 }
    move(by: -late, except: nil)
    let shift = Int64(late)
    firstReference = firstReference.map { $0 - shift }
    rehearsed = rehearsed.map { ($0.lowerBound - shift)..<($0.upperBound - shift) }
    rehearsalShift += shift
    return shift
  }

  /// Ends learning `sound` whole, its answer heard to the end; unless nothing stood out in it (a
  /// speaker connected after it played, or a microphone that does not hear the click): then its
  /// next click begins it again (`begin`).
  private func close(_ sound: Int, at end: Int64) {
    guard directLag(of: sound) == nil else {
      answered[sound] = true
      return
    }
    start(sound, from: end)
  }

  /// Learns once more from up to 16,384 frames of what was heard while answers were first learned.
  ///
  /// Only while that is still to be done: each segment is predicted anew and what is left learned
  /// from, a little at a time, so that no cycle takes long.
  func rehearse(_ sounds: ClickSounds) {
    guard rehearsalsLeft > 0, let span = rehearsed else { return }
    let count = rehearsalLeft.count
    for _ in 0..<Self.rehearsedSegments {
      if rehearsalAt + Int64(count) > span.upperBound {
        rehearsalsLeft -= 1
        if rehearsalsLeft == 0 {
          rehearsed = nil
          return
        }
        rehearsalAt = span.lowerBound
      }
      _ = gather(sounds, at: rehearsalAt, count: count, hearing: true)
      predict(into: rehearsalLeft.pointer, at: rehearsalAt)
      for index in 0..<count {
        rehearsalLeft[index] =
          rehearsal[Int((rehearsalAt + rehearsalShift + Int64(index)) & Int64(rehearsal.count - 1))]
          - rehearsalLeft[index]
      }
      learn(rehearsalLeft.buffer, at: rehearsalAt, step: 1, sharing: .all)
      rehearsalAt += Int64(count)
    }
  }

  /// Fits the direct path to `sound`'s answer.
  private func fitDirectPath(to sound: Int, of sounds: ClickSounds) {
    guard let directLag else { return }
    direct.fit(
      to: { answers[sound * frames + $0] }, of: { sounds.sample(of: sound, at: $0) }, at: directLag, frames: frames)
  }

  /// How much of what is heard a click `lag` frames into its answer is taken to be its own (`weigh`).
  func weight(atLag lag: Int) -> Float { weights[lag] }

  /// Takes anew how much of what is heard a click so many frames into its answer is its own.
  ///
  /// Against the others: the energy the room's answer has then, as the first click's answer showed
  /// it fading (1 at the direct sound), and falling by e every 8 frames before it (where only a
  /// path a little shorter than the one learned is heard). Where clicks always sound together (an
  /// eighth's tail and the next beat), nothing else can tell their answers apart.
  private func weigh() {
    let direct = directLag ?? 0
    for lag in 0..<frames {
      weights[lag] = lag >= direct ? exp(-Float(lag - direct) / energyDecay) : exp(-Float(direct - lag) / 8)
    }
  }

  /// Frames over which `answer`, its direct sound at `directLag`, loses all but 1/e of its energy:
  /// read from its energy over 1,024 frames a little after the direct sound and 2,304 frames
  /// later, from 256 (a path with no tail, as a cable's, fades at once: nothing heard a beat later
  /// is its click's) to 16,384.
  static func energyDecay(of answer: (Int) -> Float, directLag: Int) -> Float {
    var early: Float = 0
    var late: Float = 0
    for lag in (directLag + 256)..<(directLag + 1_280) { early += answer(lag) * answer(lag) }
    for lag in (directLag + 2_560)..<(directLag + 3_584) { late += answer(lag) * answer(lag) }
    return early > late ? min(max(2_304 / log(early / late), 256), 16_384) : 256
  }

  /// Where `sound`'s answer has its direct sound (`DirectPath.lag(in:)`); nil where nothing stands out.
  private func directLag(of sound: Int) -> Int? { DirectPath.lag { answers[sound * frames + $0] } }

  /// Takes the direct sound's lag from `sound`'s answer, the first heard, and clears what every
  /// answer learned before it (another click's sound, heard while both were learned).
  private func learnDirectLag(from sound: Int, of sounds: ClickSounds) {
    guard let first = directLag(of: sound) else { return }
    directLag = first
    fitDirectPath(to: sound, of: sounds)
    energyDecay = Self.energyDecay(of: { answers[sound * frames + $0] }, directLag: first)
    weigh()
    let earliest = max(first - Self.directGuard, 0)
    for other in 0..<ClickSounds.most {
      for index in 0..<earliest { answers[other * frames + index] = 0 }
    }
  }

}

/// What `PathFollower` reads and changes of the answers.
extension ClickAnswers {
  /// The clicks gathered for the segment at hand.
  var gathered: UnsafeBufferPointer<ClickSounds.Click> { UnsafeBufferPointer(rebasing: active[0..<activeCount]) }

  /// Whether `sound`'s answer is known (heard whole, or started from the direct path).
  func isAnswered(_ sound: Int) -> Bool { answered[sound] }

  /// `sound`'s answer at `lag`.
  func answer(_ sound: Int, at lag: Int) -> Float { answers[sound * frames + lag] }

  /// `sound`'s answer, to change.
  private func answer(of sound: Int) -> UnsafeMutableBufferPointer<Float> {
    UnsafeMutableBufferPointer(rebasing: answers.pointer[(sound * frames)..<((sound + 1) * frames)])
  }

  /// Scales every answer by `factor`: the clicks come back that much louder.
  func scale(by factor: Float) {
    for index in 0..<answers.count { answers[index] *= factor }
  }

  /// Moves every answer but `kept`'s, and the direct sound's lag, `shift` frames later (earlier
  /// where negative).
  func move(by shift: Int, except kept: Int?) {
    guard shift != 0 else { return }
    for sound in 0..<ClickSounds.most where sound != kept {
      let base = sound * frames
      if shift > 0 {
        for lag in stride(from: frames - 1, through: 0, by: -1) {
          answers[base + lag] = lag >= shift ? answers[base + lag - shift] : 0
        }
      } else {
        for lag in 0..<frames { answers[base + lag] = lag - shift < frames ? answers[base + lag - shift] : 0 }
      }
    }
    directLag = directLag.map { $0 + shift }
    weigh()
  }

  /// Makes `learned(lag)` `sound`'s answer; where its direct sound moved, the others' moves with it.
  func replace(_ sound: Int, with learned: (Int) -> Float, of sounds: ClickSounds) {
    for lag in 0..<frames { answers[sound * frames + lag] = learned(lag) }
    guard let lag = directLag(of: sound) else { return }
    if let known = directLag {
      move(by: lag - known, except: sound)
    } else {
      // The first sound heard: a microphone behind headphones that hears the click after all.
      directLag = lag
      weigh()
    }
    fitDirectPath(to: sound, of: sounds)
  }
}
