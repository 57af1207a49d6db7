import MetronomeCore

/// How a headless run writes each beat: a line of text, or one JSON object per line.
public enum BeatEventFormat: String, CaseIterable, Sendable {
  case text
  case ndjson

  /// One line, without its newline, for a beat heard `seconds` after the run started, or
  /// `skipped` because a glitch lost the frames it fell in.
  ///
  /// text: `0.500000 bar 1 beat 2 regular` (time in seconds, bar, beat, `sub K` for a
  /// subdivision's click K, `poly J/M` for the second voice's click J of M in the bar, and the
  /// level: accent, regular, weak or silent), then ` count-in` for a beat of the count-in, ` gap`
  /// for one a gap mutes, ` skipped` for a skipped beat, ` song N` (from 1) in a setlist and
  /// ` section S bar B tempo T` (from 1) in a tempo map and ` sync jack` for a beat an outside
  /// clock placed; ndjson:
  /// `{"time":0.5,"frame":24000,"bar":1,"beat":2,"sub":0,"voice":"beats","accent":false,"level":"normal","tempo":120,"meter":"4/4"}`,
  /// the second voice's with `"voice":"polyrhythm","poly":J,"of":M`, `"countIn":true` for a beat
  /// of the count-in, `"gap":true` for one a gap mutes, `"song":N` (from 0) in a setlist, `"sync":"jack"` from an outside clock, `"section":S,"sectionBar":B`
  /// (from 0 and 1) in a tempo map, and
  /// `"skipped":true` for a skipped beat.
  public func line(for beat: Beat, skipped: Bool = false) -> String {
    switch self {
    case .text:
      let time = Self.fixed(beat.seconds)
      return "\(time) bar \(beat.bar) beat \(beat.beatInBar)\(beat.clickLabel) \(beat.level.word)"
        + (beat.isCountIn ? " count-in" : "") + (beat.isGapMuted ? " gap" : "") + (skipped ? " skipped" : "")
        + (beat.song.map { " song \($0 + 1)" } ?? "")
        + (beat.section.map { " section \($0.index + 1) bar \($0.barInSection) tempo \(Tempo.format(beat.tempo.bpm))" }
          ?? "") + (beat.syncSource.map { " sync \($0.rawValue)" } ?? "")
    case .ndjson:
      return
        "{\"time\":\(beat.seconds),\"frame\":\(beat.frame),\"bar\":\(beat.bar),\"beat\":\(beat.beatInBar),\"sub\":\(beat.subdivision),\(Self.voiceFields(beat.voice))"
        + "\"accent\":\(beat.isAccent),\"level\":\"\(beat.level.name)\",\"tempo\":\(Tempo.format(beat.tempo.bpm)),\"meter\":\"\(beat.meter.signature)\""
        + (beat.isCountIn ? ",\"countIn\":true" : "") + (beat.isGapMuted ? ",\"gap\":true" : "")
        + (beat.song.map { ",\"song\":\($0)" } ?? "") + (beat.syncSource.map { ",\"sync\":\"\($0.rawValue)\"" } ?? "")
        + (beat.section.map { ",\"section\":\($0.index),\"sectionBar\":\($0.barInSection)" } ?? "")
        + (skipped ? ",\"skipped\":true}" : "}")
    }
  }

  /// `"voice":"beats",` or `"voice":"polyrhythm","poly":2,"of":3,` for the second voice's click 2 of 3.
  private static func voiceFields(_ voice: Beat.Voice) -> String {
    switch voice {
    case .beats: "\"voice\":\"beats\","
    case .polyrhythm(let click, let clicks): "\"voice\":\"polyrhythm\",\"poly\":\(click + 1),\"of\":\(clicks),"
    }
  }

  /// Seconds with six decimals (microseconds), without Foundation's formatter.
  static func fixed(_ seconds: Double) -> String {
    let micros = Int64((seconds * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
  }
}
