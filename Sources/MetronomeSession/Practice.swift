import PracticeListening

/// What a session that listens to the player is given when it is made: the scorer its hits are
/// scored by against the clicks heard, the goal that ends the run, whether typed keys are hits,
/// and what follows the summary at the end (a report written, a calibration saved).
public struct Practice {
  /// The player's hits, scored against the clicks heard; each is printed or shown as it is
  /// scored, and the summary said at the end.
  public var scorer: HitScorer
  /// The run ends once this many hits are scored; nil for no such end.
  public var goal: Int?
  /// Whether typed keys are hits (all but quit): a tap-along without MIDI.
  public var keysAreHits: Bool
  /// Called with the hits scored when the run ends: returns the lines to say and what went
  /// wrong, if anything, which ends the run with status 1.
  public var conclude: ((HitScorer) -> (notes: [String], error: String?))?

  /// Practice as given: by default no goal, keys that stay keys and nothing after the summary.
  public init(
    scorer: HitScorer, goal: Int? = nil, keysAreHits: Bool = false,
    conclude: ((HitScorer) -> (notes: [String], error: String?))? = nil
  ) {
    self.scorer = scorer
    self.goal = goal
    self.keysAreHits = keysAreHits
    self.conclude = conclude
  }
}
