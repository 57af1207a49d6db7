import MetronomeCore

/// What a live run says of its playback as it ends: the underruns, how far the buffer grew after
/// them, the playback glitches lost and the beats they skipped, and how soon typed keys were heard.
struct PlaybackSummary {
  /// The underruns counted.
  var underruns: Int
  /// The run's frames the first underruns came at (`LivePlayer.underrunsAt`).
  var underrunsAt: [Int64] = []
  /// The buffer's frames at the start and at the end.
  var bufferFrames: (first: Int, now: Int)
  /// The frames of playback glitches lost.
  var lostFrames: Int64
  /// The beats those frames held, not played.
  var skippedBeats: Int
  /// The longest a typed key took to be heard, in seconds; nil for no key typed.
  var slowestKey: Double?
  /// The output's rate.
  var sampleRate: SampleRate

  /// The lines to say, the underruns always.
  var lines: [String] {
    var lines = ["\(underruns) underrun\(underruns == 1 ? "" : "s")"]
    if !underrunsAt.isEmpty { lines.append(whenUnderrun) }
    if bufferFrames.now > bufferFrames.first {
      let milliseconds = Tempo.format(Double(bufferFrames.now) / Double(sampleRate.hz) * 1000)
      lines.append(
        "after underruns the buffer grew from \(bufferFrames.first) to \(bufferFrames.now) frames (\(milliseconds) ms)")
    }
    let lost = Double(lostFrames) / Double(sampleRate.hz) * 1000
    if lost > 0 {
      lines.append(
        "glitches lost \(Tempo.format(lost)) ms of playback; the clicks kept their grid, "
          + "skipping \(skippedBeats) beat\(skippedBeats == 1 ? "" : "s")")
    }
    if let slowestKey { lines.append("typed keys were heard within \(Tempo.format(slowestKey * 1000)) ms") }
    return lines
  }

  /// When the underruns came, in seconds of the run (as headless runs print the beats' times):
  /// "underruns at 6.02 and 6.2 s into the run", the first few of more.
  private var whenUnderrun: String {
    let seconds = underrunsAt.map { Tempo.format(Double($0) / Double(sampleRate.hz)) }
    let listed =
      seconds.count == 1
      ? seconds[0] : seconds.dropLast().joined(separator: ", ") + " and " + seconds[seconds.count - 1]
    let more = underruns > underrunsAt.count ? ", the first \(underrunsAt.count) of \(underruns)" : ""
    return "underrun\(underrunsAt.count == 1 ? "" : "s") at \(listed) s into the run\(more)"
  }
}
