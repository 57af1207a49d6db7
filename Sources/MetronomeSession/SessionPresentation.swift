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

extension SessionPresentation {
  /// The format of the lines it prints, if it prints them, and the display it shows, if it shows
  /// one, naming `output`; `later` runs an action on the main queue after the ones already due.
  @MainActor func parts(
    output: String, later: @escaping (@escaping @MainActor () -> Void) -> Void
  ) -> (format: BeatEventFormat?, display: SessionDisplay?) {
    switch self {
    case .headless(let format): (format, nil)
    case .display(let screen, let colors, let style):
      (nil, SessionDisplay(screen: screen, colors: colors, style: style, output: output, later: later))
    case .soundOnly: (nil, nil)
    }
  }
}
