import MetronomeAudio
import MetronomeControl
import MetronomeCore
import PracticeListening

/// A session's listening to the player, given to it when it is made: the hits scored against the
/// clicks heard (typed keys too, in a tap-along), the scorer's goal, which ends the run, and the
/// summary at the end with what follows it (a report written, a calibration saved).
///
/// The session hands it what happens (beats heard, hits, notices, keys) and shows what it scored.
public struct Practice {
  /// The player's hits as scored so far; the run ends once its goal is reached, if it has one.
  public private(set) var scorer: HitScorer
  /// Whether typed keys are hits (all but quit): a tap-along without MIDI.
  public let keysAreHits: Bool
  /// Called with the hits scored when the run ends: returns the lines to say and what went
  /// wrong, if anything, which ends the run with status 1.
  private let conclude: ((HitScorer) -> (notes: [String], error: String?))?
  /// The last click heard and when, on the main queue's clock: where a typed key falls.
  private var lastHeardClick: (frame: Int64, at: AudioTime)?
  /// The judge of an earned trainer's steps, if the run earns them.
  public private(set) var coach: StepCoach?
  /// The judge of the click earned away, if the run earns it.
  public private(set) var silence: SilenceCoach?
  /// Whether a block of the trainer, and a bar, ended with the beat heard last and await their
  /// verdicts.
  private var awaiting = (block: false, bar: false)

  /// Practice as given: by default keys that stay keys, nothing to earn and nothing after the
  /// summary.
  public init(
    scorer: HitScorer, keysAreHits: Bool = false, coach: StepCoach? = nil, silence: SilenceCoach? = nil,
    conclude: ((HitScorer) -> (notes: [String], error: String?))? = nil
  ) {
    self.scorer = scorer
    self.keysAreHits = keysAreHits
    self.coach = coach
    self.silence = silence
    self.conclude = conclude
  }

  /// What the display shows of the practice: the scorer's lines, then what is being earned.
  var displayLines: [String] {
    scorer.displayLines + [coach?.displayLine, silence?.displayLine].compactMap { $0 }
  }

  /// Whether hits are still scored: once the goal is reached the run is ending, and later hits
  /// (or hits a later click decides) are not its.
  var takesHits: Bool { scorer.goal.map { scorer.scored.count < $0 } ?? true }

  /// Whether the goal has been reached.
  var reachedGoal: Bool { !takesHits }

  /// Takes `beat`, heard at `now` on the main queue's clock; returns the hits it decided, and
  /// whether it ended a block of an earned trainer or a bar whose click is earned away, whose
  /// verdicts are then due a tolerance later (`judge()`).
  mutating func heard(_ beat: Beat, at now: AudioTime) -> (scored: [ScoredHit], judgeLater: Bool) {
    if beat.voice == .beats { lastHeardClick = (beat.frame, now) }
    if coach?.heard(beat) == true { awaiting.block = true }
    if silence?.heard(beat) == true { awaiting.bar = true }
    return (takesHits ? scorer.heard(beat) : [], awaiting.block || awaiting.bar)
  }

  /// Takes `beat` as skipped by a glitch, never heard; returns the hits it decided.
  mutating func skipped(_ beat: Beat) -> [ScoredHit] { takesHits ? scorer.skipped(beat) : [] }

  /// Takes a hit the player played, its frame already where the clicks are heard; returns the
  /// hits decided, and what it asks of the state at once: a miss brings the click back whole.
  mutating func played(_ hit: Hit) -> (scored: [ScoredHit], actions: [MetronomeAction]) {
    coach?.played(hit)
    let missed = silence?.played(hit) ?? false
    return (takesHits ? scorer.played(hit) : [], missed ? [.setClickLevel(1)] : [])
  }

  /// The verdicts on the block and the bar that ended: what they ask of the state (the steps to
  /// move at the block's end, the next bar's click level).
  mutating func judge() -> [MetronomeAction] {
    var actions: [MetronomeAction] = []
    if awaiting.block, let move = coach?.decide() { actions.append(.moveAtSectionEnd(by: move)) }
    if awaiting.bar, let level = silence?.decide() { actions.append(.setClickLevel(level)) }
    awaiting = (false, false)
    return actions
  }

  /// Takes a key typed at `now` on the main queue's clock as a hit; returns the hits decided.
  ///
  /// The key is heard where the last click heard was, and as much later as the clock went on.
  mutating func typedKey(at now: AudioTime, sampleRate: SampleRate) -> [ScoredHit] {
    guard let (frame, at) = lastHeardClick else { return [] }
    let later = at.distance(to: now).ticks / sampleRate.ticksPerFrame
    return played(Hit(frame: frame + later, note: Hit.keyNote, velocity: 127)).scored
  }

  /// Takes what the audio input noticed of itself.
  mutating func noticed(_ notice: InputNotice) { scorer.heard(notice) }

  /// Decides the hits left as the run ends.
  mutating func finish() -> [ScoredHit] { takesHits ? scorer.finish() : [] }

  /// The lines to say at the end (the summary, then what concluding said) and what went wrong
  /// in concluding; nil for a run that failed before any hit came, which has nothing to sum up.
  func conclusion(afterFailing failed: Bool) -> (lines: [String], error: String?)? {
    guard !failed || !scorer.scored.isEmpty || scorer.unscored > 0 else { return nil }
    let (notes, error) = conclude?(scorer) ?? ([], nil)
    return (["listening: \(scorer.summary)"] + notes, error)
  }
}
