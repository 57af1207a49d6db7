/// The report `--report FILE` writes when the run ends, in the format its name asks for.
public enum ListeningReport {
  /// The formats a report is written in.
  public enum Format: String, CaseIterable, Sendable, FileFormat {
    /// A picture: the offsets over the run, their histogram and each position of the bar.
    case svg
    /// One row per hit.
    case csv
    /// One JSON object per hit, as headless runs print them, then one for the statistics.
    case ndjson
  }

  /// The report of `hits`, judged within `tolerance` ms, as `format` writes it.
  public static func text(of hits: [ScoredHit], tolerance: Double, as format: Format) -> String {
    switch format {
    case .svg:
      return ReportPicture(hits: hits, tolerance: tolerance).svg
    case .csv:
      return ([HitLine.csvHeader] + hits.map(HitLine.csv)).joined(separator: "\n") + "\n"
    case .ndjson:
      let statistics = HitStatistics(hits, tolerance: tolerance)
      let summary = statistics.map { statistics in
        "{\"summary\":true,\"hits\":\(statistics.count),\"mean\":\(HitLine.thousandths(statistics.mean)),"
          + "\"median\":\(HitLine.thousandths(statistics.median)),"
          + "\"standardDeviation\":\(HitLine.thousandths(statistics.standardDeviation)),"
          + "\"unstableRate\":\(HitLine.thousandths(statistics.unstableRate)),"
          + "\"tolerance\":\(HitLine.thousandths(statistics.tolerance)),\"onTime\":\(statistics.onTime),"
          + "\"early\":\(statistics.early),\"late\":\(statistics.late),"
          + "\"driftPerMinute\":\(statistics.driftPerMinute.map(HitLine.thousandths) ?? "null")}"
      }
      return (hits.map(HitLine.ndjson) + [summary ?? "{\"summary\":true,\"hits\":0}"]).joined(separator: "\n") + "\n"
    }
  }
}
