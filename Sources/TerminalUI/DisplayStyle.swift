/// How the interactive display looks.
public enum DisplayStyle: String, Sendable, CaseIterable {
  /// The full status: header, a cell per beat, position, programme, output, keys.
  case standard
  /// For the room: the beat's number in digits as large as the terminal, the cells below it, and
  /// a whole-screen flash on the beats a player may look up for (`--big`).
  case big
  /// For a screen reader: nothing redrawn, one line printed when something changes (`--plain`).
  case plain
}
