/// A terminal the display draws on: the real one (`TerminalSession`) or a fake in tests.
public protocol TerminalScreen: AnyObject {
  /// The size in cells.
  var size: (width: Int, height: Int) { get }
  /// Writes text and escape sequences.
  func send(_ text: String)
  /// Gives the terminal back exactly as it was found; safe to call more than once.
  func restore()
}

extension TerminalSession: TerminalScreen {}
