/// Follows the path from the output to the input as it changes while the metronome plays: a
/// microphone or a speaker moved, a volume turned.
///
/// Each click of a sound whose answer is known is heard on its own (`HeardTwice`). Where a sound's
/// last two clicks were heard alike and unlike its answer (the clicks sounding alone, the player
/// resting), their mean is its answer, and the other sounds' answers move with its direct sound.
/// While the player plays on, only what a stroke leans little is followed: how loud the clicks
/// come back (the answers scaled where the last readings all but agree), and where their direct
/// sound is (the answers moved likewise); the readings of two sounds or more, since a player
/// striking every accent leans the accent's readings alike. How loud is read over all the clicks
/// sounding with each (`HeardTwice.Verdict.overall`): in eighths, or in a room whose tail lasts a
/// beat, the clicks before were played before the volume turned and are heard louder than
/// predicted, which leans one click's own reading by up to twice the turn.
///
/// Allocates nothing once made; touched by one thread.
final class PathFollower {
  /// How far the direct sound is looked for either way of where it was, in frames.
  private static let shiftSearched = 256

  private let heardTwice: HeardTwice
  /// How loud the last clicks came back: two of the last three within 4 % of their median, which
  /// moved by half a decibel or more (a volume turned; three, so that the fourth click after the
  /// turn is heard scaled though a stroke spoiled one reading); then, to follow it more closely
  /// than three readings through the drums can, once, the median of the five after, four of them
  /// within 2 % of it.
  private let levels = RecentReadings(
    count: 3, agrees: { abs($0 / $1 - 1) <= 0.04 }, changed: { abs($0 - 1) >= 0.06 })
  private let closerLevels = RecentReadings(count: 5, agrees: { abs($0 / $1 - 1) <= 0.02 }, changed: { _ in true })
  private var settling = false
  /// How far their direct sound moved: two of the last three within a frame of their median,
  /// which moved by 4 frames or more (three, so that the fourth click after a microphone moved is
  /// placed by where it is heard now; four readings placed it by where it was heard before).
  private let shifts = RecentReadings(count: 3, agrees: { abs($0 - $1) <= 1 }, changed: { abs($0) >= 4 })

  /// Nothing heard yet, for answers of `frames` frames.
  init(frames: Int) { heardTwice = HeardTwice(frames: frames) }

  /// What hearing the clicks on their own changed.
  struct Followed {
    /// A sound's answer was learned again: its last two clicks were heard alike and unlike it.
    var learnedAgain = false
    /// Every answer was scaled by this: the clicks came back louder or softer.
    var scaled: Float?
    /// Every answer was moved by this many frames: the clicks' direct sound came that much later.
    var moved: Int?
    /// The frames given were heard as the last click of a sound heard them, and unlike its
    /// answer: what the echo leaves there is echo (`HeardTwice.Verdict.changedHere`).
    var changedHere = false
    /// Every answer was scaled by readings this far apart, as a share: how far off the level they
    /// were scaled to may still be.
    var levelDoubt: Float?
  }

  /// Forgets what `sound` was heard as: another sound takes its place, or it is learned whole anew.
  func forget(_ sound: Int) {
    heardTwice.forget(sound)
  }

  /// Hears the clicks gathered in `answers` on their own: the input `heard` from the output's
  /// `reference` on less what the other clicks are `predicted` to make (all of them are in
  /// `predicted`), where the input is `clean`; follows what changed, in `answers`, and says what.
  func hear(
    _ heard: UnsafeBufferPointer<Float>, predicted: UnsafeBufferPointer<Float>, at reference: Int64, clean: Bool,
    in answers: ClickAnswers, of sounds: ClickSounds
  ) -> Followed {
    var told = Followed()
    for click in answers.gathered where answers.isAnswered(click.sound) && click.gain > 0 {
      let offset = Int(reference - click.frame)
      let sound = click.sound
      let verdict = heardTwice.hear(
        click, lags: answers.lags(of: click, at: reference, count: heard.count), from: offset,
        directLag: answers.directLag, clean: clean,
        heard: { (heard[$0] - predicted[$0]) / click.gain + answers.answer(sound, at: offset + $0) },
        answer: { answers.answer(sound, at: offset + $0) },
        others: { predicted[$0] / click.gain - answers.answer(sound, at: offset + $0) })
      told.changedHere = told.changedHere || verdict.changedHere
      if let level = verdict.level, let overall = verdict.overall, level > 0 {
        if let factor = levels.read(overall, of: sound) {
          answers.scale(by: factor)
          told.scaled = factor
          told.levelDoubt = levels.spread
          settling = true
          closerLevels.forget()
        } else if settling, let factor = closerLevels.read(overall, of: sound) {
          answers.scale(by: factor)
          told.levelDoubt = closerLevels.spread
          settling = false
        }
      }
      if verdict.whole, let lag = answers.directLag,
        let shift = heardTwice.shift(
          of: sound, near: lag, within: Self.shiftSearched, answer: { answers.answer(sound, at: $0) }),
        let moved = shifts.read(Float(shift), of: sound)
      {
        answers.move(by: Int(moved.rounded()), except: nil)
        told.moved = Int(moved.rounded())
      }
      guard verdict.learned else { continue }
      answers.replace(sound, with: { heardTwice.learned(sound, at: $0) }, of: sounds)
      told.learnedAgain = true
    }
    return told
  }
}
