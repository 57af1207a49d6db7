import PracticeListening

/// How a session ended, as its watchers are told when it does.
public struct SessionEnd: Sendable {
  /// The status the process ends with.
  public let status: Int32
  /// What ended it, in a few words: "quit", "played to its end", "interrupted (SIGTERM)",
  /// "failed: …".
  public let reason: String
  /// How long it ran, in seconds on the session's clock.
  public let seconds: Double
  /// The player's hits as scored, where the session listened.
  public let scorer: HitScorer?

  /// An end as given.
  public init(status: Int32, reason: String, seconds: Double, scorer: HitScorer?) {
    self.status = status
    self.reason = reason
    self.seconds = seconds
    self.scorer = scorer
  }
}
