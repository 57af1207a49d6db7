/// A message to send, and where to.
public struct OSCReply: Equatable, Sendable {
  /// What to send.
  public let message: OSCMessage
  /// Where to send it, each in turn.
  public let destinations: [OSCEndpoint]

  /// `message`, for `destinations`.
  public init(_ message: OSCMessage, to destinations: [OSCEndpoint]) {
    self.message = message
    self.destinations = destinations
  }
}
