/// What the system tells a session: typed keys, the end of input, a resize, a signal.
///
/// The live program delivers them from `SystemEvents`; tests call them at chosen virtual times.
@MainActor
public protocol SessionEvents: AnyObject, Sendable {
  /// Bytes typed on the terminal.
  func receive(_ bytes: [UInt8])
  /// Standard input reached its end.
  func inputClosed()
  /// The terminal changed size.
  func resized()
  /// A signal asked the program to end.
  func interrupted(by signal: Int32)
}
