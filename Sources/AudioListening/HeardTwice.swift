/// What the last two clicks of each sound were heard as, to learn a sound's answer again when
/// the room's path has changed (a microphone or a speaker moved, a volume turned).
///
/// A learned answer is only moved where the input is what it predicts up to a level
/// (`EchoPathCanceller`): once the path changes, nothing matches it any more. But a click heard
/// alone is heard the same, to the sample, each time its sound is played, which a player never
/// is: strokes move by milliseconds and ring differently. So each click of a sound whose answer
/// is known is heard on its own (the input less what the other clicks sounding then are
/// predicted to make, per unit of its level), over its whole answer; where two clicks of the sound
/// running were heard alike (within -40 dB) and the answer is not what they heard (by more than
/// -30 dB), their mean is the answer from then on. Anything under either click (a stroke, its
/// ring, the room's noise) makes them differ: under a drummer playing on, nothing is learned.
///
/// Each click heard also says how loud it came back against the answer, how loud everything heard
/// with it came back against all the answers sounding then, and, heard whole, where its direct
/// sound is: what `PathFollower` follows while the player plays on.
///
/// Allocates nothing once made; touched by one thread.
final class HeardTwice {
  /// How alike two clicks must be heard: what differs, over what they hold (-40 dB).
  private static let alike: Float = 1e-4
  /// How far the answer must be from what they heard for it to be learned again (-30 dB).
  private static let unlike: Float = 1e-3

  private let frames: Int
  /// Each sound's click being heard, and the one of its sound heard before it, whole.
  private let current: FloatBuffer
  private let previous: FloatBuffer
  /// Per sound: the click heard now (its frame), whether what it holds so far may be used,
  /// and the sums that compare it, over what it has heard so far.
  private var heardClick = [Int64?](repeating: nil, count: ClickSounds.most)
  private var usable = [Bool](repeating: false, count: ClickSounds.most)
  private var hasPrevious = [Bool](repeating: false, count: ClickSounds.most)
  private var sums = [Sums](repeating: Sums(), count: ClickSounds.most)

  /// What one click's hearing adds up: its energy, what differs from the click before, what
  /// differs from the answer, and the last samples of its answer, of the others' and of what was
  /// heard, whose changes `fits` and `wholeFits` take.
  private struct Sums {
    var heard: Float = 0
    var fromPrevious: Float = 0
    var fromAnswer: Float = 0
    var lastAnswer: Float = 0
    var lastOthers: Float = 0
    var lastHeard: Float = 0
  }

  /// Over each click's first `early` frames, the sample-to-sample changes of its answer against
  /// those heard (`fits`), and of all the answers sounding against all that was heard
  /// (`wholeFits`), chunk by chunk, so that a stroke leans only the chunks it sounds in.
  private let fits: ChunkedFit
  private let wholeFits: ChunkedFit

  /// The frames of each answer over which how loud a click is heard is measured: where its
  /// echo is loudest (93 ms at 44.1 kHz).
  private static let early = 4_096

  /// The frames of an answer from its direct sound's lag over which how loud a click is heard is
  /// measured again: the direct sound, the same shape wherever the microphone is, which the
  /// first `early` frames are not once it moved.
  private static let direct = -64..<192

  /// Nothing heard yet, for answers of `frames` frames.
  init(frames: Int) {
    self.frames = frames
    current = FloatBuffer(count: ClickSounds.most * frames)
    previous = FloatBuffer(count: ClickSounds.most * frames)
    fits = ChunkedFit(frames: Self.early, sounds: ClickSounds.most)
    wholeFits = ChunkedFit(frames: Self.early, sounds: ClickSounds.most)
  }

  /// Forgets what `sound` was heard as (another sound takes its place, or its answer is learned
  /// whole anew).
  func forget(_ sound: Int) {
    heardClick[sound] = nil
    hasPrevious[sound] = false
  }

  /// What hearing a click's frames told.
  struct Verdict {
    /// The click has been heard to the end of its answer, alike with the one before and unlike
    /// the answer: `learned(_:at:)` is what both heard, to learn.
    var learned = false
    /// The click's first `early` frames have been heard: how loud it was heard against its
    /// answer there (a fit of the answer's sample-to-sample changes to those heard, which a
    /// drum's ring leans least, read where its chunks agree: `ChunkedFit`, which a stroke in part
    /// of the click leans not at all), where its direct sound alone was heard as loud within
    /// 5 % (not where the answer is the wrong shape, a microphone moved); nil before, or where
    /// the input could not be trusted.
    var level: Float?
    /// How loud all that was heard over `level`'s frames came back against all the answers.
    ///
    /// All the answers sounding then, this click's and the others', per unit of this click's
    /// level; read where `level` is. A volume turned changes both alike, but the other clicks'
    /// tails, played before the turn, are heard louder than they are predicted and lean `level`,
    /// not this.
    var overall: Float?
    /// The click has been heard to the end of its answer (`shift(of:near:within:answer:)` may
    /// be asked where its direct sound was).
    var whole = false
    /// The frames given were heard as the click before heard them, to the sample (within -60 dB,
    /// which a stroke played again the same, over another's ring, is not), and unlike the answer
    /// (by more than -20 dB): the echo has changed, and what it leaves there is echo, not a hit.
    var changedHere = false
  }

  /// Hears `click` at its answer's lags `lags`, from lag `first`: `heard(lag)` is the input there
  /// less the other clicks' predicted echo, per unit of the click's level, `answer(lag)` the
  /// answer learned, whose direct sound is at `directLag` (nil: unknown), and `others(lag)` the
  /// other clicks' predicted echo, per unit of the click's level; `clean` is false where the input
  /// cannot be trusted (cut at full scale).
  func hear(
    _ click: ClickSounds.Click, lags: Range<Int>, from first: Int, directLag: Int?, clean: Bool,
    heard: (Int) -> Float, answer: (Int) -> Float, others: (Int) -> Float
  ) -> Verdict {
    let sound = click.sound
    if heardClick[sound] != click.frame {
      // Only a click heard from its start is heard whole; one of the same sound that starts
      // while another is heard waits for the next.
      let hearing = heardClick[sound].map { $0 + Int64(frames) > click.frame } ?? false
      guard lags.lowerBound == -first, !hearing else { return Verdict() }
      heardClick[sound] = click.frame
      usable[sound] = true
      sums[sound] = Sums()
      fits.reset(sound)
      wholeFits.reset(sound)
    }
    usable[sound] = usable[sound] && clean
    let base = sound * frames
    var total = sums[sound]
    let before = total
    let measured = directLag.map { ($0 + Self.direct.lowerBound)..<($0 + Self.direct.upperBound) } ?? 0..<0
    for index in lags {
      let lag = first + index
      let value = heard(index)
      let learned = answer(index)
      current[base + lag] = value
      total.heard += value * value
      let fromPrevious = value - previous[base + lag]
      total.fromPrevious += fromPrevious * fromPrevious
      let fromAnswer = value - learned
      total.fromAnswer += fromAnswer * fromAnswer
      let other = others(index)
      if lag > 0, lag < Self.early {
        let answerChange = learned - total.lastAnswer
        let heardChange = value - current[base + lag - 1]
        fits.add(sound, lag: lag, answerChange: answerChange, heardChange: heardChange)
        wholeFits.add(
          sound, lag: lag, answerChange: answerChange + other - total.lastOthers,
          heardChange: value + other - total.lastHeard)
      }
      total.lastAnswer = learned
      total.lastOthers = other
      total.lastHeard = value + other
    }
    sums[sound] = total
    var verdict = Verdict()
    let heardHere = total.heard - before.heard
    verdict.changedHere =
      hasPrevious[sound] && usable[sound] && heardHere > 0
      && total.fromPrevious - before.fromPrevious <= 1e-6 * heardHere
      && total.fromAnswer - before.fromAnswer > 1e-2 * heardHere
    if first + lags.lowerBound < Self.early, first + lags.upperBound >= Self.early, usable[sound],
      let early = fits.level(of: sound, over: 1..<Self.early), let direct = fits.level(of: sound, over: measured),
      abs(early / direct - 1) <= 0.05
    {
      verdict.level = early
      verdict.overall = wholeFits.level(of: sound, over: 1..<Self.early)
    }
    guard first + lags.upperBound >= frames else { return verdict }
    verdict.whole = usable[sound]
    // Heard to the end: compared with the click before, then kept as the one before.
    heardClick[sound] = nil
    verdict.learned =
      hasPrevious[sound] && usable[sound] && total.heard > 0 && total.fromPrevious <= Self.alike * total.heard
      && total.fromAnswer > Self.unlike * total.heard
    if verdict.learned {
      for lag in 0..<frames { current[base + lag] = 0.5 * (current[base + lag] + previous[base + lag]) }
    }
    for lag in 0..<frames { previous[base + lag] = current[base + lag] }
    hasPrevious[sound] = usable[sound]
    return verdict
  }

  /// What `sound`'s last two clicks were heard as alike, at `lag`, once `hear` said so.
  func learned(_ sound: Int, at lag: Int) -> Float { previous[sound * frames + lag] }

  /// How many frames later than in `answer` (`sound`'s) the click just heard whole holds its
  /// direct sound, which the answer has at `lag`: where the answer's direct sound (from 64 frames
  /// before its lag to 48 after, before any reflection), moved up to `within` frames either way,
  /// best matches what was heard (their sample-to-sample changes, which a drum's ring leans
  /// least); nil where even the best match explains less than half of what was heard there (a
  /// stroke over it).
  func shift(of sound: Int, near lag: Int, within: Int, answer: (Int) -> Float) -> Int? {
    let base = sound * frames
    let start = max(lag - 64, within + 1)
    let end = min(lag + 48, frames - within)
    guard start < end else { return nil }
    var best: (shift: Int, crossed: Float, heard: Float)?
    var answerEnergy: Float = 0
    for index in start..<end {
      let change = answer(index) - answer(index - 1)
      answerEnergy += change * change
    }
    for shift in -within...within {
      var crossed: Float = 0
      var heard: Float = 0
      for index in start..<end {
        let heardChange = previous[base + index + shift] - previous[base + index + shift - 1]
        crossed += heardChange * (answer(index) - answer(index - 1))
        heard += heardChange * heardChange
      }
      // The best explained: the largest normalised correlation, of the right sign.
      if crossed > 0, best.map({ crossed * crossed * $0.heard > $0.crossed * $0.crossed * heard }) ?? true {
        best = (shift, crossed, heard)
      }
    }
    guard let best, best.crossed * best.crossed >= 0.5 * best.heard * answerEnergy else { return nil }
    return best.shift
  }
}
