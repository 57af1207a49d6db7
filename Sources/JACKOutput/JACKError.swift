/// A JACK call that failed: what metronome was doing and what the user can do about it.
public struct JACKError: Error, Equatable, CustomStringConvertible {
  /// What failed, as one line.
  public let message: String

  /// An error saying `message`.
  public init(_ message: String) { self.message = message }

  /// How it reads in messages and test failures.
  public var description: String { message }
}
