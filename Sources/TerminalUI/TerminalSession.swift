import Glibc
import MetronomeCore

/// The one owner of the terminal while the display runs: it saves the terminal's settings,
/// switches to raw input (and, for a full-screen display, the alternate screen and a hidden
/// cursor), and puts everything back exactly as it was in `restore()`, which every way out calls
/// (and which is safe to call twice).
///
/// `@unchecked Sendable`: the saved settings, the only mutable state, are read and cleared under `lock`.
public final class TerminalSession: @unchecked Sendable {
  private let input: Int32
  private let output: Int32
  private let fullScreen: Bool
  private var saved: termios?
  private let lock = Lock()

  /// Takes over the terminal on `input` and `output`, the whole screen if `fullScreen` (else
  /// lines are printed as in a shell, for a screen reader to read); throws when they are not terminals.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, fullScreen: Bool = true)
    throws(TerminalError)
  {
    self.input = input
    self.output = output
    self.fullScreen = fullScreen
    var settings = termios()
    guard tcgetattr(input, &settings) == 0 else { throw TerminalError.notATerminal }
    saved = settings
    var raw = settings
    // No line editing or echo; signals stay on so Ctrl-C is SIGINT, handled like every signal.
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.notATerminal }
    // Ctrl-Z would stop the process with the terminal still raw: ignore it while the display runs.
    signal(SIGTSTP, SIG_IGN)
    if fullScreen { send("\u{1B}[?1049h\u{1B}[?25l") }
  }

  /// The terminal's size in cells, or 80 × 24 when it cannot tell.
  public var size: (width: Int, height: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Writes text to the terminal.
  public func send(_ text: String) { TextOutput(descriptor: output).write(text) }

  /// Leaves the alternate screen and shows the cursor (of a full screen), and restores the saved settings.
  public func restore() {
    lock.withLock {
      guard var settings = saved else { return }
      saved = nil
      if fullScreen { send("\u{1B}[?25h\u{1B}[?1049l") }
      tcsetattr(input, TCSAFLUSH, &settings)
      signal(SIGTSTP, SIG_DFL)
    }
  }

  deinit { restore() }
}

/// Why the display cannot run.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
  case notATerminal

  /// How it reads in messages and test failures.
  public var description: String {
    "standard input and output must be a terminal for the display; use --headless to print beats instead"
  }
}
