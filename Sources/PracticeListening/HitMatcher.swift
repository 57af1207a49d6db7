import MetronomeCore

/// Matches each hit to the click nearest to it, as clicks and hits arrive in any interleaving.
///
/// A hit is decided once a click after it is known (an early hit waits for the click it was
/// early for), or when the run ends. Every click of the beats' voice counts, subdivisions' and
/// silent ones included (a gap's silent bars are what a gap click practises); the second voice
/// does not. A hit nearest a count-in click is not scored, nor one nearest a click a glitch
/// skipped (it never sounded), nor one far from any click: after the last, or in a pause (a
/// stretch between two clicks of at least a second and three times the spacing before it), more
/// than half that spacing from the clicks around it.
public struct HitMatcher: Sendable {
  /// How a hit came out.
  public enum Outcome: Equatable, Sendable {
    /// Matched to its click.
    case scored(ScoredHit)
    /// Not scored, and why (`count-in`, `no click near it`).
    case unscored(Hit, reason: String)
  }

  /// A click known, and whether it sounded (a glitch may skip it).
  private struct KnownClick {
    let beat: Beat
    let sounded: Bool
    var frame: Int64 { beat.frame }
  }

  /// The clicks known, oldest first; only the last few are kept.
  private var clicks: [KnownClick] = []
  /// Hits after the last click known, in the order they came.
  private var waiting: [Hit] = []
  private static let clicksKept = 64

  /// No clicks and no hits yet.
  public init() {}

  /// Records a click as heard, or as skipped by a glitch where it did not sound; returns the hits
  /// it decides.
  public mutating func heard(_ click: Beat, sounded: Bool = true) -> [Outcome] {
    guard click.voice == .beats, !click.isMapEnd else { return [] }
    let index = clicks.firstIndex { $0.frame >= click.frame } ?? clicks.endIndex
    guard index == clicks.endIndex || clicks[index].frame != click.frame else { return [] }
    clicks.insert(KnownClick(beat: click, sounded: sounded), at: index)
    if clicks.count > Self.clicksKept { clicks.removeFirst(clicks.count - Self.clicksKept) }
    return decideWaiting(finishing: false)
  }

  /// Records a hit as played; returns it decided if the clicks around it are known.
  public mutating func played(_ hit: Hit) -> [Outcome] {
    waiting.append(hit)
    return decideWaiting(finishing: false)
  }

  /// Decides every hit still waiting, as when the run ends.
  public mutating func finish() -> [Outcome] { decideWaiting(finishing: true) }

  private mutating func decideWaiting(finishing: Bool) -> [Outcome] {
    var decided: [Outcome] = []
    var kept: [Hit] = []
    for hit in waiting {
      if let outcome = decide(hit, finishing: finishing) { decided.append(outcome) } else { kept.append(hit) }
    }
    waiting = kept
    return decided
  }

  /// `hit` matched, if the clicks known decide it (or `finishing` says no more will come).
  private func decide(_ hit: Hit, finishing: Bool) -> Outcome? {
    let nextIndex = clicks.firstIndex { $0.frame > hit.frame }
    let previousIndex = (nextIndex ?? clicks.endIndex) - 1
    let previous = clicks.indices.contains(previousIndex) ? clicks[previousIndex] : nil
    // The spacing before the previous click, which tells a pause from the music's own spacing.
    let spacing = previousIndex >= 1 ? previous.map { $0.frame - clicks[previousIndex - 1].frame } : nil
    guard let nextIndex else {
      // After the last click: decided only when the run ends, within half a spacing of it.
      guard finishing else { return nil }
      if let previous, let spacing, hit.frame - previous.frame <= spacing / 2 { return outcome(hit, previous) }
      return .unscored(hit, reason: "no click near it")
    }
    let next = clicks[nextIndex]
    guard let previous else {
      // Before the first click: the spacing after it tells how near is near.
      guard clicks.indices.contains(nextIndex + 1) else {
        return finishing ? .unscored(hit, reason: "no click near it") : nil
      }
      let after = clicks[nextIndex + 1].frame - next.frame
      return next.frame - hit.frame <= after / 2 ? outcome(hit, next) : .unscored(hit, reason: "no click near it")
    }
    let stretch = next.frame - previous.frame
    if let spacing, stretch >= Int64(next.beat.sampleRate.hz), stretch > 3 * spacing {
      if hit.frame - previous.frame <= spacing / 2 { return outcome(hit, previous) }
      if next.frame - hit.frame <= spacing / 2 { return outcome(hit, next) }
      return .unscored(hit, reason: "no click near it")
    }
    return outcome(hit, hit.frame - previous.frame <= next.frame - hit.frame ? previous : next)
  }

  private func outcome(_ hit: Hit, _ click: KnownClick) -> Outcome {
    if click.beat.isCountIn { return .unscored(hit, reason: "count-in") }
    if !click.sounded { return .unscored(hit, reason: "its click skipped by a glitch") }
    return .scored(ScoredHit(hit: hit, click: click.beat))
  }
}
