import MetronomeCore

/// The display for the room (`--big`): the number of the beat heard in digits as large as the
/// terminal allows, the bar's cells below it, a line of tempo and meter above and one of where the
/// programme is (or the keys) at the foot; a pure function, like the standard display.
///
/// The digits are drawn in blocks that mark the beat's level (`█` strong, `▓` normal, `▒` weak,
/// `░` silent or in a muted bar; red and green in colour). While the state flashes, every cell of
/// the screen is drawn in reverse video, so the whole screen lights.
extension ScreenRenderer {
  /// The big display's lines, exactly `height` of them, none wider than `width` visible cells.
  public func bigLines(for state: DisplayState) -> [String] {
    let lit = state.isPlaying ? state.heard : nil
    let header =
      " \(state.tempoText)  \(state.signature)  \(state.isPlaying ? "playing" : "paused")"
      + (lit.map { "  bar \($0.bar)" } ?? "") + (state.isMuted ? "  muted" : "")
      + (state.isPlaying && state.isCountIn ? "  count-in" : "")
    let cells = BeatCells.rows(for: state, width: width, colors: colors && !state.isFlashing)
    let place = [state.song, state.section].compactMap { $0 } + state.listening.prefix(1)
    let footer = " " + (place.isEmpty ? state.keyHelp : place).joined(separator: " · ")
    // Header, a blank line, the digits, a blank line, the cells, the footer.
    let digitRows = height - 4 - cells.count
    let characters = String(max(state.beatsPerBar, 1)).count
    var digits: [String] = []
    if let scale = BigDigits.scale(characters: characters, width: width - 2, height: digitRows) {
      let level = lit.map { $0.isGapMuted ? .silent : $0.level }
      let drawn = BigDigits.rows(lit.map { String($0.beat) } ?? "-", scale: scale, fill: Self.fill(for: level))
      let left = String(repeating: " ", count: max(0, (width - (drawn.first?.count ?? 0)) / 2))
      let above = (digitRows - drawn.count) / 2
      digits = Array(repeating: "", count: above) + drawn.map { left + paint($0, level, flashing: state.isFlashing) }
    } else {
      // Too small for digits: the number as text.
      digits = [clip(" beat \(lit.map { String($0.beat) } ?? "–")")]
    }
    digits += Array(repeating: "", count: max(0, digitRows - digits.count))
    // As tall as the terminal: the digits take the rows the rest leaves, or a short terminal cuts the foot.
    let lines = Array(([clip(header), ""] + digits + [""] + cells + [clip(footer)]).prefix(height))
    guard state.isFlashing else { return lines }
    let reverse = colors ? (lit?.level == .strong ? "\u{1B}[1;7;31m" : "\u{1B}[1;7;32m") : "\u{1B}[7m"
    return lines.map { reverse + $0 + String(repeating: " ", count: max(0, width - $0.count)) + "\u{1B}[0m" }
  }

  /// The block a beat's digits are drawn with: its level, or none before the first beat.
  private static func fill(for level: AccentLevel?) -> Character {
    switch level {
    case .strong: "█"
    case .normal, nil: "▓"
    case .weak: "▒"
    case .silent: "░"
    }
  }

  /// A row of digits in the beat's colour, where colour is used and the screen is not flashing
  /// (a flash draws the whole screen in one).
  private func paint(_ row: String, _ level: AccentLevel?, flashing: Bool) -> String {
    guard colors, !flashing, let level else { return row }
    let color =
      switch level {
      case .strong: "1;31"
      case .normal, .weak: "1;32"
      case .silent: "2"
      }
    return "\u{1B}[\(color)m\(row)\u{1B}[0m"
  }
}
