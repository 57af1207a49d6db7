/// How a headless run writes each scored hit beside its beats' lines.
public enum HitLine {
  /// `12.345678 hit bar 3 beat 2 -3.2 ms note 36 velocity 100`: the hit's time in seconds, the
  /// click it was matched to (with `sub K` for a subdivision's), its offset in ms (negative
  /// early) and the note, `key` for a typed key, or `audio velocity 90` for an attack heard on
  /// an audio input (its level as a velocity).
  public static func text(_ scored: ScoredHit) -> String {
    let click = scored.click
    let offset = HitStatistics.format(scored.offsetMilliseconds)
    return "\(seconds(scored)) hit bar \(click.bar) beat \(click.beatInBar)\(click.clickLabel)"
      + " \(scored.offsetFrames > 0 ? "+" : "")\(offset) ms "
      + (scored.hit.isKey
        ? "key" : "\(scored.hit.isAudio ? "audio" : "note \(scored.hit.note)") velocity \(scored.hit.velocity)")
  }

  /// `{"hit":true,"time":12.345678,"frame":592592,"offset":-3.208,"offsetFrames":-154,"clickFrame":592746,`
  /// `"bar":3,"beat":2,"sub":0,"note":36,"velocity":100}`: offset in ms to the microsecond, and
  /// exactly in frames; `"key":true` in place of the note and velocity for a typed key, and
  /// `"audio":true` in place of the note for an attack heard on an audio input, then what placed
  /// it (`"placedBy":"click"`, `"calibration"` or `"latencies"`: `HitPlacement.word`), so that
  /// hits placed before the click was heard at the microphone are marked.
  public static func ndjson(_ scored: ScoredHit) -> String {
    let click = scored.click
    return "{\"hit\":true,\"time\":\(seconds(scored)),\"frame\":\(scored.hit.frame),"
      + "\"offset\":\(thousandths(scored.offsetMilliseconds)),\"offsetFrames\":\(scored.offsetFrames),"
      + "\"clickFrame\":\(click.frame),\"bar\":\(click.bar),\"beat\":\(click.beatInBar),\"sub\":\(click.subdivision),"
      + (scored.hit.isKey
        ? "\"key\":true}"
        : (scored.hit.isAudio ? "\"audio\":true" : "\"note\":\(scored.hit.note)")
          + ",\"velocity\":\(scored.hit.velocity)"
          + (scored.hit.placement.map { ",\"placedBy\":\"\($0.word)\"" } ?? "") + "}")
  }

  /// The CSV header the report's rows go under.
  public static let csvHeader = "time,frame,offset_ms,offset_frames,click_frame,bar,beat,sub,note,velocity"

  /// One CSV row under `csvHeader`; a typed key's note and velocity are empty, an audio
  /// attack's note is `audio`.
  public static func csv(_ scored: ScoredHit) -> String {
    let click = scored.click
    return [
      seconds(scored), "\(scored.hit.frame)", thousandths(scored.offsetMilliseconds), "\(scored.offsetFrames)",
      "\(click.frame)", "\(click.bar)", "\(click.beatInBar)", "\(click.subdivision)",
      scored.hit.isKey ? "" : scored.hit.isAudio ? "audio" : "\(scored.hit.note)",
      scored.hit.isKey ? "" : "\(scored.hit.velocity)",
    ].joined(separator: ",")
  }

  /// The hit's time in seconds with six decimals.
  private static func seconds(_ scored: ScoredHit) -> String {
    let micros = (Double(scored.hit.frame) * 1_000_000 / Double(scored.click.sampleRate.hz)).rounded()
    return decimals(micros, places: 6)
  }

  /// Milliseconds with three decimals.
  public static func thousandths(_ milliseconds: Double) -> String {
    decimals((milliseconds * 1000).rounded(), places: 3)
  }

  /// `units` (a whole number) divided by 10^places, written with that many decimals.
  private static func decimals(_ units: Double, places: Int) -> String {
    let whole = Int64(units)
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let fraction = String(abs(whole) % scale)
    return
      "\(whole < 0 ? "-" : "")\(abs(whole) / scale).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
  }
}
