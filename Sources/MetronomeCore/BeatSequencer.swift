/// The position of a playing metronome: which click comes next and on which frame.
///
/// A change of tempo, meter or rhythm keeps the phase: it applies from the next beat, which
/// follows the last one by the new interval, and the count goes on within the bar instead of
/// restarting it. The clicks of a beat's subdivision follow it, each at the beat's frame plus its
/// own rounded offset (never by adding rounded steps), as the beat was divided when it sounded;
/// one that the next beat overtakes (a tempo raised in mid-beat) is dropped. A second voice's
/// clicks are spread the same way over each bar from its beat one; a change of tempo or meter in
/// mid-bar drops the rest of that bar's, and the voice comes back with the next bar.
public struct BeatSequencer: Hashable, Sendable {
  private var grid: BeatGrid
  private var indexInGrid = 0
  private var meter: Meter
  private var rhythm: Rhythm
  private var last: Beat?
  /// The last beat's own click (not a subdivision's), its length and how it was divided.
  private var lastBeat: DividedSpan?
  /// The subdivision click of the last beat that comes next.
  private var nextClick = 1
  /// The bar the second voice is spreading its clicks over, from its beat one.
  private var bar: DividedSpan?
  /// The second voice's click of the bar that comes next.
  private var nextVoiceClick = 0

  /// A sequencer whose first beat, beat one of bar one, falls on `startFrame`, playing `rhythm`.
  public init(startFrame: Int64, tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), sampleRate: SampleRate) {
    grid = BeatGrid(anchorFrame: startFrame, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    self.meter = meter
    self.rhythm = rhythm
  }

  /// The frame the next click falls on.
  public var nextFrame: Int64 { nextPending?.frame ?? nextBeatFrame }

  private var nextBeatFrame: Int64 { grid.frame(ofBeat: indexInGrid) }

  /// The click due before the next beat, if any: the last beat's next subdivision click, or the
  /// bar's next click of the second voice, whichever comes first (the subdivision's on a tie).
  private var nextPending: (frame: Int64, isSubdivision: Bool)? {
    let beat = nextBeatFrame
    let subdivision = lastBeat?.frame(ofClick: nextClick).flatMap { $0 < beat ? $0 : nil }
    let voice = bar?.frame(ofClick: nextVoiceClick).flatMap { $0 < beat ? $0 : nil }
    switch (subdivision, voice) {
    case (let sub?, let voice?): return sub <= voice ? (sub, true) : (voice, false)
    case (let sub?, nil): return (sub, true)
    case (nil, let voice?): return (voice, false)
    case (nil, nil): return nil
    }
  }

  /// The next click; the sequencer moves on to the one after it.
  public mutating func advance() -> Beat {
    guard let pending = nextPending, let beat = lastBeat?.beat else { return emitBeat() }
    return emitPending(pending, of: beat)
  }

  private mutating func emitPending(_ pending: (frame: Int64, isSubdivision: Bool), of beat: Beat) -> Beat {
    let click: Beat
    if pending.isSubdivision {
      click = beat.click(at: pending.frame, level: rhythm.level(alongside: beat.level), subdivision: nextClick)
      nextClick += 1
    } else {
      click = beat.click(
        at: pending.frame, level: rhythm.level(alongside: nil),
        voice: .polyrhythm(click: nextVoiceClick, of: bar?.clicks ?? 0))
      nextVoiceClick += 1
    }
    last = click
    return click
  }

  private mutating func emitBeat() -> Beat {
    let (barNumber, beatInBar): (Int, Int)
    if let last {
      let following = last.beatInBar + 1
      (barNumber, beatInBar) = following > meter.numerator ? (last.bar + 1, 1) : (last.bar, following)
    } else {
      (barNumber, beatInBar) = (1, 1)
    }
    let beat = Beat(
      count: (last?.count ?? -1) + 1, bar: barNumber, beatInBar: beatInBar, meter: meter,
      tempo: grid.tempo, frame: nextBeatFrame, sampleRate: grid.sampleRate,
      level: rhythm.level(ofBeat: beatInBar, in: meter)
    )
    last = beat
    lastBeat = DividedSpan(
      beat: beat, length: grid.framesPerBeat, clicks: rhythm.subdivision.count, swing: rhythm.subdivision.swing)
    nextClick = 1
    if beatInBar == 1 {
      bar = rhythm.polyrhythm.map {
        DividedSpan(beat: beat, length: grid.framesPerBeat * Double(meter.numerator), clicks: $0, swing: 0.5)
      }
      nextVoiceClick = 0
    }
    indexInGrid += 1
    return beat
  }

  /// Plays on at `tempo` in `meter` with `rhythm` from the next beat.
  ///
  /// That beat follows the last one played by the new interval, but never falls before
  /// `earliestFrame` (the first frame not yet rendered), so speeding up late in a long beat plays
  /// the next one at once instead of skipping it.
  public mutating func change(tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), earliestFrame: Int64) {
    if meter.numerator != self.meter.numerator || rhythm.polyrhythm != self.rhythm.polyrhythm { bar = nil }
    self.meter = meter
    self.rhythm = rhythm
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    guard !spacing.hasSameSpacing(as: grid) else { return }
    bar = nil
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

/// A beat or a bar as it sounded, divided into clicks: its own click, its exact length in frames,
/// how many clicks it holds and how they swing.
private struct DividedSpan: Hashable, Sendable {
  let beat: Beat
  let length: Double
  let clicks: Int
  let swing: Double

  /// The frame of click `k`, the span's own frame plus its rounded offset; nil past the last.
  func frame(ofClick k: Int) -> Int64? {
    guard k < clicks else { return nil }
    let offset = Subdivision.offset(ofClick: k, of: clicks, swing: swing, length: length)
    let (frame, overflow) = beat.frame.addingReportingOverflow(Int64(clamping: offset.rounded()))
    return overflow ? nil : frame
  }
}
