import MetronomeCore

/// A hit matched to the click it was played for, and how far from it.
public struct ScoredHit: Equatable, Sendable {
  /// The hit.
  public let hit: Hit
  /// The click it was nearest to: a beat, a subdivision's click, a silent or a gap's click.
  public let click: Beat

  /// A hit as matched.
  public init(hit: Hit, click: Beat) {
    self.hit = hit
    self.click = click
  }

  /// Frames from the click to the hit: negative when early.
  public var offsetFrames: Int64 { hit.frame - click.frame }

  /// Milliseconds from the click to the hit: negative when early.
  public var offsetMilliseconds: Double { Double(offsetFrames) * 1000 / Double(click.sampleRate.hz) }

  /// Seconds from the run's start to the click.
  public var seconds: Double { click.seconds }
}
