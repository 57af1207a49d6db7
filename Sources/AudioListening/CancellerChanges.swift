/// What a canceller followed of the path from the output to its input so far, counted: each time
/// the input went silent, the click came back louder or softer, its direct sound moved, or a
/// sound's echo was learned again.
public struct CancellerChanges: Equatable, Sendable {
  /// How many times the input stopped hearing the click it heard.
  public var silences = 0
  /// How many times the click came back louder or softer.
  public var levels = 0
  /// The factor it came back louder by, the last time.
  public var lastLevel: Float = 1
  /// How many times the click's direct sound moved.
  public var moves = 0
  /// How many frames later it came, the last time (earlier where negative).
  public var lastMove = 0
  /// How many times a sound's echo was learned again.
  public var learnedAgain = 0

  /// Nothing followed yet.
  public init() {}
}
