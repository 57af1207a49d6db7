import TerminalUI

/// How a session shows what it plays.
public enum SessionPresentation {
  /// One line per beat on standard output, written as the beat is heard.
  case headless(BeatEventFormat)
  /// The interactive display on `screen`, in colour or not, in a style.
  case display(any TerminalScreen, colors: Bool, style: DisplayStyle = .standard)
  /// Nothing: the beats are only heard, and the main queue is not woken for each of them.
  case soundOnly
}
