/// The position of a playing metronome: which beat comes next and on which frame.
///
/// A change of tempo or meter keeps the phase: it applies from the next beat, which follows the
/// last one by the new interval, and the count goes on within the bar instead of restarting it.
public struct BeatSequencer: Hashable, Sendable {
  private var grid: BeatGrid
  private var indexInGrid = 0
  private var meter: Meter
  private var pattern: AccentPattern?
  private var last: Beat?

  /// A sequencer whose first beat, beat one of bar one, falls on `startFrame`; its beats sound at
  /// `pattern`'s levels while the pattern fits the meter, at the standard ones otherwise.
  public init(
    startFrame: Int64, tempo: Tempo, meter: Meter, pattern: AccentPattern? = nil, sampleRate: SampleRate
  ) {
    grid = BeatGrid(anchorFrame: startFrame, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    self.meter = meter
    self.pattern = pattern
  }

  /// The frame the next beat falls on.
  public var nextFrame: Int64 { grid.frame(ofBeat: indexInGrid) }

  /// The next beat; the sequencer moves on to the one after it.
  public mutating func advance() -> Beat {
    let (bar, beatInBar): (Int, Int)
    if let last {
      let following = last.beatInBar + 1
      (bar, beatInBar) = following > meter.numerator ? (last.bar + 1, 1) : (last.bar, following)
    } else {
      (bar, beatInBar) = (1, 1)
    }
    let beat = Beat(
      count: (last?.count ?? -1) + 1, bar: bar, beatInBar: beatInBar, meter: meter,
      tempo: grid.tempo, frame: nextFrame, sampleRate: grid.sampleRate,
      level: pattern.flatMap { $0.fits(meter) ? $0.level(ofBeat: beatInBar) : nil }
    )
    last = beat
    indexInGrid += 1
    return beat
  }

  /// Plays on at `tempo` in `meter`, with `pattern`'s levels, from the next beat.
  ///
  /// That beat follows the last one played by the new interval, but never falls before
  /// `earliestFrame` (the first frame not yet rendered), so speeding up late in a long beat plays
  /// the next one at once instead of skipping it.
  public mutating func change(tempo: Tempo, meter: Meter, pattern: AccentPattern? = nil, earliestFrame: Int64) {
    self.meter = meter
    self.pattern = pattern
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    guard !spacing.hasSameSpacing(as: grid) else { return }
    let anchor = last?.frame ?? grid.anchorFrame
    let regrid = BeatGrid(
      anchorFrame: anchor, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    let firstIndex = last == nil ? 0 : 1
    if regrid.frame(ofBeat: firstIndex) >= earliestFrame {
      grid = regrid
      indexInGrid = firstIndex
    } else {
      grid = BeatGrid(
        anchorFrame: earliestFrame, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
      indexInGrid = 0
    }
  }
}
