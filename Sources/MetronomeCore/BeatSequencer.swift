/// The position of a playing metronome: which click comes next and on which frame.
///
/// A change of tempo, meter or rhythm keeps the phase: it applies from the next beat, which
/// follows the last one by the new interval, and the count goes on within the bar instead of
/// restarting it. The clicks of a beat's subdivision follow it, each at the beat's frame plus its
/// own rounded offset (never by adding rounded steps), as the beat was divided when it sounded;
/// one that the next beat overtakes (a tempo raised in mid-beat) is dropped. A second voice's
/// clicks are spread the same way over each bar from its beat one; a change of tempo or meter in
/// mid-bar drops the rest of that bar's, and the voice comes back with the next bar.
///
/// A program may add a count-in before the first bar, played on its own at the starting tempo,
/// a gap that mutes bars (counted, silent, every voice), and a tempo map whose sections set each
/// beat's frame, meter, level, tempo, subdivision and a gap of their own; the map then ends
/// the sequence (after one more beat, where the map ends, marking its end) and a change of tempo
/// scales it instead of replacing it.
public struct BeatSequencer: Hashable, Sendable {
  private var grid: BeatGrid
  private var indexInGrid = 0
  /// The tempo map playing, if any: its beat `indexInGrid` comes next.
  private var playhead: MapPlayhead?
  /// The count-in, if any, and how many of its beats have been played.
  private var countIn: CountInGrid?
  private var countInPlayed = 0
  /// The bars muted, if any.
  private var gap: Gap?
  /// The song of a setlist it plays, if any.
  public let song: Int?
  /// The outside clock's anchor it follows, if any.
  public let transport: TransportAnchor?
  /// The bar and beat of the first beat: 1 and 1, unless an outside clock says otherwise.
  private var firstBar = 1
  private var firstBeatInBar = 1
  /// The last jump between sections carried out (or there when the sequencer began).
  private var lastJumpID: Int?
  /// Whether the section playing (or the bars looped, while they play) repeats.
  private var loopsSection = false
  /// The map's beats of the bars looped, if any.
  private var loopedBeats: Range<Int>?
  /// Whether the map's next beat was placed by a jump or a repeat rather than after the beat
  /// before it in the map: a new multiplier then keeps its frame.
  private var nextBeatIsPlaced = false
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

  /// A sequencer whose first beat, beat one of bar one (or of the count-in), falls on
  /// `startFrame`, playing `rhythm` and `program`; following an outside clock, its first beat is
  /// the anchor's first at or after `startFrame`, and after `lastPlayed`, the beat played last
  /// before it, so that a new anchor never plays a beat twice.
  public init(
    startFrame: Int64, tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), program: Program = Program(),
    lastPlayed: Beat? = nil, sampleRate: SampleRate
  ) {
    self.meter = meter
    self.rhythm = rhythm
    gap = program.gap
    lastJumpID = program.jump?.id
    loopsSection = program.loopsSection
    var playhead = program.map.map {
      MapPlayhead(map: $0, multiplier: program.multiplier, startFrame: startFrame, sampleRate: sampleRate)
    }
    var startBeat = 0
    if let map = program.map, let bars = program.loopBars, let first = map.firstBeat(ofBar: bars.lowerBound) {
      loopedBeats = first..<(map.firstBeat(ofBar: bars.upperBound + 1) ?? map.firstBeat(ofSection: map.sections.count))
      startBeat = first
    }
    indexInGrid = startBeat
    let startTempo = playhead?.tempo(ofBeat: startBeat) ?? tempo
    let startSection = program.map.flatMap { $0.position(ofBeat: startBeat).map { $0.section } } ?? 0
    let startMeter = program.map?.sections[startSection].meter ?? meter
    let startPattern = program.map.map { $0.sections[startSection].pattern } ?? rhythm.pattern
    var musicFrame = startFrame
    song = program.setlist == nil ? nil : program.song
    transport = program.transport
    if let anchor = program.transport {
      // The anchor's first beat at or after the start: a play pressed later joins its grid.
      let spacing = BeatGrid(
        anchorFrame: anchor.frame, tempo: anchor.tempo, denominator: anchor.meter.denominator, sampleRate: sampleRate)
      var passed =
        startFrame > anchor.frame ? Int((Double(startFrame - anchor.frame) / spacing.framesPerBeat).rounded(.up)) : 0
      let halfABeat = Int64(spacing.framesPerBeat / 2)
      while let lastPlayed, spacing.frame(ofBeat: passed) <= lastPlayed.frame + halfABeat { passed += 1 }
      musicFrame = spacing.frame(ofBeat: passed)
      let place = anchor.beatInBar - 1 + passed
      firstBar = anchor.bar + place / anchor.meter.numerator
      firstBeatInBar = place % anchor.meter.numerator + 1
    } else if let length = program.countInToPlay {
      // klick's -c: whole bars of the first one's meter and pattern; 0 bars are two beats.
      let isKlicksTwoBeats = length == .bars(0)
      let countInMeter =
        isKlicksTwoBeats
        ? (try? Meter(2, startMeter.denominator, cap: NumeratorCap(atLeast: 2))) ?? startMeter : startMeter
      let countInGrid = BeatGrid(
        anchorFrame: startFrame, tempo: startTempo, denominator: countInMeter.denominator, sampleRate: sampleRate)
      let beats =
        switch length {
        case .bars(let bars): isKlicksTwoBeats ? 2 : bars * countInMeter.numerator
        case .beats(let beats): beats
        }
      // klick's two beats of count-in are both normal.
      let pattern = isKlicksTwoBeats ? try? AccentPattern(levels: [.normal, .normal]) : startPattern
      countIn = CountInGrid(grid: countInGrid, meter: countInMeter, pattern: pattern, beats: beats)
      musicFrame = countInGrid.frame(ofBeat: beats)
    }
    grid = BeatGrid(anchorFrame: musicFrame, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    playhead?.rescale(to: program.multiplier, fromBeat: startBeat, atFrame: musicFrame)
    self.playhead = playhead
  }

  /// The frame bar one's beat `n` (counted from 0, after any count-in) falls on while nothing
  /// changes: where a run of `n` beats ends.
  public func frame(ofBeat n: Int) -> Int64 {
    playhead?.frame(ofBeat: n) ?? grid.frame(ofBeat: n)
  }

  /// The frame the next click falls on; nil once a tempo map has ended.
  public var nextFrame: Int64? { nextPending?.frame ?? nextBeatFrame }

  private var nextBeatFrame: Int64? {
    if let countIn, countInPlayed < countIn.beats { return countIn.grid.frame(ofBeat: countInPlayed) }
    guard let playhead else { return grid.frame(ofBeat: indexInGrid) }
    if let count = playhead.map.beatCount, indexInGrid > count { return nil }
    return playhead.frame(ofBeat: indexInGrid)
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
      click = beat.click(at: pending.frame, level: rhythm.level(alongside: beat.level), subdivision: nextClick)
      nextClick += 1
    } else {
      click = beat.click(
        at: pending.frame, level: beat.isGapMuted ? .silent : rhythm.level(alongside: nil),
        voice: .polyrhythm(click: nextVoiceClick, of: bar?.clicks ?? 0))
      nextVoiceClick += 1
    }
    last = click
    return click
  }

  private mutating func emitBeat() -> Beat {
    if let countIn, countInPlayed < countIn.beats { return emitCountInBeat(countIn) }
    // Decided as the beat is played, so that a loop released up to then plays on.
    repeatTheSectionIfItEnds()
    let frame = nextBeatFrame ?? .max
    let beatMeter: Meter
    let beatInBar: Int
    let tempo: Tempo
    let length: Double
    let level: AccentLevel?
    var section: Beat.Section?
    var volume = 1.0
    var isMapEnd = false
    var subdivision = rhythm.subdivision
    var sectionGap: (gap: Gap, bar: Int)?
    if let playhead {
      let position = playhead.map.position(ofBeat: indexInGrid)
      let mapSection = playhead.map.sections[position?.section ?? playhead.map.sections.count - 1]
      beatMeter = mapSection.meter
      let beatInSection = position?.beatInSection ?? 0
      beatInBar = beatInSection % beatMeter.numerator + 1
      tempo = playhead.tempo(ofBeat: indexInGrid)
      length = playhead.length(ofBeat: indexInGrid)
      section = position.map { Beat.Section(index: $0.section, barInSection: beatInSection / beatMeter.numerator + 1) }
      volume = mapSection.volume
      subdivision = mapSection.subdivision ?? subdivision
      sectionGap = mapSection.gap.map { ($0, beatInSection / beatMeter.numerator + 1) }
      isMapEnd = position == nil
      // The end of the map is marked by a beat that is never heard.
      level =
        position == nil || rhythm.isMuted
        ? .silent : (mapSection.pattern ?? .standard(beats: beatMeter.numerator)).level(ofBeat: beatInBar)
    } else {
      beatMeter = meter
      if let last, !last.isCountIn {
        let following = last.beatInBar + 1
        beatInBar = following > meter.numerator ? 1 : following
      } else {
        beatInBar = firstBeatInBar
      }
      tempo = grid.tempo
      length = grid.framesPerBeat
      level = rhythm.level(ofBeat: beatInBar, in: meter)
    }
    let barNumber = last.map { $0.isCountIn ? 1 : (beatInBar == 1 ? $0.bar + 1 : $0.bar) } ?? firstBar
    let count = (last?.count ?? -1) + 1
    let isGapMuted =
      gap?.mutes(bar: barNumber, count: count) ?? false
      || sectionGap.map { $0.gap.mutes(bar: $0.bar, count: count) }
        ?? false
    let beat = Beat(
      count: count, bar: barNumber, beatInBar: beatInBar, meter: beatMeter,
      tempo: tempo, frame: frame, sampleRate: grid.sampleRate, level: isGapMuted ? .silent : level, section: section,
      volume: volume, isGapMuted: isGapMuted, isMapEnd: isMapEnd, song: song, syncSource: transport?.source
    )
    last = beat
    lastBeat = DividedSpan(beat: beat, length: length, clicks: subdivision.count, swing: subdivision.swing)
    nextClick = 1
    if beatInBar == 1 {
      let barLength =
        playhead.map { $0.exactFrame(ofBeat: indexInGrid + beatMeter.numerator) - $0.exactFrame(ofBeat: indexInGrid) }
        ?? grid.framesPerBeat * Double(beatMeter.numerator)
      bar = rhythm.polyrhythm.map { DividedSpan(beat: beat, length: barLength, clicks: $0, swing: 0.5) }
      nextVoiceClick = 0
    }
    indexInGrid += 1
    nextBeatIsPlaced = false
    return beat
  }

  /// The section of the map the last beat played is in (the first before any has played).
  private var sectionPlaying: Int {
    playhead?.map.position(ofBeat: max(indexInGrid - 1, 0))?.section ?? 0
  }

  /// Moves `offset` sections on (or back, or to the start of the one playing with 0) from the next
  /// beat, which keeps its frame: the phase is kept, and the section's first bar starts there.
  private mutating func jump(by offset: Int) {
    guard var playhead, playhead.map.beatCount.map({ indexInGrid <= $0 }) ?? true else { return }
    let target = min(max(sectionPlaying + offset, 0), playhead.map.sections.count - 1)
    let first = playhead.map.firstBeat(ofSection: target)
    playhead.rescale(to: playhead.multiplier, fromBeat: first, atFrame: playhead.frame(ofBeat: indexInGrid))
    self.playhead = playhead
    indexInGrid = first
    nextBeatIsPlaced = true
    bar = nil
  }

  /// When the section playing (or the bars looped, while they play) repeats and its last beat
  /// was the last played, its first beat comes next, on the frame the following one would have
  /// fallen on: no gap and no beat twice.
  private mutating func repeatTheSectionIfItEnds() {
    guard loopsSection, var playhead else { return }
    let section = sectionPlaying
    let looped =
      loopedBeats.flatMap { $0.contains(indexInGrid - 1) ? $0 : nil }
      ?? playhead.map.firstBeat(ofSection: section)..<playhead.map.firstBeat(ofSection: section + 1)
    let end = looped.upperBound
    guard indexInGrid == end else { return }
    let first = looped.lowerBound
    playhead.rescale(to: playhead.multiplier, fromBeat: first, atFrame: playhead.frame(ofBeat: end))
    self.playhead = playhead
    indexInGrid = first
    nextBeatIsPlaced = true
  }

  /// The next beat of the count-in: numbered in bars up to 0 (bar 1 comes after it), counted
  /// from minus its length, neither divided nor against a second voice.
  private mutating func emitCountInBeat(_ countIn: CountInGrid) -> Beat {
    let numerator = countIn.meter.numerator
    // A count-in of beats is the last beats of its bars: 3 beats of 4/4 count 2, 3, 4.
    let place = (numerator - countIn.beats % numerator) % numerator + countInPlayed
    let beatInBar = place % numerator + 1
    let bars = (countIn.beats + numerator - 1) / numerator
    let pattern = countIn.pattern.flatMap { $0.fits(countIn.meter) ? $0 : nil } ?? .standard(beats: numerator)
    let beat = Beat(
      count: countInPlayed - countIn.beats, bar: place / numerator - bars + 1, beatInBar: beatInBar,
      meter: countIn.meter, tempo: countIn.grid.tempo, frame: countIn.grid.frame(ofBeat: countInPlayed),
      sampleRate: grid.sampleRate, level: rhythm.isMuted ? .silent : pattern.level(ofBeat: beatInBar), isCountIn: true,
      song: song)
    countInPlayed += 1
    last = beat
    lastBeat = nil
    bar = nil
    return beat
  }

  /// Plays on at `tempo` in `meter` with `rhythm` from the next beat.
  ///
  /// That beat follows the last one played by the new interval, but never falls before
  /// `earliestFrame` (the first frame not yet rendered), so speeding up late in a long beat plays
  /// the next one at once instead of skipping it.
  ///
  /// While a tempo map plays, the map sets tempo and meter: only `program`'s multiplier scales it,
  /// from the next beat, which follows the last one by the map's interval at the new multiplier.
  public mutating func change(
    tempo: Tempo, meter: Meter, rhythm: Rhythm = Rhythm(), program: Program = Program(), earliestFrame: Int64
  ) {
    if var playhead {
      if rhythm.polyrhythm != self.rhythm.polyrhythm { bar = nil }
      self.rhythm = rhythm
      loopsSection = program.loopsSection
      if let jump = program.jump, jump.id != lastJumpID {
        lastJumpID = jump.id
        self.jump(by: jump.offset)
        playhead = self.playhead ?? playhead
      }
      guard program.multiplier != playhead.multiplier else { return }
      bar = nil
      if indexInGrid > 0, !nextBeatIsPlaced, let lastBeat {
        playhead.rescale(to: program.multiplier, fromBeat: indexInGrid - 1, atFrame: lastBeat.beat.frame)
      } else {
        // The next beat keeps its frame: the first, or one a jump or a repeat placed.
        playhead.rescale(
          to: program.multiplier, fromBeat: indexInGrid, atFrame: playhead.frame(ofBeat: indexInGrid))
      }
      if playhead.frame(ofBeat: indexInGrid) < earliestFrame {
        playhead.rescale(to: program.multiplier, fromBeat: indexInGrid, atFrame: earliestFrame)
      }
      self.playhead = playhead
      return
    }
    // An outside clock places the beats: its follower takes a new tempo or meter up from its
    // next reading, and until then the beats keep to the clock's grid.
    let followsClock = transport != nil
    if (meter.numerator != self.meter.numerator && !followsClock) || rhythm.polyrhythm != self.rhythm.polyrhythm {
      bar = nil
    }
    self.rhythm = rhythm
    guard !followsClock else { return }
    self.meter = meter
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

/// The beats counted in before the music: on their own grid, in their meter and pattern.
private struct CountInGrid: Hashable, Sendable {
  let grid: BeatGrid
  let meter: Meter
  let pattern: AccentPattern?
  let beats: Int
}
