/// The position of a playing metronome: which click comes next and on which frame.
///
/// Its `TempoSource` places the beats (the player's steady tempo, a tempo map or trainer, an
/// outside clock); the sequencer lays the rhythm on them. A change of tempo, meter or rhythm
/// keeps the phase: it applies from the next beat, and the count goes on within the bar instead
/// of restarting it. The clicks of a beat's subdivision follow it, each at the beat's frame plus
/// its own rounded offset (never by adding rounded steps), as the beat was divided when it
/// sounded; one that the next beat overtakes (a tempo raised in mid-beat) is dropped. A second
/// voice's clicks are spread the same way over each bar from its beat one; a change of tempo or
/// meter in mid-bar drops the rest of that bar's, and the voice comes back with the next bar.
///
/// A programme may add a count-in before the first bar, played on its own at the starting tempo,
/// and a gap that mutes bars (counted, silent, every voice).
public struct BeatSequencer: Hashable, Sendable {
  /// Where the beats come from.
  private var source: BeatSource
  /// The count-in, if any, and how many of its beats have been played.
  private var countIn: CountInGrid?
  private var countInPlayed = 0
  /// Whether the count-in is divided, and has the second voice, as the bars after it.
  private let countInPlaysTheBar: Bool
  /// The bars muted, if any.
  private let gap: Gap?
  private let sampleRate: SampleRate
  private var rhythm: Rhythm
  /// The last of the bars' own beats played (not the count-in's, a subdivision's or the second
  /// voice's): the next beat is counted and placed after it.
  private var last: Beat?
  /// The last beat's own click (not a subdivision's), its length and how it was divided.
  private var lastBeat: DividedSpan?
  /// The subdivision click of the last beat that comes next.
  private var nextClick = 1
  /// The bar the second voice is spreading its clicks over, from its beat one.
  private var bar: DividedSpan?
  /// The second voice's click of the bar that comes next.
  private var nextVoiceClick = 0

  /// A sequencer whose first beat, beat one of bar one (or of the count-in), falls on
  /// `startFrame`, playing `rhythm` and `programme`; following an outside clock, its first beat is
  /// the anchor's first at or after `startFrame`, and after `lastPlayed`, the beat played last
  /// before it, so that a new anchor never plays a beat twice.
  public init(
    startFrame: Int64, tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), programme: Programme = Programme(),
    lastPlayed: Beat? = nil, sampleRate: SampleRate
  ) {
    self.rhythm = rhythm
    self.sampleRate = sampleRate
    countInPlaysTheBar = programme.countInPlaysTheBar
    gap = programme.gap
    let clockStart = programme.transport.map {
      ClockTempo.start(of: $0, at: startFrame, after: lastPlayed, sampleRate: sampleRate)
    }
    var map = programme.map.map {
      MapTempo(
        map: $0, programme: programme, startFrame: startFrame, firstBar: clockStart?.bar ?? 1, sampleRate: sampleRate)
    }
    var musicFrame = clockStart?.frame ?? startFrame
    if clockStart == nil, let length = programme.countInToPlay {
      let countIn = CountInGrid(
        length, startFrame: startFrame,
        tempo: map?.startTempo ?? SteadyTempo.startingTempo(chosen: tempo, trainer: programme.speedTrainer),
        meter: map?.startSection.meter ?? meter,
        pattern: map.map { $0.startSection.pattern } ?? rhythm.pattern, sampleRate: sampleRate)
      musicFrame = countIn.grid.frame(ofBeat: countIn.beats)
      self.countIn = countIn
    }
    if var started = map {
      started.start(atFrame: musicFrame)
      map = started
    }
    source =
      if let map {
        .map(map)
      } else if let anchor = programme.transport {
        .clock(
          ClockTempo(
            anchor: anchor, startFrame: startFrame, lastPlayed: lastPlayed, tempo: tempo, meter: meter,
            sampleRate: sampleRate))
      } else {
        .steady(
          SteadyTempo(
            startFrame: musicFrame, tempo: tempo, meter: meter, trainer: programme.speedTrainer, sampleRate: sampleRate)
        )
      }
  }

  /// The frame bar one's beat `n` (counted from 0, after any count-in) falls on while nothing
  /// changes: where a run of `n` beats ends.
  public func frame(ofBeat n: Int) -> Int64 { source.frame(ofBeat: n) }

  /// The frame the next click falls on; nil once a tempo map has ended.
  public var nextFrame: Int64? { nextPending?.frame ?? nextBeatFrame }

  private var nextBeatFrame: Int64? {
    if let countIn, countInPlayed < countIn.beats { return countIn.grid.frame(ofBeat: countInPlayed) }
    return source.nextBeatFrame
  }

  /// The click due before the next beat, if any: the last beat's next subdivision click, or the
  /// bar's next click of the second voice, whichever comes first (the subdivision's on a tie).
  private var nextPending: (frame: Int64, isSubdivision: Bool)? {
    let beat = nextBeatFrame ?? .max
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
  ///
  /// Only call it while `nextFrame` is not nil.
  public mutating func advance() -> Beat {
    guard let pending = nextPending, let beat = lastBeat?.beat else { return emitBeat() }
    return emitPending(pending, of: beat)
  }

  private mutating func emitPending(_ pending: (frame: Int64, isSubdivision: Bool), of beat: Beat) -> Beat {
    let click: Beat
    if pending.isSubdivision {
      let level = rhythm.level(alongside: beat.level)
      click = beat.click(
        at: pending.frame, level: level, subdivision: nextClick, volume: loudness(of: lastBeat, at: level))
      nextClick += 1
    } else {
      let level = beat.isGapMuted ? .silent : rhythm.level(alongside: nil)
      click = beat.click(
        at: pending.frame, level: level, voice: .polyrhythm(click: nextVoiceClick, of: bar?.clicks ?? 0),
        volume: loudness(of: bar, at: level))
      nextVoiceClick += 1
    }
    return click
  }

  private mutating func emitBeat() -> Beat {
    if let countIn, countInPlayed < countIn.beats { return emitCountInBeat(countIn) }
    let placed = source.nextBeat(after: last, rhythm: rhythm)
    let barNumber =
      last.map { placed.beatInBar == 1 ? $0.bar + 1 : $0.bar } ?? placed.firstBar
    let count = (last?.count ?? -1) + 1
    let isGapMuted =
      gap?.mutes(bar: barNumber, count: count) ?? false
      || placed.sectionGap.map { $0.gap.mutes(bar: $0.bar, count: count) } ?? false
    let level = isGapMuted ? AccentLevel.silent : placed.level ?? .standard(ofBeat: placed.beatInBar)
    let beat = Beat(
      count: count, bar: barNumber, beatInBar: placed.beatInBar, meter: placed.meter, tempo: placed.tempo,
      frame: placed.frame, sampleRate: sampleRate, level: level, clicks: placed.subdivision.count,
      section: placed.section,
      volume: placed.volume * rhythm.gains.gain(for: level), isGapMuted: isGapMuted, isMapEnd: placed.isMapEnd)
    last = beat
    lastBeat = DividedSpan(
      beat: beat, volume: placed.volume, length: placed.length, clicks: placed.subdivision.count,
      swing: placed.subdivision.swing)
    nextClick = 1
    if placed.beatInBar == 1 {
      bar = rhythm.polyrhythm.map {
        DividedSpan(beat: beat, volume: placed.volume, length: placed.barLength, clicks: $0, swing: 0.5)
      }
      nextVoiceClick = 0
    }
    return beat
  }

  /// Beats a count-in that plays the bar sounds undivided first.
  private static let beatsStatedAlone = 2

  /// Whether beat `index` (from 0) of a count-in of `beats` beats that plays the bar sounds
  /// undivided: its first two state the beat alone, so that each beat's click is heard whole
  /// before subdivisions' tails overlap it ("one, two, three-and, four-and"), and at least two
  /// stay divided, so that the subdivisions are heard too.
  public static func statesTheBeatAlone(countInBeat index: Int, of beats: Int) -> Bool {
    index < min(beatsStatedAlone, beats - beatsStatedAlone)
  }

  /// The next beat of the count-in: numbered in bars up to 0 (bar 1 comes after it), counted
  /// from minus its length; divided after its first beats, and against a second voice from a
  /// bar's beat one, only where it plays the bar.
  private mutating func emitCountInBeat(_ countIn: CountInGrid) -> Beat {
    let numerator = countIn.meter.numerator
    // A count-in of beats is the last beats of its bars: 3 beats of 4/4 count 2, 3, 4.
    let place = (numerator - countIn.beats % numerator) % numerator + countInPlayed
    let beatInBar = place % numerator + 1
    let bars = (countIn.beats + numerator - 1) / numerator
    let pattern = countIn.pattern.flatMap { $0.fits(countIn.meter) ? $0 : nil } ?? .standard(beats: numerator)
    let level = rhythm.isMuted ? AccentLevel.silent : pattern.level(ofBeat: beatInBar)
    let statesTheBeat = Self.statesTheBeatAlone(countInBeat: countInPlayed, of: countIn.beats)
    let subdivision = countInPlaysTheBar && !statesTheBeat ? rhythm.subdivision : .none
    let beat = Beat(
      count: countInPlayed - countIn.beats, bar: place / numerator - bars + 1, beatInBar: beatInBar,
      meter: countIn.meter, tempo: countIn.grid.tempo, frame: countIn.grid.frame(ofBeat: countInPlayed),
      sampleRate: sampleRate, level: level, clicks: subdivision.count, isCountIn: true,
      volume: rhythm.gains.gain(for: level))
    countInPlayed += 1
    let length = countIn.grid.framesPerBeat
    lastBeat =
      countInPlaysTheBar
      ? DividedSpan(beat: beat, volume: 1, length: length, clicks: subdivision.count, swing: subdivision.swing) : nil
    nextClick = 1
    if beatInBar == 1 || !countInPlaysTheBar {
      bar = rhythm.polyrhythm.flatMap { clicks in
        countInPlaysTheBar
          ? DividedSpan(beat: beat, volume: 1, length: length * Double(numerator), clicks: clicks, swing: 0.5) : nil
      }
      nextVoiceClick = 0
    }
    return beat
  }

  /// Plays on at `tempo` in `meter` with `rhythm` and `programme` from the next beat, as the source
  /// takes them (never before `earliestFrame`, the first frame not yet rendered).
  public mutating func change(
    tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), programme: Programme = Programme(), earliestFrame: Int64
  ) {
    let voiceChanged = rhythm.polyrhythm != self.rhythm.polyrhythm
    self.rhythm = rhythm
    let barIsCut = source.change(
      tempo: tempo, meter: meter, programme: programme, earliestFrame: earliestFrame,
      lastBeatFrame: lastBeat?.beat.frame)
    if voiceChanged || barIsCut { bar = nil }
  }

  /// Takes `control` (a jump between a map's sections, a loop) from the next beat.
  public mutating func receive(_ control: LiveControl) {
    if source.receive(control) { bar = nil }
  }

  /// How loud a click at `level` within `span` plays: the span's volume times the rhythm's gain.
  private func loudness(of span: DividedSpan?, at level: AccentLevel) -> Double {
    (span?.volume ?? 1) * rhythm.gains.gain(for: level)
  }
}

/// A beat or a bar as it sounded, divided into clicks: its own click, its exact length in frames,
/// how many clicks it holds and how they swing.
private struct DividedSpan: Hashable, Sendable {
  let beat: Beat
  /// The volume its map gave it, before the rhythm's gains.
  let volume: Double
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

/// The beats counted in before the music: on their own grid, in their meter and pattern.
private struct CountInGrid: Hashable, Sendable {
  let grid: BeatGrid
  let meter: Meter
  let pattern: AccentPattern?
  let beats: Int

  /// A count-in of `length` from `startFrame`, at `tempo` in `meter` with `pattern`: klick's
  /// `-c`, whole bars of the first one's meter and pattern, 0 bars being two normal beats.
  init(
    _ length: CountIn, startFrame: Int64, tempo: Tempo, meter: Meter, pattern: AccentPattern?, sampleRate: SampleRate
  ) {
    let isKlicksTwoBeats = length == .bars(0)
    self.meter =
      isKlicksTwoBeats ? (try? Meter(2, meter.denominator, cap: .widest)) ?? meter : meter
    grid = BeatGrid(anchorFrame: startFrame, tempo: tempo, denominator: self.meter.denominator, sampleRate: sampleRate)
    beats =
      switch length {
      case .bars(let bars): isKlicksTwoBeats ? 2 : bars * self.meter.numerator
      case .beats(let beats): beats
      }
    // klick's two beats of count-in are both normal.
    self.pattern = isKlicksTwoBeats ? try? AccentPattern(levels: [.normal, .normal]) : pattern
  }
}
