/// Why a run cannot start or go on, and the exit status that says so (as sysexits.h numbers them).
///
/// The library throws these; the executable maps each to its message and status in one place.
public struct RunError: Error, Equatable, CustomStringConvertible {
  /// What kind of fault it is: it sets the exit status and how the message is shown.
  public enum Kind: Equatable, Sendable {
    /// The command line asks for what cannot be: status 64, `Error: …` and the usage.
    case usage
    /// A file's contents are wrong: status 65, one line that says where (`FILE:LINE:COLUMN: error: …`).
    case data
    /// A file cannot be read: status 66, one line.
    case input
    /// The run failed after it was accepted (no device, no server): status 1, `Error: …`.
    case runtime
    /// A signal ended it: the shell's status for that signal, after a note saying so.
    case interrupted(status: Int32)
  }

  /// What kind of fault it is.
  public let kind: Kind
  /// What was wrong and what to do, in one line (a located file error is the whole line).
  public let message: String

  /// An error of `kind` saying `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// A command line that asks for what cannot be.
  public static func usage(_ message: String) -> RunError { RunError(.usage, message) }

  /// A failure after the command line was accepted.
  public static func runtime(_ message: String) -> RunError { RunError(.runtime, message) }

  /// The status the process ends with.
  public var status: Int32 {
    switch kind {
    case .usage: 64
    case .data: 65
    case .input: 66
    case .runtime: 1
    case .interrupted(let status): status
    }
  }

  /// The message.
  public var description: String { message }
}
