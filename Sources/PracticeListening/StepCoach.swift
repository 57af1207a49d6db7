import MetronomeCore

/// The earned trainer's judge (`--earn`): the beats of each block (a step of the trainer, as it
/// plays) and the hits on them; at each block's end, whether the player earned the next step,
/// plays the block again, or, after two blocks below the mark, falls back.
///
/// A beat counts when a hit came within the tolerance of it either way; a beat not hit counts
/// against. Beats are the bar's own (not a subdivision's clicks, the second voice's or the
/// count-in's).
public struct StepCoach: Sendable {
  /// What the player is told to earn: the share of a block's beats hit within tolerance.
  public let mark: Double
  /// The tolerance, in ms either way.
  public let tolerance: Double
  /// The bars of each section of the trainer, a block each; nil for one that plays for ever.
  public let sectionBars: [Int?]
  /// The steps fallen back after two blocks below the mark in a row; 0 for none.
  public let stepsBack: Int
  /// The frames of the block's beats heard so far.
  private var beats: [Int64] = []
  /// The frames of the hits that may still count for a beat of the block.
  private var hits: [Int64] = []
  /// The rate the frames are counted at, from the first beat heard.
  private var sampleRate = SampleRate.standard
  /// Blocks below the mark in a row.
  private var below = 0
  /// The last block's share and what it led to, for the display.
  public private(set) var lastBlock: (share: Double, move: Int)?

  /// A judge of the blocks of a trainer whose sections are `sectionBars` long, each earned at
  /// `mark` (0 to 1) of its beats hit within `tolerance` ms; two in a row below it fall
  /// `stepsBack` steps back.
  public init(mark: Double, tolerance: Double, sectionBars: [Int?], stepsBack: Int) {
    self.mark = mark
    self.tolerance = tolerance
    self.sectionBars = sectionBars
    self.stepsBack = stepsBack
  }

  /// Takes `beat` as heard; returns whether it ends its block, whose verdict is then due once a
  /// hit on it can no longer come (`decide()`, a tolerance later).
  ///
  /// Only beats of a held step count: not the trainer's last step, which plays for ever.
  public mutating func heard(_ beat: Beat) -> Bool {
    guard beat.isBarBeat, !beat.isCountIn, let section = beat.section,
      sectionBars.indices.contains(section.index), let bars = sectionBars[section.index]
    else { return false }
    sampleRate = beat.sampleRate
    beats.append(beat.frame)
    return section.barInSection == bars && beat.beatInBar == beat.meter.numerator
  }

  /// Takes a hit the player played, on the clicks' frames.
  public mutating func played(_ hit: Hit) { hits.append(hit.frame) }

  /// The frames either way of a beat within which a hit is on time.
  private var reach: Int64 { Int64((tolerance * Double(sampleRate.hz) / 1000).rounded(.down)) }

  /// How many of the block's beats so far were hit within tolerance, of how many.
  public var onTime: (hit: Int, of: Int) {
    let reach = self.reach
    return (beats.count { beat in hits.contains { abs($0 - beat) <= reach } }, beats.count)
  }

  /// The verdict on the block that ended (whose last beat was heard): the steps to move when it
  /// ends (1 earned, 0 again, a negative number back); the next block starts anew.
  public mutating func decide() -> Int {
    let (hit, of) = onTime
    let share = Double(hit) / Double(max(of, 1))
    let move: Int
    if share >= mark {
      (below, move) = (0, 1)
    } else if below == 1 {
      // The second block below in a row.
      (below, move) = (0, -stepsBack)
    } else {
      (below, move) = (1, 0)
    }
    lastBlock = (share, move)
    // The hits up to a tolerance after the block's last beat are its own; later ones may be the
    // next block's first beat's, played before this verdict.
    let end = (beats.last ?? .min) + reach
    hits.removeAll { $0 <= end }
    beats.removeAll()
    return move
  }

  /// The display's line: the block as it fills, then what the last one led to.
  ///
  /// `earning the next step: 11 of 16 beats on time (69%), 90% earns it · last block 94%: up`.
  public var displayLine: String {
    let (hit, of) = onTime
    let percent = { (share: Double) in "\(Int((share * 100).rounded()))%" }
    var line =
      "earning the next step: \(hit) of \(of) beats on time"
      + (of > 0 ? " (\(percent(Double(hit) / Double(of))))" : "") + ", \(percent(mark)) earns it"
    if let (share, move) = lastBlock {
      line += " · last block \(percent(share)): " + (move > 0 ? "up" : move < 0 ? "down" : "again")
    }
    return line
  }
}
