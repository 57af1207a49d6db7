/// What the player did without the click: the hits on clicks a gap muted or the player earned
/// away (`--gap`, `--earn-silence`), taken stretch by stretch, and the first hit on each click
/// that sounded again.
///
/// The drift is the slope of the offsets within the silent stretches (each about its own mean,
/// pooled): how far the player's inner clock ran from the click's, in ms a minute.
public struct SilentPlaying: Equatable, Sendable {
  /// The hits played on silent clicks.
  public let hits: Int
  /// The drift while silent, in ms a minute (positive dragging); nil where no stretch held two
  /// hits apart in time.
  public let driftPerMinute: Double?
  /// The offsets of the first hits on clicks that sounded again after a silent stretch, in ms.
  public let returns: [Double]

  /// What `scored` (in the order decided) says of the playing without the click; nil where no hit
  /// fell on a silent click.
  public init?(_ scored: [ScoredHit]) {
    // In the order played: by click, and two hits on one click (a flam) by their own frames.
    let hits = scored.sorted { ($0.click.frame, $0.hit.frame) < ($1.click.frame, $1.hit.frame) }
    var stretches: [[ScoredHit]] = []
    var returns: [Double] = []
    var inSilence = false
    for hit in hits {
      let silent = hit.click.isGapMuted || hit.click.volume == 0
      if silent {
        if inSilence { stretches[stretches.count - 1].append(hit) } else { stretches.append([hit]) }
      } else if inSilence {
        returns.append(hit.offsetMilliseconds)
      }
      inSilence = silent
    }
    guard !stretches.isEmpty else { return nil }
    self.hits = stretches.reduce(0) { $0 + $1.count }
    self.returns = returns
    // Each stretch about its own mean time; the times less their mean sum to 0 within it, so the
    // offsets need no centring.
    var covariance = 0.0
    var spread = 0.0
    for stretch in stretches {
      let meanTime = stretch.reduce(0) { $0 + $1.seconds } / Double(stretch.count)
      for hit in stretch {
        let time = hit.seconds - meanTime
        covariance += time * hit.offsetMilliseconds
        spread += time * time
      }
    }
    driftPerMinute = spread > 0 ? covariance / spread * 60 : nil
  }

  /// The summary's words: `without the click: 24 hits, rushing 12.0 ms a minute; back with it,
  /// the first hit +3.2 ms (mean of 3)`.
  public var summary: String {
    var line = "without the click: \(hits) hit\(hits == 1 ? "" : "s")"
    if let driftPerMinute { line += ", " + HitStatistics.drift(driftPerMinute) }
    guard !returns.isEmpty else { return line }
    let mean = returns.reduce(0, +) / Double(returns.count)
    return line + "; back with it, the first hit \(mean > 0 ? "+" : "")\(HitStatistics.format(mean)) ms"
      + (returns.count > 1 ? " (mean of \(returns.count))" : "")
  }
}
