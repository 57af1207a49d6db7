/// Numbers drawn as blocks of a 5 × 7 grid, scaled up to fill a terminal.
public enum BigDigits {
  /// The grid's width and height in dots.
  static let glyphSize = (width: 5, height: 7)

  /// A dash: what is drawn for a character without a glyph, and before the first beat.
  private static let dash = [".....", ".....", ".....", "#####", ".....", ".....", "....."]

  /// Each character's dots, a row per string: `#` set, `.` clear.
  private static let glyphs: [Character: [String]] = [
    "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    "3": ["####.", "....#", "....#", ".###.", "....#", "....#", "####."],
    "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    "6": [".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."],
    "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
    "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
  ]

  /// The scale, in cells per dot across and down, at which `characters` characters fit a `width` × `height` area.
  ///
  /// As tall as fits, and twice as wide as tall where the width allows, since a terminal's cell is
  /// about twice as tall as it is wide. Nil when not even one cell per dot fits.
  public static func scale(characters: Int, width: Int, height: Int) -> (across: Int, down: Int)? {
    // One dot's gap between characters.
    let dotsAcross = characters * (glyphSize.width + 1) - 1
    let down = height / glyphSize.height
    let across = min(2 * down, width / dotsAcross)
    guard down >= 1, across >= 1 else { return nil }
    return (across, down)
  }

  /// `text` drawn with `fill` at `scale`, one string per row of cells, each as wide as the
  /// drawing; characters without a glyph are drawn as a dash.
  public static func rows(_ text: String, scale: (across: Int, down: Int), fill: Character) -> [String] {
    let glyphRows = (0..<glyphSize.height).map { row in
      text.map { (glyphs[$0] ?? dash)[row] }.joined(separator: ".")
    }
    return glyphRows.flatMap { dots in
      let cells = String(dots.flatMap { dot in repeatElement(dot == "#" ? fill : " ", count: scale.across) })
      return repeatElement(cells, count: scale.down)
    }
  }
}
