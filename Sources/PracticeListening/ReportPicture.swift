/// The report as a picture (SVG): the summary, the offsets over the run with the fitted line,
/// their histogram, and each position of the bar (and each note, when several were played) as a
/// box from the first to the third quartile with its median.
struct ReportPicture {
  let hits: [ScoredHit]
  let tolerance: Double

  private static let width = 960.0
  private static let left = 70.0
  private static let right = 930.0
  private static let early = "#2b6cb0"
  private static let onTime = "#2f855a"
  private static let late = "#c05621"

  /// The whole picture.
  var svg: String {
    var body = ""
    let statistics = HitStatistics(hits, tolerance: tolerance)
    body += SVGDrawing.text(Self.left, 30, "Timing against the click", size: 20, weight: "bold")
    body += SVGDrawing.text(Self.left, 54, statistics?.summary ?? "no hits were scored", size: 13)
    // Room above the farthest hit, so that none sits on the frame.
    let range = SVGDrawing.niceCeiling(max(2 * tolerance, 1.1 * (hits.map { abs($0.offsetMilliseconds) }.max() ?? 0)))
    body += overTime(range: range, top: 90, height: 240, statistics: statistics)
    body += histogram(range: range, top: 400, height: 200, statistics: statistics)
    body += positions(range: range, top: 670, height: 220)
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"940\""
      + " viewBox=\"0 0 \(Int(Self.width)) 940\" font-family=\"sans-serif\">\n"
      + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\(body)</svg>\n"
  }

  /// Offsets (y) against seconds into the run (x), the tolerance shaded, the fitted line drawn.
  private func overTime(range: Double, top: Double, height: Double, statistics: HitStatistics?) -> String {
    let end = max(hits.map(\.seconds).max() ?? 1, 1)
    let x = { (seconds: Double) in Self.left + seconds / end * (Self.right - Self.left) }
    let y = { (offset: Double) in top + height / 2 - offset / range * height / 2 }
    var out = SVGDrawing.text(
      Self.left, top - 12, "Offset of each hit over the run (ms; below the line early, above late)", size: 14)
    out += frame(top: top, height: height) + band(y(tolerance), y(-tolerance))
    out += valueAxis(range: range, at: y) + SVGDrawing.line(Self.left, y(0), Self.right, y(0), "#444", width: 1)
    for seconds in SVGDrawing.ticks(upTo: end) {
      out += SVGDrawing.text(
        x(seconds), top + height + 16, SVGDrawing.number(seconds) + " s", size: 11, anchor: "middle")
    }
    for hit in hits {
      out +=
        "<circle cx=\"\(SVGDrawing.number(x(hit.seconds)))\" cy=\"\(SVGDrawing.number(y(clamped(hit.offsetMilliseconds, range))))\""
        + " r=\"3\" fill=\"\(color(hit.offsetMilliseconds))\"/>\n"
    }
    if let statistics, let drift = statistics.driftPerMinute {
      // The line through the mean time and mean offset with the fitted slope.
      let meanTime = hits.map(\.seconds).reduce(0, +) / Double(hits.count)
      let at = { (seconds: Double) in statistics.mean + drift / 60 * (seconds - meanTime) }
      out += SVGDrawing.line(
        x(0), y(clamped(at(0), range)), x(end), y(clamped(at(end), range)), "#c53030", width: 2, dashed: true)
      out += SVGDrawing.text(
        Self.right, top + 16, "fitted line: \(HitStatistics.drift(drift))", size: 12, anchor: "end", color: "#c53030")
    }
    return out
  }

  /// How many hits fell in each bin of offsets, the mean and the median marked.
  private func histogram(range: Double, top: Double, height: Double, statistics: HitStatistics?) -> String {
    let binWidth = SVGDrawing.niceCeiling(range / 15)
    let bins = Int((2 * range / binWidth).rounded())
    var counts = Array(repeating: 0, count: max(bins, 1))
    for hit in hits {
      let bin = Int(((clamped(hit.offsetMilliseconds, range) + range) / binWidth).rounded(.down))
      counts[min(max(bin, 0), counts.count - 1)] += 1
    }
    let tallest = Double(max(counts.max() ?? 0, 1))
    let x = { (offset: Double) in Self.left + (offset + range) / (2 * range) * (Self.right - Self.left) }
    var out = SVGDrawing.text(Self.left, top - 12, "How many hits at each offset (ms)", size: 14)
    out += frame(top: top, height: height)
    out +=
      "<rect x=\"\(SVGDrawing.number(x(-tolerance)))\" y=\"\(SVGDrawing.number(top))\""
      + " width=\"\(SVGDrawing.number(x(tolerance) - x(-tolerance)))\" height=\"\(SVGDrawing.number(height))\" fill=\"#e6f4ea\"/>\n"
    for (index, count) in counts.enumerated() where count > 0 {
      let low = -range + Double(index) * binWidth
      let barHeight = Double(count) / tallest * (height - 10)
      out +=
        "<rect x=\"\(SVGDrawing.number(x(low) + 1))\" y=\"\(SVGDrawing.number(top + height - barHeight))\""
        + " width=\"\(SVGDrawing.number(x(low + binWidth) - x(low) - 2))\" height=\"\(SVGDrawing.number(barHeight))\""
        + " fill=\"\(color(low + binWidth / 2))\"/>\n"
    }
    for offset in SVGDrawing.ticks(from: -range, to: range) {
      out += SVGDrawing.text(x(offset), top + height + 16, SVGDrawing.number(offset), size: 11, anchor: "middle")
    }
    out += SVGDrawing.text(Self.left - 8, top + 10, "\(Int(tallest))", size: 11, anchor: "end")
    if let statistics {
      // The label of the one further left left of its line, the other's right of its, so that
      // close ones stay apart.
      let meanIsLeft = statistics.mean <= statistics.median
      for (value, name, isMean) in [(statistics.mean, "mean", true), (statistics.median, "median", false)] {
        let position = x(clamped(value, range))
        let isLeft = isMean == meanIsLeft
        out += SVGDrawing.line(position, top, position, top + height, "#1a202c", width: 1.5, dashed: isMean)
        out += SVGDrawing.text(
          position + (isLeft ? -4 : 4), top + 14, "\(name) \(HitStatistics.format(value))", size: 11,
          anchor: isLeft ? "end" : "start")
      }
    }
    return out
  }

  /// One box per position of the bar (beat, and subdivision's click), and per note when hits
  /// came on several.
  private func positions(range: Double, top: Double, height: Double) -> String {
    let notes = Set(hits.map(\.hit.note))
    var groups: [(label: String, key: [Int], offsets: [Double])] = []
    for hit in hits {
      let click = hit.click
      let key = [click.beatInBar, click.subdivision] + (notes.count > 1 ? [hit.hit.note] : [])
      let label =
        "\(click.beatInBar)\(click.isSubdivision ? ".\(click.subdivision + 1)" : "")"
        + (notes.count > 1 ? hit.hit.isKey ? " key" : hit.hit.isAudio ? " audio" : " n\(hit.hit.note)" : "")
      if let index = groups.firstIndex(where: { $0.key == key }) {
        groups[index].offsets.append(hit.offsetMilliseconds)
      } else {
        groups.append((label, key, [hit.offsetMilliseconds]))
      }
    }
    groups.sort { $0.key.lexicographicallyPrecedes($1.key) }
    let y = { (offset: Double) in top + height / 2 - clamped(offset, range) / range * height / 2 }
    var out = SVGDrawing.text(
      Self.left, top - 12,
      "Each position of the bar\(notes.count > 1 ? " and note" : "") (beat.click): quartiles and median (ms)", size: 14)
    out += frame(top: top, height: height) + band(y(tolerance), y(-tolerance)) + valueAxis(range: range, at: y)
    out += SVGDrawing.line(Self.left, y(0), Self.right, y(0), "#444", width: 1)
    let slot = (Self.right - Self.left) / Double(max(groups.count, 1))
    for (index, group) in groups.enumerated() {
      let center = Self.left + slot * (Double(index) + 0.5)
      let sorted = group.offsets.sorted()
      // Between the two values around the share, as the median is for an even count.
      let quartile = { (share: Double) -> Double in
        let place = share * Double(sorted.count - 1)
        let below = Int(place)
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (place - Double(below))
      }
      let boxWidth = min(slot * 0.6, 60)
      // Every group holds a hit.
      out += SVGDrawing.line(center, y(sorted[0]), center, y(sorted[sorted.count - 1]), "#718096", width: 1)
      out +=
        "<rect x=\"\(SVGDrawing.number(center - boxWidth / 2))\" y=\"\(SVGDrawing.number(y(quartile(0.75))))\""
        + " width=\"\(SVGDrawing.number(boxWidth))\" height=\"\(SVGDrawing.number(max(y(quartile(0.25)) - y(quartile(0.75)), 1)))\""
        + " fill=\"#bee3f8\" stroke=\"#2c5282\"/>\n"
      let median = HitStatistics.median(sorted)
      out += SVGDrawing.line(
        center - boxWidth / 2, y(median), center + boxWidth / 2, y(median), color(median), width: 3)
      out += SVGDrawing.text(center, top + height + 16, group.label, size: 11, anchor: "middle")
      out += SVGDrawing.text(
        center, top + height + 30, "\(sorted.count) hit\(sorted.count == 1 ? "" : "s")", size: 10, anchor: "middle",
        color: "#718096")
    }
    return out
  }

  private func color(_ offset: Double) -> String {
    offset < -tolerance ? Self.early : offset > tolerance ? Self.late : Self.onTime
  }

  private func clamped(_ offset: Double, _ range: Double) -> Double { min(max(offset, -range), range) }

  private func frame(top: Double, height: Double) -> String {
    "<rect x=\"\(SVGDrawing.number(Self.left))\" y=\"\(SVGDrawing.number(top))\" width=\"\(SVGDrawing.number(Self.right - Self.left))\""
      + " height=\"\(SVGDrawing.number(height))\" fill=\"none\" stroke=\"#a0aec0\"/>\n"
  }

  /// The tolerance's stretch between `upper` and `lower` on a plot's value axis, shaded.
  private func band(_ upper: Double, _ lower: Double) -> String {
    "<rect x=\"\(SVGDrawing.number(Self.left))\" y=\"\(SVGDrawing.number(upper))\" width=\"\(SVGDrawing.number(Self.right - Self.left))\""
      + " height=\"\(SVGDrawing.number(lower - upper))\" fill=\"#e6f4ea\"/>\n"
  }

  private func valueAxis(range: Double, at y: (Double) -> Double) -> String {
    SVGDrawing.ticks(from: -range, to: range).map {
      SVGDrawing.text(Self.left - 8, y($0) + 4, SVGDrawing.number($0), size: 11, anchor: "end")
    }
    .joined()
  }
}
