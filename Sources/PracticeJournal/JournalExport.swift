import PracticeListening

/// The journal as data the player owns: one JSON object per take, its hits in it.
public enum JournalExport {
  /// `takes` (with their hits) as NDJSON: `{"started":"2026-11-27T09:41:05+01:00","day":…,"hits":[…]}`.
  public static func ndjson(_ takes: [KeptTake]) -> String {
    takes.map(line).map { $0 + "\n" }.joined()
  }

  private static func line(_ kept: KeptTake) -> String {
    let take = kept.take
    let number = { (value: Double?) in value.map { HitLine.thousandths($0) } ?? "null" }
    let hits = take.hits.map { hit in
      "{\"time\":\(HitLine.thousandths(hit.seconds)),\"bar\":\(hit.bar),\"beat\":\(hit.beat),"
        + "\"sub\":\(hit.subdivision),\"tempo\":\(number(hit.tempo)),\"offset\":\(number(hit.offset)),"
        + "\"note\":\(hit.note),\"velocity\":\(hit.velocity)}"
    }
    return "{\"started\":\(string(take.started.iso8601)),\"day\":\(string(take.started.day)),"
      + "\"seconds\":\(number(take.seconds)),\"tag\":\(take.tag.map(string) ?? "null"),"
      + "\"meters\":[\(take.meters.map(string).joined(separator: ","))],"
      + "\"tempo\":{\"first\":\(number(take.tempos?.first)),\"last\":\(number(take.tempos?.last)),"
      + "\"lowest\":\(number(take.tempos?.lowest)),\"highest\":\(number(take.tempos?.highest))},"
      + "\"beats\":\(take.beats),\"programme\":\(string(take.programme)),\"ending\":\(string(take.ending)),"
      + "\"status\":\(take.status),\"tolerance\":\(number(take.tolerance)),\"hits\":[\(hits.joined(separator: ","))]}"
  }

  /// `text` as a JSON string.
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
