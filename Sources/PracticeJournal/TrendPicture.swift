import MetronomeCore
import PracticeListening

/// A tag's trend as a picture (SVG): minutes a day, the share of hits within tolerance a day,
/// timing a day (mean and spread), tempo a day (the fastest played and the fastest kept), and
/// each take's tempo against its share within tolerance.
struct TrendPicture {
  let trend: JournalTrend
  /// The tag's takes, oldest first.
  let takes: [KeptTake]

  private static let width = 960.0
  private static let left = 70.0
  private static let right = 930.0
  private static let bar = "#4a5568"
  private static let kept = "#2f855a"
  private static let played = "#2b6cb0"
  private static let spread = "#c05621"

  /// The whole picture.
  var svg: String {
    var body = ""
    var top = 40.0
    for chart in [minutes, share, timing, tempo] {
      body += chart(top)
      top += 200
    }
    body += tempoAgainstShare(top: top)
    let height = Int(top + 290)
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(height)\""
      + " viewBox=\"0 0 \(Int(Self.width)) \(height)\" font-family=\"sans-serif\">\n"
      + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\(body)</svg>\n"
  }

  /// Each day's place along the x axis, evenly spaced: days played, not days of the calendar.
  private func dayX(_ index: Int) -> Double {
    Self.left + slot * (Double(index) + 0.5)
  }

  /// The width each day has along the x axis: a trend has a day at least.
  private var slot: Double {
    (Self.right - Self.left) / Double(trend.days.count)
  }

  /// The days' labels under a chart of `height` at `top`: every day where few, else evenly fewer.
  private func dayAxis(top: Double, height: Double) -> String {
    let step = max(1, Int((Double(trend.days.count) / 10).rounded(.up)))
    var out = frame(top: top, height: height)
    for (index, day) in trend.days.enumerated() where index % step == 0 || index == trend.days.count - 1 {
      out += SVGDrawing.text(dayX(index), top + height + 16, String(day.day.dropFirst(5)), size: 11, anchor: "middle")
    }
    return out
  }

  private func minutes(top: Double) -> String {
    let height = 140.0
    let most = SVGDrawing.niceCeiling(trend.days.reduce(0) { max($0, $1.minutes) })
    var out = SVGDrawing.text(Self.left, top - 12, "Minutes played a day", size: 14) + dayAxis(top: top, height: height)
    for (index, day) in trend.days.enumerated() {
      let barHeight = day.minutes / most * (height - 4)
      out += SVGDrawing.rectangle(
        dayX(index) - slot * 0.35, top + height - barHeight, width: slot * 0.7, height: barHeight, fill: Self.bar)
    }
    return out + SVGDrawing.text(Self.left - 8, top + 10, SVGDrawing.number(most), size: 11, anchor: "end")
  }

  private func share(top: Double) -> String {
    let height = 140.0
    let y = { (share: Double) in top + height - share * height }
    var out =
      SVGDrawing.text(Self.left, top - 12, "Hits within tolerance a day (%; the line at 90)", size: 14)
      + dayAxis(top: top, height: height)
    out += SVGDrawing.line(
      Self.left, y(JournalTrend.keptShare), Self.right, y(JournalTrend.keptShare), "#a0aec0", width: 1, dashed: true)
    for value in [0.0, 0.5, 1] {
      out += SVGDrawing.text(Self.left - 8, y(value) + 4, "\(Int(value * 100))", size: 11, anchor: "end")
    }
    out += polyline(
      trend.days.enumerated().compactMap { index, day in day.hits.map { (dayX(index), y($0.onTimeShare)) } }, Self.kept)
    return out
  }

  private func timing(top: Double) -> String {
    let height = 140.0
    // Room for every day's mean and spread, at least a millisecond either way.
    let range = SVGDrawing.niceCeiling(
      trend.days.reduce(1) { max($0, $1.hits.map { abs($0.mean) + $0.deviation } ?? 0) })
    let y = { (offset: Double) in top + height / 2 - min(max(offset, -range), range) / range * height / 2 }
    var out =
      SVGDrawing.text(
        Self.left, top - 12, "Timing a day (ms; mean, and its spread either way; below the line early)", size: 14)
      + dayAxis(top: top, height: height) + SVGDrawing.line(Self.left, y(0), Self.right, y(0), "#444", width: 1)
    for value in [-range, 0, range] {
      out += SVGDrawing.text(Self.left - 8, y(value) + 4, SVGDrawing.number(value), size: 11, anchor: "end")
    }
    for (index, day) in trend.days.enumerated() {
      guard let hits = day.hits else { continue }
      out += SVGDrawing.line(
        dayX(index), y(hits.mean - hits.deviation), dayX(index), y(hits.mean + hits.deviation), Self.spread, width: 2)
      out += SVGDrawing.circle(dayX(index), y(hits.mean), radius: 4, Self.played)
    }
    return out
  }

  private func tempo(top: Double) -> String {
    let height = 140.0
    let fastest = trend.days.indices.map { index in highestPlayed(on: trend.days[index].day) }
    let values = fastest.compactMap { $0 } + trend.days.compactMap(\.fastestKept)
    let (low, high) = Self.range(values)
    let y = { (bpm: Double) in top + height - (bpm - low) / (high - low) * height }
    var out =
      SVGDrawing.text(
        Self.left, top - 12, "Tempo a day (BPM): the fastest played (ring), the fastest kept at 90 % (dot)", size: 14)
      + dayAxis(top: top, height: height)
    for value in [low, (low + high) / 2, high] {
      out += SVGDrawing.text(Self.left - 8, y(value) + 4, SVGDrawing.number(value), size: 11, anchor: "end")
    }
    for (index, day) in trend.days.enumerated() {
      if let played = fastest[index] {
        out += SVGDrawing.circle(dayX(index), y(played), radius: 5, Self.played, filled: false)
      }
      if let kept = day.fastestKept { out += SVGDrawing.circle(dayX(index), y(kept), radius: 3.5, Self.kept) }
    }
    return out
  }

  private func tempoAgainstShare(top: Double) -> String {
    let height = 220.0
    let points = takes.compactMap { kept -> (tempo: Double, share: Double)? in
      // The tempo most of its hits were at; the fastest of those that had as many.
      guard let figures = kept.figures,
        let tempo = kept.byTempo.max(by: { ($0.hits, $0.value) < ($1.hits, $1.value) })?.value
      else { return nil }
      return (tempo, figures.onTimeShare)
    }
    let (low, high) = Self.range(points.map(\.tempo))
    let x = { (bpm: Double) in Self.left + (bpm - low) / (high - low) * (Self.right - Self.left) }
    let y = { (share: Double) in top + height - share * height }
    var out =
      SVGDrawing.text(
        Self.left, top - 12, "Each take: its tempo (BPM) against its hits within tolerance (%); the latest darkest",
        size: 14)
      + frame(top: top, height: height)
    out += SVGDrawing.line(
      Self.left, y(JournalTrend.keptShare), Self.right, y(JournalTrend.keptShare), "#a0aec0", width: 1, dashed: true)
    for value in [0.0, 0.5, 1] {
      out += SVGDrawing.text(Self.left - 8, y(value) + 4, "\(Int(value * 100))", size: 11, anchor: "end")
    }
    for value in [low, (low + high) / 2, high] {
      out += SVGDrawing.text(x(value), top + height + 16, SVGDrawing.number(value), size: 11, anchor: "middle")
    }
    for (index, point) in points.enumerated() {
      // Older takes lighter: a grey from light to the darkest for the latest.
      let shade = points.count == 1 ? 0 : Int(180 * Double(points.count - 1 - index) / Double(points.count - 1))
      out += SVGDrawing.circle(x(point.tempo), y(point.share), radius: 4, "rgb(\(shade),\(shade),\(shade))")
    }
    return out
  }

  /// The fastest tempo played on `day`, by the takes' tempos.
  private func highestPlayed(on day: String) -> Double? {
    takes.filter { $0.take.started.day == day }.compactMap(\.take.tempos?.highest).max()
  }

  /// A range around `values` with room either side, round at both ends.
  private static func range(_ values: [Double]) -> (low: Double, high: Double) {
    guard let least = values.min(), let most = values.max() else { return (0, 1) }
    let step = SVGDrawing.niceCeiling(max(most - least, 10) / 4)
    let low = ((least - step / 2) / step).rounded(.down) * step
    let high = ((most + step / 2) / step).rounded(.up) * step
    return (max(low, 0), high)
  }

  private func polyline(_ points: [(Double, Double)], _ color: String) -> String {
    guard !points.isEmpty else { return "" }
    let path = points.map { "\(SVGDrawing.number($0.0)),\(SVGDrawing.number($0.1))" }.joined(separator: " ")
    return "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
      + points.map { SVGDrawing.circle($0.0, $0.1, radius: 3.5, color) }.joined()
  }

  private func frame(top: Double, height: Double) -> String {
    SVGDrawing.rectangle(Self.left, top, width: Self.right - Self.left, height: height, fill: "none", stroke: "#a0aec0")
  }
}
