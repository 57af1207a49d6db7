import MetronomeCore
import PracticeListening

/// The journal as text for the terminal: each take on a line, then each tag's days.
public enum JournalTable {
  /// The takes, a line each, under a header: day, time, tag, minutes, meters, tempos, hits,
  /// mean, median and deviation (ms), and the share within tolerance.
  public static func takes(_ takes: [KeptTake]) -> [String] {
    let header = ["day", "time", "tag", "min", "meter", "tempo", "hits", "mean", "median", "dev", "within"]
    var previousDay: String?
    let rows = takes.map { kept -> [String] in
      let take = kept.take
      let day = take.started.day
      defer { previousDay = day }
      let figures = kept.figures
      return [
        day == previousDay ? "" : day, take.started.clock, take.tag ?? "", minutes(take.seconds),
        take.meters.joined(separator: ","), tempos(take.tempos), figures.map { "\($0.hits)" } ?? "-",
        milliseconds(figures?.mean), milliseconds(figures?.median), milliseconds(figures?.deviation),
        share(figures.map(\.onTimeShare)),
      ]
    }
    return columns([header] + rows, rightAligned: [3, 6, 7, 8, 9, 10])
  }

  /// Each tag's days: the takes and minutes, the fastest tempo kept (at least
  /// `JournalTrend.keptShare` of its hits within tolerance), the day's mean and deviation and
  /// share within tolerance, and the same per note where several were played.
  public static func trends(_ trends: [JournalTrend]) -> [String] {
    trends.flatMap { trend -> [String] in
      let minutes = trend.days.reduce(0) { $0 + $1.minutes }
      let title =
        "\(trend.tag ?? "untagged"): \(trend.days.count) day\(trend.days.count == 1 ? "" : "s"),"
        + " \(Self.minutes(minutes * 60)) min"
      let header = ["day", "takes", "min", "kept at", "mean", "dev", "within", "per note"]
      let rows = trend.days.map { day -> [String] in
        [
          day.day, "\(day.takes)", Self.minutes(day.minutes * 60),
          day.fastestKept.map { Tempo.format($0) + " BPM" } ?? "-", milliseconds(day.hits?.mean),
          milliseconds(day.hits?.deviation), share(day.hits.map(\.onTimeShare)),
          day.byNote.map {
            "\(noteName($0.note)) \(HitStatistics.format($0.hits.mean))±\(HitStatistics.format($0.hits.deviation))"
          }
          .joined(separator: ", "),
        ]
      }
      return [""] + [title] + columns([header] + rows, rightAligned: [1, 2, 3, 4, 5, 6])
    }
  }

  /// What a kit's note is called, as General MIDI's drum map names it: "36 kick"; "keys" for
  /// typed keys, "audio" for attacks heard.
  public static func noteName(_ note: Int) -> String {
    switch note {
    case Hit.keyNote: return "keys"
    case Hit.audioNote: return "audio"
    default:
      let names: [Int: String] = [
        35: "kick", 36: "kick", 37: "stick", 38: "snare", 39: "clap", 40: "snare", 41: "tom", 42: "hi-hat", 43: "tom",
        44: "hi-hat", 45: "tom", 46: "hi-hat", 47: "tom", 48: "tom", 49: "crash", 50: "tom", 51: "ride", 52: "crash",
        53: "ride", 55: "crash", 57: "crash", 59: "ride",
      ]
      return names[note].map { "\(note) \($0)" } ?? "note \(note)"
    }
  }

  /// Minutes with one decimal.
  static func minutes(_ seconds: Double) -> String { HitStatistics.format(seconds / 60) }

  /// "100", or "100-120" where the tempo moved; "-" where no beat was heard.
  static func tempos(_ tempos: Take.Tempos?) -> String {
    guard let tempos else { return "-" }
    return tempos.lowest == tempos.highest
      ? Tempo.format(tempos.lowest) : "\(Tempo.format(tempos.lowest))-\(Tempo.format(tempos.highest))"
  }

  /// Milliseconds with one decimal; "-" for none.
  static func milliseconds(_ value: Double?) -> String { value.map(HitStatistics.format) ?? "-" }

  /// "91%"; "-" for none.
  static func share(_ value: Double?) -> String { value.map { "\(Int(($0 * 100).rounded()))%" } ?? "-" }

  /// `rows` in columns two spaces apart, each as wide as its widest cell, the columns numbered
  /// in `rightAligned` aligned right; trailing spaces dropped.
  static func columns(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
    var widths: [Int] = []
    for row in rows {
      for (column, cell) in row.enumerated() {
        if column < widths.count { widths[column] = max(widths[column], cell.count) } else { widths.append(cell.count) }
      }
    }
    return rows.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        line += (column == 0 ? "" : "  ") + (rightAligned.contains(column) ? padding + cell : cell + padding)
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
