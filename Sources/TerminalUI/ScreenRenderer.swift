import MetronomeCore

/// Turns a display state into the lines of the screen for a terminal of a given size: a pure
/// function, so the display is tested without a terminal.
///
/// Each beat's cell shows its level as a pattern writes it (`X` strong, `x` normal, `o` weak, `.`
/// silent). The beat heard lights: in colour, red for a strong beat, green for the others, dim
/// for a silent one or one a gap mutes; without (NO_COLOR), its cell's brackets turn to `>` and
/// `<`, or to `-` in a muted bar. A tempo map adds the song, the section and what comes next.
public struct ScreenRenderer: Sendable {
  /// The terminal's width and height in cells.
  public let width: Int
  /// The terminal's height in cells.
  public let height: Int
  /// Whether to use colour.
  public let colors: Bool

  /// A renderer for a `width` × `height` terminal.
  public init(width: Int, height: Int, colors: Bool) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    self.colors = colors
  }

  /// The screen's lines, at most `height` of them, none wider than `width` visible cells.
  public func lines(for state: DisplayState) -> [String] {
    var lines: [String] = []
    let subdivided =
      (state.subdivision.count > 1 ? "  ×\(state.subdivision)" : "")
      + (state.polyrhythm.map { "  \($0):\(state.beatsPerBar)" } ?? "")
    let flags =
      (state.isMuted ? "  muted" : "") + (state.isLooping ? "  loop" : "")
      + (state.isPlaying && state.isCountIn ? "  count-in" : "")
    lines.append(
      clip(
        " metronome  \(state.tempoText)  \(state.signature)\(subdivided)  \(state.isPlaying ? "playing" : "paused")"
          + flags))
    lines.append("")
    lines.append(contentsOf: BeatCells.rows(for: state, width: width, colors: colors))
    lines.append("")
    let clicks = state.subdivision.count
    let position =
      state.heard.map {
        "bar \($0.bar)  beat \($0.beat) of \(state.beatsPerBar)"
          + (clicks > 1 ? "  " + Self.ticks(lit: $0.subdivision, of: clicks) : "")
          + ($0.isGapMuted && state.isPlaying ? "  (gap)" : "")
      } ?? "bar –  beat –"
    let voice = state.polyrhythm.map { clicks in
      "  against \(clicks): " + Self.ticks(lit: state.isPlaying ? state.heardPolyrhythmClick ?? -1 : -1, of: clicks)
    }
    lines.append(clip(" \(position)\(voice ?? "")"))
    lines.append(
      contentsOf: ([state.song, state.section, state.upcoming, state.sync].compactMap { $0 } + state.listening).map {
        clip(" " + $0)
      })
    lines.append("")
    let latency = state.latencyMilliseconds.map { "latency \(Tempo.format($0)) ms" } ?? "latency –"
    let skipped = state.skippedBeats > 0 ? " · skipped \(state.skippedBeats)" : ""
    lines.append(clip(" \(state.output) · \(latency) · underruns \(state.underruns)\(skipped)"))
    lines.append(contentsOf: wrapped(state.keyHelp, indent: " "))
    // A short terminal loses the blank lines between parts before it loses any part.
    while lines.count > height, let blank = lines.lastIndex(of: "") { lines.remove(at: blank) }
    return Array(lines.prefix(height))
  }

  /// A beat's clicks as ticks, the heard one lit: `•··` for the first of three.
  private static func ticks(lit: Int, of count: Int) -> String {
    String((0..<count).map { $0 == lit ? "•" : "·" })
  }

  /// `items` joined by " · ", broken into lines that fit the width.
  private func wrapped(_ items: [String], indent: String) -> [String] {
    var lines: [String] = []
    var line = indent
    for item in items {
      let separator = line == indent ? "" : " · "
      if line.count + separator.count + item.count > width, line != indent {
        lines.append(line)
        line = indent + item
      } else {
        line += separator + item
      }
    }
    lines.append(line)
    return lines.map(clip)
  }

  /// `line` cut to the width.
  func clip(_ line: String) -> String { String(line.prefix(width)) }
}
