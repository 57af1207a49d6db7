/// The position of a playing metronome: which click comes next and on which frame.
///
/// A change of tempo, meter, pattern or subdivision keeps the phase: it applies from the next
/// beat, which follows the last one by the new interval, and the count goes on within the bar
/// instead of restarting it. The clicks of a beat's subdivision follow it, each at the beat's
/// frame plus its own rounded offset (never by adding rounded steps), as the beat was divided
/// when it sounded; one that the next beat overtakes (a tempo raised in mid-beat) is dropped.
public struct BeatSequencer: Hashable, Sendable {
  private var grid: BeatGrid
  private var indexInGrid = 0
  private var meter: Meter
  private var pattern: AccentPattern?
  private var subdivision: Subdivision
  private var last: Beat?
  /// The last beat's own click (not a subdivision's), its length and how it was divided.
  private var lastBeat: DividedBeat?
  /// The subdivision click of the last beat that comes next.
  private var nextClick = 1

  /// A sequencer whose first beat, beat one of bar one, falls on `startFrame`; its beats sound at
  /// `pattern`'s levels while the pattern fits the meter, at the standard ones otherwise, each
  /// divided as `subdivision` says.
  public init(
    startFrame: Int64, tempo: Tempo, meter: Meter, pattern: AccentPattern? = nil, subdivision: Subdivision = .none,
    sampleRate: SampleRate
  ) {
    grid = BeatGrid(anchorFrame: startFrame, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    self.meter = meter
    self.pattern = pattern
    self.subdivision = subdivision
  }

  /// The frame the next click falls on.
  public var nextFrame: Int64 { pendingSubdivisionFrame ?? nextBeatFrame }

  private var nextBeatFrame: Int64 { grid.frame(ofBeat: indexInGrid) }

  /// The frame of the last beat's next subdivision click, if it comes before the next beat.
  private var pendingSubdivisionFrame: Int64? {
    guard let lastBeat, nextClick < lastBeat.subdivision.count else { return nil }
    let offset = lastBeat.subdivision.offset(ofClick: nextClick, beatLength: lastBeat.length)
    let (frame, overflow) = lastBeat.beat.frame.addingReportingOverflow(Int64(clamping: offset.rounded()))
    guard !overflow, frame < nextBeatFrame else { return nil }
    return frame
  }

  /// The next click; the sequencer moves on to the one after it.
  public mutating func advance() -> Beat {
    if let frame = pendingSubdivisionFrame, let beat = lastBeat?.beat {
      let click = Beat(
        count: beat.count, bar: beat.bar, beatInBar: beat.beatInBar, meter: beat.meter, tempo: beat.tempo,
        frame: frame, sampleRate: beat.sampleRate, level: beat.level == .silent ? .silent : .normal,
        subdivision: nextClick)
      nextClick += 1
      last = click
      return click
    }
    let (bar, beatInBar): (Int, Int)
    if let last {
      let following = last.beatInBar + 1
      (bar, beatInBar) = following > meter.numerator ? (last.bar + 1, 1) : (last.bar, following)
    } else {
      (bar, beatInBar) = (1, 1)
    }
    let beat = Beat(
      count: (last?.count ?? -1) + 1, bar: bar, beatInBar: beatInBar, meter: meter,
      tempo: grid.tempo, frame: nextBeatFrame, sampleRate: grid.sampleRate,
      level: pattern.flatMap { $0.fits(meter) ? $0.level(ofBeat: beatInBar) : nil }
    )
    last = beat
    lastBeat = DividedBeat(beat: beat, length: grid.framesPerBeat, subdivision: subdivision)
    nextClick = 1
    indexInGrid += 1
    return beat
  }

  /// Plays on at `tempo` in `meter`, with `pattern`'s levels and divided as `subdivision` says,
  /// from the next beat.
  ///
  /// That beat follows the last one played by the new interval, but never falls before
  /// `earliestFrame` (the first frame not yet rendered), so speeding up late in a long beat plays
  /// the next one at once instead of skipping it.
  public mutating func change(
    tempo: Tempo, meter: Meter, pattern: AccentPattern? = nil, subdivision: Subdivision = .none, earliestFrame: Int64
  ) {
    self.meter = meter
    self.pattern = pattern
    self.subdivision = subdivision
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    guard !spacing.hasSameSpacing(as: grid) else { return }
    let anchor = lastBeat?.beat.frame ?? grid.anchorFrame
    let regrid = BeatGrid(
      anchorFrame: anchor, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    let firstIndex = lastBeat == nil ? 0 : 1
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

/// A beat as it sounded: its click, its exact length in frames, and how it was divided.
private struct DividedBeat: Hashable, Sendable {
  let beat: Beat
  let length: Double
  let subdivision: Subdivision
}
