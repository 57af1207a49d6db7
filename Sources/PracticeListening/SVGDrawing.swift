/// Drawing in SVG as the reports draw: lines, text, round numbers and ticks.
public enum SVGDrawing {
  /// A line from (x1, y1) to (x2, y2) in `color`, `width` wide, dashed if asked.
  public static func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String, width: Double, dashed: Bool = false
  ) -> String {
    "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\""
      + " stroke=\"\(color)\" stroke-width=\"\(number(width))\"\(dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
  }

  /// `content` at (x, y), `size` high, anchored `anchor` (start, middle, end), escaped.
  public static func text(
    _ x: Double, _ y: Double, _ content: String, size: Int, anchor: String = "start", weight: String = "normal",
    color: String = "#1a202c"
  ) -> String {
    "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\""
      + " font-weight=\"\(weight)\" fill=\"\(color)\">\(escaped(content))</text>\n"
  }

  /// A rectangle from (x, y), `width` by `height`, filled and stroked as given.
  public static func rectangle(
    _ x: Double, _ y: Double, width: Double, height: Double, fill: String, stroke: String? = nil
  ) -> String {
    "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\""
      + " fill=\"\(fill)\"\(stroke.map { " stroke=\"\($0)\"" } ?? "")/>\n"
  }

  /// A circle at (x, y) of `radius`, filled, or only stroked where `filled` is false.
  public static func circle(_ x: Double, _ y: Double, radius: Double, _ color: String, filled: Bool = true) -> String {
    "<circle cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\""
      + (filled ? " fill=\"\(color)\"/>\n" : " fill=\"white\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n")
  }

  /// `content` with the characters XML reserves written as entities.
  public static func escaped(_ content: String) -> String {
    content.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
      .replacing("\"", with: "&quot;")
  }

  /// The smallest of 1, 2 or 5 times a power of ten that is at least `value`.
  public static func niceCeiling(_ value: Double) -> Double {
    guard value > 0 else { return 1 }
    var power = 1.0
    while power * 10 < value { power *= 10 }
    while power > value { power /= 10 }
    return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? 10 * power
  }

  /// About five round values from 0 up to `end`.
  public static func ticks(upTo end: Double) -> [Double] {
    let step = niceCeiling(end / 6)
    return (0...Int(end / step)).map { Double($0) * step }
  }

  /// Round values from `low` to `high`, through 0.
  public static func ticks(from low: Double, to high: Double) -> [Double] {
    let step = niceCeiling((high - low) / 8)
    return (Int((low / step).rounded(.up))...Int((high / step).rounded(.down))).map { Double($0) * step }
  }

  /// A coordinate or a value with at most one decimal.
  public static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10)" : HitStatistics.format(value)
  }
}
