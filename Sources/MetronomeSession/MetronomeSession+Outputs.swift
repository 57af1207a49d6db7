extension MetronomeSession {
  /// Where the session writes, and how it ends the process.
  public struct Outputs {
    /// Writes to standard output: the beat lines; false when nobody reads them any more.
    public var standardOutput: (String) -> Bool
    /// Writes to standard error: notes and errors.
    public var standardError: (String) -> Void
    /// Ends the process with a status.
    public var exit: (Int32) -> Void

    /// Outputs as given.
    public init(
      standardOutput: @escaping (String) -> Bool, standardError: @escaping (String) -> Void,
      exit: @escaping (Int32) -> Void
    ) {
      self.standardOutput = standardOutput
      self.standardError = standardError
      self.exit = exit
    }
  }

  /// How the render loop runs.
  public enum Rendering: Sendable {
    /// On a thread of its own, paced by the sink: live and silent runs.
    case onItsOwnThread
    /// On the caller's thread inside `start()`: virtual runs, and tests whose sink advances time.
    /// Only a key script plays such a run on, so one its last key leaves paused ends there.
    case inline
  }
}
