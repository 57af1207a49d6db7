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
  /// The direct path as a short filter: its taps, from this many frames before the direct sound.
  private static let directTaps = 8
  private static let directBefore = 2
  /// Frames of the first answer the direct path is fitted over: its first millisecond.
  private static let directFitted = 48
  /// Frames from the first click within which a new sound is learned whole (1.5 s at 48 kHz).
  static let wholeFrames = 73_728
  /// The frame the first click played while listening starts on, and the output's frame from
  /// which the input is heard (nil while it has held only zeros).
  private var firstClick: Int64?
  private var firstReference: Int64?
  /// Whether the direct sound has been taken again from every answer learned whole.
  private var directSettled = false
  /// Frames of the first click's answer heard before its direct sound is looked for in it.
  static let directHeard = 6_144
  /// Frames of the count-in kept to learn from again.
  private static let rehearsalFrames = 1 << 17
  /// How many times the count-in is learned from again.
  private static let rehearsals = 12

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
  /// The direct path's filter, fitted to the first answer heard (`fitDirectPath`).
  private let direct = FloatBuffer(count: ClickAnswers.directTaps)
  /// The direct path's normal equations while they are solved: the matrix, then the right side.
  private let equations = UnsafeMutableBufferPointer<Double>.allocate(
    capacity: ClickAnswers.directTaps * (ClickAnswers.directTaps + 1))
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
  private var rehearsed: Range<Int64>?
  private var rehearsalsLeft = 0
  /// Where the rehearsal under way is.
  private var rehearsalAt: Int64 = .min
  private let rehearsalLeft = FloatBuffer(count: 128)

  /// No answers yet, each to be `frames` long, the round trip given `lead` frames into each.
  init(frames: Int, lead: Int) {
    self.frames = frames
    self.lead = lead
    answers = FloatBuffer(count: ClickSounds.most * frames)
    weights = FloatBuffer(count: frames)
    active.initialize(repeating: ClickSounds.Click(frame: 0, sound: 0, gain: 0, energy: 0))
    loudest.initialize(repeating: -1)
    equations.initialize(repeating: 0)
    weigh()
  }

  deinit {
    active.deallocate()
    loudest.deallocate()
    equations.deallocate()
  }

  /// Takes `sound` as new in its place from the output's `frame` on: nothing of its answer is
  /// known yet, and its clicks before are not heard (another sound's, or not heard at all).
  func start(_ sound: Int, from frame: Int64) {
    heardSince[sound] = frame
    for index in 0..<frames { answers[sound * frames + index] = 0 }
    answered[sound] = false
    begun[sound] = false
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
    let first = directLag - Self.directBefore
    let base = click.sound * frames
    for tap in 0..<Self.directTaps where first + tap >= 0 {
      for index in 0..<min(sounds.length(of: click.sound), frames - first - tap) {
        answers[base + first + tap + index] += direct[tap] * sounds.sample(of: click.sound, at: index)
      }
    }
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
    power.fill(0)
    for index in 0..<loudest.count { loudest[index] = -1 }
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
        answers[base + index] += step * left[index] / power[index] * weights[offset + index] * click.energy * click.gain
      }
    }
  }

  /// The indices of the `count` frames from the output's `reference` on within `click`'s answer.
  private func lags(of click: ClickSounds.Click, at reference: Int64, count: Int) -> Range<Int> {
    let first = Int(max(click.frame - reference, 0))
    let end = Int(min(click.frame + Int64(frames) - reference, Int64(count)))
    return first < end ? first..<end : 0..<0
  }

  /// After a segment from the output's `reference` on, `count` frames, was heard as `heard` (while
  /// `learning`): keeps it for the rehearsal, takes the direct sound once the first click's answer
  /// has enough of it, and marks answers heard whole.
  func heard(_ heard: UnsafeBufferPointer<Float>, at reference: Int64, learning: Bool, of sounds: ClickSounds) {
    let end = reference + Int64(heard.count)
    if learning {
      // Kept while it follows what is kept and fits; a new stretch of learning starts anew.
      rehearsalsLeft = 0
      let start = rehearsed.flatMap { $0.upperBound == reference ? $0.lowerBound : nil } ?? reference
      if end - start <= Int64(rehearsal.count) {
        for index in 0..<heard.count {
          rehearsal[Int((reference + Int64(index)) & Int64(rehearsal.count - 1))] = heard[index]
        }
        rehearsed = start..<end
      }
    } else if let span = rehearsed, rehearsalsLeft == 0 {
      // One more than asked: the first pass starts by finding itself at the span's end.
      rehearsalsLeft = Self.rehearsals + 1
      rehearsalAt = span.upperBound
    }
    for slot in 0..<activeCount {
      let click = active[slot]
      let lag = end - click.frame
      if directLag == nil, lag >= Self.directHeard { learnDirectLag(from: click.sound, of: sounds) }
      if lag >= Int64(frames), !answered[click.sound] { close(click.sound, at: end) }
    }
    if !directSettled, let firstClick, end - firstClick > Int64(Self.wholeFrames) {
      directSettled = true
      settleDirectLag(of: sounds)
    }
  }

  /// Ends learning `sound` whole, its answer heard to the end; unless nothing stood out in it (a
  /// speaker connected after it played, or a microphone that does not hear the click): then its
  /// next click begins it again (`begin`).
  private func close(_ sound: Int, at end: Int64) {
    guard directLag(in: sound) == nil else {
      answered[sound] = true
      return
    }
    start(sound, from: end)
  }

  /// Learns once more from up to 4,096 frames of what was heard while answers were first learned.
  ///
  /// Only while that is still to be done: each segment is predicted anew and what is left learned
  /// from, a little at a time, so that no cycle takes long.
  func rehearse(_ sounds: ClickSounds) {
    guard rehearsalsLeft > 0, let span = rehearsed else { return }
    let count = rehearsalLeft.count
    for _ in 0..<32 {
      if rehearsalAt < span.lowerBound || rehearsalAt + Int64(count) > span.upperBound {
        rehearsalAt = span.lowerBound
        rehearsalsLeft -= 1
        if rehearsalsLeft == 0 {
          rehearsed = nil
          return
        }
      }
      _ = gather(sounds, at: rehearsalAt, count: count, hearing: true)
      predict(into: rehearsalLeft.pointer, at: rehearsalAt)
      for index in 0..<count {
        rehearsalLeft[index] =
          rehearsal[Int((rehearsalAt + Int64(index)) & Int64(rehearsal.count - 1))] - rehearsalLeft[index]
      }
      learn(rehearsalLeft.buffer, at: rehearsalAt, step: 1, sharing: .all)
      rehearsalAt += Int64(count)
    }
  }

  /// Fits the direct path's filter to `sound`'s answer over its first millisecond from the direct sound.
  ///
  /// Before a reflection comes: least squares against the sound's own samples. Allocates nothing.
  private func fitDirectPath(to sound: Int, of sounds: ClickSounds) {
    guard let directLag else { return }
    let taps = Self.directTaps
    let first = directLag - Self.directBefore
    // The normal equations (the matrix, then the right side), with a little ridge so that a sound
    // with a gap in its spectrum still fits.
    let side = taps * taps
    equations.update(repeating: 0)
    for lag in max(first, 0)..<min(first + Self.directFitted, frames) {
      for row in 0..<taps {
        let x = Double(sounds.sample(of: sound, at: lag - first - row))
        equations[side + row] += x * Double(answers[sound * frames + lag])
        for column in 0..<taps {
          equations[row * taps + column] += x * Double(sounds.sample(of: sound, at: lag - first - column))
        }
      }
    }
    var trace = 0.0
    for row in 0..<taps { trace += equations[row * taps + row] }
    for row in 0..<taps { equations[row * taps + row] += 1e-6 * trace / Double(taps) + 1e-12 }
    Self.solve(equations, size: taps)
    for tap in 0..<taps { direct[tap] = Float(equations[side + tap]) }
  }

  /// Solves `size` linear equations in place: `equations` holds their matrix, then the right side,
  /// which becomes the solution (Gaussian elimination with partial pivoting).
  private static func solve(_ equations: UnsafeMutableBufferPointer<Double>, size: Int) {
    let side = size * size
    for column in 0..<size {
      var pivot = column
      for row in column..<size where abs(equations[row * size + column]) > abs(equations[pivot * size + column]) {
        pivot = row
      }
      if pivot != column {
        for index in 0..<size { equations.swapAt(column * size + index, pivot * size + index) }
        equations.swapAt(side + column, side + pivot)
      }
      let lead = equations[column * size + column]
      guard lead != 0 else { continue }
      for row in (column + 1)..<size {
        let factor = equations[row * size + column] / lead
        for index in column..<size { equations[row * size + index] -= factor * equations[column * size + index] }
        equations[side + row] -= factor * equations[side + column]
      }
    }
    for row in stride(from: size - 1, through: 0, by: -1) {
      var sum = equations[side + row]
      for index in (row + 1)..<size { sum -= equations[row * size + index] * equations[side + index] }
      let lead = equations[row * size + row]
      equations[side + row] = lead != 0 ? sum / lead : 0
    }
  }

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

  /// Where `sound`'s answer first reaches a tenth of its peak over `directHeard` frames, and four
  /// times what it holds in its first 256 frames (before the round trip given, where no echo can
  /// be); nil where nothing stands out.
  private func directLag(in sound: Int) -> Int? {
    let base = sound * frames
    var peak: Float = 0
    for index in 0..<Self.directHeard { peak = max(peak, answers[base + index].magnitude) }
    var before: Float = 0
    for index in 0..<256 { before += answers[base + index] * answers[base + index] }
    let floor = max(peak / 10, 4 * (before / 256).squareRoot())
    guard peak > floor else { return nil }
    return (0..<(Self.directHeard - 3_584)).first { answers[base + $0].magnitude >= floor }
  }

  /// Takes the direct sound's lag from `sound`'s answer, the first heard, and clears what every
  /// answer learned before it (another click's sound, heard while both were learned).
  private func learnDirectLag(from sound: Int, of sounds: ClickSounds) {
    guard let first = directLag(in: sound) else { return }
    directLag = first
    fitDirectPath(to: sound, of: sounds)
    // The energy a little after the direct sound, and 2,304 frames later.
    let base = sound * frames
    var early: Float = 0
    var late: Float = 0
    for index in (first + 256)..<(first + 1_280) { early += answers[base + index] * answers[base + index] }
    for index in (first + 2_560)..<(first + 3_584) { late += answers[base + index] * answers[base + index] }
    // A path with no tail (a cable) fades at once: nothing heard a beat later is its click's.
    energyDecay = late > early * 1e-6 && early > late ? min(max(2_304 / log(early / late), 256), 16_384) : 256
    weigh()
    let earliest = max(first - Self.directGuard, 0)
    for other in 0..<ClickSounds.most {
      for index in 0..<earliest { answers[other * frames + index] = 0 }
    }
  }

  /// Takes the direct sound's lag again, once the count-in is over, as the earliest of those the
  /// answers learned whole show: the first click may have been heard in part (a microphone
  /// connected as it played), which puts its direct sound late.
  private func settleDirectLag(of sounds: ClickSounds) {
    var earliest: (lag: Int, sound: Int)?
    for sound in 0..<ClickSounds.most where answered[sound] && begun[sound] {
      guard let lag = directLag(in: sound), lag < earliest?.lag ?? .max else { continue }
      earliest = (lag, sound)
    }
    guard let earliest, earliest.lag != directLag else { return }
    directLag = earliest.lag
    fitDirectPath(to: earliest.sound, of: sounds)
    weigh()
  }
}
