import MetronomeAudio
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

  /// Practice as given: by default keys that stay keys and nothing after the summary.
  public init(
    scorer: HitScorer, keysAreHits: Bool = false, conclude: ((HitScorer) -> (notes: [String], error: String?))? = nil
  ) {
    self.scorer = scorer
    self.keysAreHits = keysAreHits
    self.conclude = conclude
  }

  /// Whether hits are still scored: once the goal is reached the run is ending, and later hits
  /// (or hits a later click decides) are not its.
  var takesHits: Bool { scorer.goal.map { scorer.scored.count < $0 } ?? true }

  /// Whether the goal has been reached.
  var reachedGoal: Bool { !takesHits }

  /// Takes `beat`, heard at `now` on the main queue's clock; returns the hits it decided.
  mutating func heard(_ beat: Beat, at now: AudioTime) -> [ScoredHit] {
    if beat.voice == .beats { lastHeardClick = (beat.frame, now) }
    return takesHits ? scorer.heard(beat) : []
  }

  /// Takes a hit the player played, its frame already where the clicks are heard; returns the
  /// hits decided.
  mutating func played(_ hit: Hit) -> [ScoredHit] { takesHits ? scorer.played(hit) : [] }

  /// Takes a key typed at `now` on the main queue's clock as a hit; returns the hits decided.
  ///
  /// The key is heard where the last click heard was, and as much later as the clock went on.
  mutating func typedKey(at now: AudioTime, sampleRate: SampleRate) -> [ScoredHit] {
    guard let (frame, at) = lastHeardClick else { return [] }
    let later = at.distance(to: now).ticks / sampleRate.ticksPerFrame
    return played(Hit(frame: frame + later, note: Hit.keyNote, velocity: 127))
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
