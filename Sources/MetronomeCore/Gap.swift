/// Bars (or beats) a metronome mutes to test the player's inner clock: counted and shown, never
/// heard, the click coming back exactly on the grid.
public enum Gap: Hashable, Sendable, CustomStringConvertible {
  /// Play `play` bars, then mute `mute` bars, and again; both at least 1.
  case bars(play: Int, mute: Int)
  /// Mute about `percent` of the bars (or, `byBeat`, of the beats) at random, chosen by `seed` so
  /// that the same seed mutes the same ones; bar one always plays, to give the tempo.
  case random(percent: Double, byBeat: Bool, seed: UInt64)

  /// The most bars a regular gap may play or mute in each round.
  public static let mostBars = 1000

  /// `PLAY:MUTE` (3:1) or `PERCENT%` (25%, of bars) or `PERCENT%:beats`, random with `seed`.
  public init(parsing text: some StringProtocol, seed: UInt64) throws(GapError) {
    if let percentSign = text.firstIndex(of: "%") {
      let unit = text[text.index(after: percentSign)...]
      guard let percent = Double(text[..<percentSign]), (0...100).contains(percent), unit.isEmpty || unit == ":beats"
      else { throw GapError(text: String(text)) }
      self = .random(percent: percent, byBeat: !unit.isEmpty, seed: seed)
      return
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 2, let play = parts[0], let mute = parts[1], (1...Self.mostBars).contains(play),
      (1...Self.mostBars).contains(mute)
    else { throw GapError(text: String(text)) }
    self = .bars(play: play, mute: mute)
  }

  /// The same gap with its random bars drawn by `seed`: a gap is read before the seed it is drawn
  /// with is known (`--gap` and `--seed` are two options).
  public func seeded(_ seed: UInt64) -> Gap {
    guard case .random(let percent, let byBeat, _) = self else { return self }
    return .random(percent: percent, byBeat: byBeat, seed: seed)
  }

  /// Whether beat `count` (counted from 0 over the music), in bar `bar` (counted from 1), is muted.
  public func mutes(bar: Int, count: Int) -> Bool {
    switch self {
    case .bars(let play, let mute):
      // Bar 1 and the count-in's bars (0 and before) leave a remainder of 0 or less: they play.
      return (bar - 1) % (play + mute) >= play
    case .random(let percent, let byBeat, let seed):
      guard bar > 1 else { return false }
      return Self.uniform(seed: seed, index: UInt64(truncatingIfNeeded: byBeat ? count : bar)) * 100 < percent
    }
  }

  /// A number in 0..<1 that depends only on `seed` and `index` (SplitMix64's mixing), so a muted
  /// bar stays muted however the run got there: a jump, a loop or a replay.
  private static func uniform(seed: UInt64, index: UInt64) -> Double {
    var z = seed &+ index &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(UInt64(1) << 53)
  }

  /// How it is written: `3:1`, `25%`, `25%:beats`.
  public var description: String {
    switch self {
    case .bars(let play, let mute): "\(play):\(mute)"
    case .random(let percent, let byBeat, _): "\(Tempo.format(percent))%\(byBeat ? ":beats" : "")"
    }
  }
}

/// A gap that is neither `PLAY:MUTE` nor `PERCENT%`.
public struct GapError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was written.
  public let text: String

  /// How it reads: what was wrong and what to write.
  public var description: String {
    "gap '\(text)' is neither PLAY:MUTE bars (3:1, 1 to \(Gap.mostBars) each) nor a share muted at random"
      + " (25% of bars, 25%:beats)"
  }
}
