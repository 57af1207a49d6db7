import MetronomeCore

/// What watches a running session, given to it when it is made: it is told of each beat as the
/// beat is heard, and of the end, on the session's main queue.
///
/// A remote control telling its clients of the beats is one; a new watcher is one more type
/// that conforms, given to the session beside the others, with no change to the session.
@MainActor
public protocol SessionObserver: AnyObject {
  /// Whether it is told of every click (a subdivision's and the second voice's too) rather than
  /// the bar's beats alone: a session that tells no one else of them wakes no thread for them.
  var hearsEveryClick: Bool { get }
  /// Takes `beat`, heard now; a beat a glitch skipped is not told.
  func heard(_ beat: Beat)
  /// Takes the session's end, however it came, before its last lines are said and the process
  /// ends; what it says goes to `say`, a line at a time.
  func ended(_ end: SessionEnd, say: (String) -> Void)
}

extension SessionObserver {
  /// Every click, unless a watcher says it wants the bar's beats alone.
  public var hearsEveryClick: Bool { true }

  /// Nothing, for a watcher of the beats alone.
  public func ended(_ end: SessionEnd, say: (String) -> Void) {}
}
