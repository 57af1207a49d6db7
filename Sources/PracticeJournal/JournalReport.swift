import MetronomeCore
import PracticeListening

/// The journal's report in the format its file's name asks for: a page to look at (HTML, each
/// tag's trend drawn and its days and takes in tables), the trends alone as a picture (SVG), or a
/// row per take (CSV).
public enum JournalReport {
  /// The formats a report is written in.
  public enum Format: String, CaseIterable, Sendable, FileFormat {
    /// A page: the trends drawn, the days and the takes in tables.
    case html
    /// The trends drawn, one tag below the other.
    case svg
    /// One row per take.
    case csv
  }

  /// The report of `takes` (oldest first) as `format` writes it.
  public static func text(of takes: [KeptTake], as format: Format) -> String {
    let trends = JournalTrend.of(takes)
    switch format {
    case .html: return page(takes, trends)
    case .svg: return pictures(takes, trends).joined()
    case .csv: return ([csvHeader] + takes.map(csv)).joined(separator: "\n") + "\n"
    }
  }

  /// Each tag's picture, its takes beside its trend.
  private static func pictures(_ takes: [KeptTake], _ trends: [JournalTrend]) -> [String] {
    trends.map { trend in TrendPicture(trend: trend, takes: takes.filter { $0.take.tag == trend.tag }).svg }
  }

  /// The page: a heading with the span, then each tag's trend drawn and its days, then the takes.
  private static func page(_ takes: [KeptTake], _ trends: [JournalTrend]) -> String {
    let minutes = takes.reduce(0) { $0 + $1.take.seconds } / 60
    let span = takes.first.map { first in "from \(first.take.started.day) to \(takes.last?.take.started.day ?? "")" }
    var body =
      "<h1>Practice journal</h1>\n<p>\(takes.count) take\(takes.count == 1 ? "" : "s"),"
      + " \(JournalTable.minutes(minutes * 60)) minutes\(span.map { ", " + $0 } ?? "").</p>\n"
    for (trend, picture) in zip(trends, pictures(takes, trends)) {
      body +=
        "<h2>\(SVGDrawing.escaped(trend.tag ?? "untagged"))</h2>\n<p>\(SVGDrawing.escaped(summary(of: trend)))</p>\n"
      let days = JournalTrend(tag: trend.tag, days: Array(trend.days.suffix(tableRows)))
      body += picture + latest(trend.days.count, "days") + table(JournalTable.trends([days]).dropFirst(2).map { $0 })
    }
    body +=
      "<h2>Takes</h2>\n" + latest(takes.count, "takes") + table(JournalTable.takes(Array(takes.suffix(tableRows))))
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>Practice journal</title>
      <style>
      body { font-family: sans-serif; max-width: 980px; margin: 2em auto; color: #1a202c; }
      pre { font-size: 13px; background: #f7fafc; padding: 0.8em; overflow-x: auto; }
      svg { display: block; margin: 1em 0; }
      </style>
      </head>
      <body>
      \(body)</body>
      </html>

      """
  }

  /// What a tag's days come to, in a sentence: the days and minutes, the fastest tempo kept at
  /// first and last, the share within tolerance at first and last.
  static func summary(of trend: JournalTrend) -> String {
    let minutes = trend.days.reduce(0) { $0 + $1.minutes }
    var parts = [
      "\(trend.days.count) day\(trend.days.count == 1 ? "" : "s") played, \(JournalTable.minutes(minutes * 60)) minutes"
    ]
    let kept = trend.days.compactMap(\.fastestKept)
    if let first = kept.first, let last = kept.last {
      parts.append("fastest kept at 90 %: \(Tempo.format(first)) BPM at first, \(Tempo.format(last)) BPM lately")
    }
    let shares = trend.days.compactMap { $0.hits?.onTimeShare }
    if let first = shares.first, let last = shares.last {
      parts.append("within tolerance: \(JournalTable.share(first)) at first, \(JournalTable.share(last)) lately")
    }
    return parts.joined(separator: "; ") + "."
  }

  /// The most rows a table of the page shows: the latest, as the pictures show them all.
  static let tableRows = 30

  /// What a table of `count` rows of `things` shows where it shows only the latest.
  private static func latest(_ count: Int, _ things: String) -> String {
    count <= tableRows
      ? ""
      : "<p>The latest \(tableRows) of \(count) \(things) (metronome journal lists them all; --report FILE.csv too).</p>\n"
  }

  private static func table(_ lines: [String]) -> String {
    "<pre>\n" + lines.map(SVGDrawing.escaped).joined(separator: "\n") + "\n</pre>\n"
  }

  /// The CSV header the rows go under.
  static let csvHeader =
    "started,day,minutes,tag,meters,tempo_first,tempo_last,tempo_lowest,tempo_highest,beats,programme,ending,"
    + "tolerance_ms,hits,on_time,early,late,mean_ms,median_ms,deviation_ms"

  private static func csv(_ kept: KeptTake) -> String {
    let take = kept.take
    let number = { (value: Double?) in value.map { HitLine.thousandths($0) } ?? "" }
    let figures = kept.figures
    return [
      take.started.iso8601, take.started.day, number(take.seconds / 60), quoted(take.tag ?? ""),
      take.meters.joined(separator: " "), number(take.tempos?.first), number(take.tempos?.last),
      number(take.tempos?.lowest), number(take.tempos?.highest), "\(take.beats)", quoted(take.programme),
      quoted(take.ending), number(take.tolerance), "\(figures?.hits ?? 0)", figures.map { "\($0.onTime)" } ?? "",
      figures.map { "\($0.early)" } ?? "", figures.map { "\($0.late)" } ?? "", number(figures?.mean),
      number(figures?.median), number(figures?.deviation),
    ].joined(separator: ",")
  }

  /// `text` as one CSV field: quoted, its quotes doubled, where it holds a comma, a quote or a line break.
  private static func quoted(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }
}
