import TerminalUI

/// A terminal for tests: it keeps the lines the display draws (the writer only moves to a line,
/// writes it and clears its rest, or clears the whole screen) and whether it was restored.
final class FakeScreen: TerminalScreen {
  var size: (width: Int, height: Int) = (80, 24)
  private(set) var lines: [String] = []
  private(set) var restoreCount = 0
  /// Called with everything sent, as it is sent.
  var onSend: ((String) -> Void)?

  func send(_ text: String) {
    onSend?(text)
    var rest = Substring(text)
    while let escape = rest.firstIndex(of: "\u{1B}") {
      rest = rest[rest.index(after: escape)...]
      if rest.hasPrefix("[H") {
        rest = rest.dropFirst(2)
      } else if rest.hasPrefix("[2J") {
        lines = []
        rest = rest.dropFirst(3)
      } else if rest.hasPrefix("["), let h = rest.firstIndex(of: "H"),
        let row = Int(rest.dropFirst().prefix { $0 != ";" })
      {
        let body = rest[rest.index(after: h)...]
        let end = body.range(of: "\u{1B}[K")?.lowerBound ?? body.endIndex
        while lines.count < row { lines.append("") }
        lines[row - 1] = String(body[..<end])
        rest = body[end...].dropFirst(3)
      }
    }
  }

  func restore() { restoreCount += 1 }

  /// The screen as one text.
  var text: String { lines.joined(separator: "\n") }
}
