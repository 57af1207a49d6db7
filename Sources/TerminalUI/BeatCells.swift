import MetronomeCore

/// The bar as cells, one per beat, showing its level as a pattern writes it, the beat heard lit:
/// what both the standard and the big display draw.
enum BeatCells {
  /// One cell per beat of the bar, showing its level, the heard one lit; rows of as many cells as fit.
  static func rows(for state: DisplayState, width: Int, colors: Bool) -> [String] {
    let lit = state.isPlaying ? state.heard : nil
    let perRow = max(1, (width - 1) / 4)
    let beats = max(state.beatsPerBar, 1)
    let pattern = state.pattern.count == beats ? state.pattern : AccentPattern.standard(beats: beats).levels
    var rows: [String] = []
    var row = " "
    for beat in 1...beats {
      let cell: String
      let mark = pattern[beat - 1].rawValue
      if let lit, lit.beat == beat {
        let color =
          switch lit.level {
          case _ where lit.isGapMuted: "2"
          case .strong: "1;31"
          case .normal, .weak: "1;32"
          case .silent: "2"
          }
        // A muted bar is counted without colour: the player keeps it by ear.
        cell = colors ? "\u{1B}[\(color)m[\(mark)]\u{1B}[0m" : lit.isGapMuted ? "-\(mark)-" : ">\(mark)<"
      } else {
        cell = "[\(mark)]"
      }
      row += cell + " "
      if beat % perRow == 0 || beat == beats {
        rows.append(row)
        row = " "
      }
    }
    return rows
  }

}
