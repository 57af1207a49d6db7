/// Draws screens to an injected output, rewriting only the lines that changed since the last
/// draw; after a resize (or the first time) it clears and draws everything.
public final class ScreenWriter {
  private let write: (String) -> Void
  private var previous: [String]?

  /// A writer that sends its escape sequences and text to `write`.
  public init(write: @escaping (String) -> Void) { self.write = write }

  /// Draws `lines`, changing only what differs from the last draw.
  public func draw(_ lines: [String]) {
    var output = ""
    let previous = self.previous ?? []
    if self.previous == nil { output += "\u{1B}[H\u{1B}[2J" }
    for row in 0..<max(lines.count, previous.count) {
      let line = row < lines.count ? lines[row] : ""
      guard row >= previous.count || previous[row] != line || self.previous == nil else { continue }
      output += "\u{1B}[\(row + 1);1H\(line)\u{1B}[K"
    }
    self.previous = lines
    if !output.isEmpty { write(output) }
  }

  /// Forgets what is on screen, so the next draw starts from a clear screen (after a resize).
  public func invalidate() { previous = nil }
}
