import MetronomeCore

/// The click earned away (`--earn-silence`): while every beat of a bar is hit within tolerance,
/// and no hit misses, the next bar's click is quieter, a quarter each bar, silent after four;
/// a hit outside the tolerance (or a beat not hit) brings it back whole.
public struct SilenceCoach: Sendable {
  /// The tolerance, in ms either way.
  public let tolerance: Double
  /// Bars in a row with every beat hit within tolerance, up to the four that silence the click.
  public private(set) var steadyBars = 0
  /// The frames of the bar's beats heard so far.
  private var beats: [Int64] = []
  /// The frames of the hits that may still count for a beat of the bar.
  private var hits: [Int64] = []
  /// The last two beats heard, for where the next will fall.
  private var lastBeats: (previous: Int64?, last: Int64?) = (nil, nil)
  private var sampleRate = SampleRate.standard

  /// The bars on time it takes for the click to fall silent.
  public static let barsToSilence = 4

  /// A coach judging hits within `tolerance` ms.
  public init(tolerance: Double) { self.tolerance = tolerance }

  /// How loud the click plays now, from 1 (whole) to 0 (silent).
  public var level: Double { Double(Self.barsToSilence - steadyBars) / Double(Self.barsToSilence) }

  private var reach: Int64 { Int64((tolerance * Double(sampleRate.hz) / 1000).rounded(.down)) }

  /// Takes `beat` as heard; returns whether it ends its bar, whose verdict is then due once a
  /// hit on it can no longer come (`decide()`, a tolerance later).
  ///
  /// The bar's own beats count, not the count-in's, a subdivision's or the second voice's clicks.
  public mutating func heard(_ beat: Beat) -> Bool {
    guard beat.isBarBeat, !beat.isCountIn else { return false }
    sampleRate = beat.sampleRate
    beats.append(beat.frame)
    lastBeats = (lastBeats.last, beat.frame)
    return beat.beatInBar == beat.meter.numerator
  }

  /// Takes a hit the player played, on the clicks' frames; returns true if it brings the click
  /// back: it missed the beat heard last by more than the tolerance, and the next beat (where the
  /// last two say it falls) too, while the click was quieter.
  public mutating func played(_ hit: Hit) -> Bool {
    hits.append(hit.frame)
    guard steadyBars > 0, let last = lastBeats.last else { return false }
    let next = lastBeats.previous.map { last + (last - $0) }
    let misses = abs(hit.frame - last) > reach && next.map { abs(hit.frame - $0) > reach } ?? true
    if misses { steadyBars = 0 }
    return misses
  }

  /// The verdict on the bar that ended (whose last beat was heard): one bar more on time (every
  /// beat hit within tolerance and no hit outside it), or none; returns the level the next bar
  /// plays at.
  public mutating func decide() -> Double {
    let reach = self.reach
    guard let first = beats.first, let last = beats.last else { return level }
    // The bar's hits: from a tolerance before its first beat to a tolerance after its last; one
    // later may be the next bar's, played before this verdict.
    let barHits = hits.filter { $0 >= first - reach && $0 <= last + reach }
    let everyBeat = beats.allSatisfy { beat in barHits.contains { abs($0 - beat) <= reach } }
    let noMiss = barHits.allSatisfy { hit in beats.contains { abs(hit - $0) <= reach } }
    steadyBars = everyBeat && noMiss ? min(steadyBars + 1, Self.barsToSilence) : 0
    hits.removeAll { $0 <= last + reach }
    beats.removeAll()
    return level
  }

  /// The display's line: how much of the click is earned away.
  public var displayLine: String {
    steadyBars == 0
      ? "the click earned away: not yet (every beat of a bar on time quietens the next)"
      : "the click earned away: \(Int((level * 100).rounded()))% loud after \(steadyBars) bar\(steadyBars == 1 ? "" : "s") on time"
  }
}
