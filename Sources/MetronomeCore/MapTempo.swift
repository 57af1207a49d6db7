/// A tempo map's beats (klick's maps, and the trainers, which are maps): each beat's frame,
/// meter, level, tempo, subdivision and gap set by its section, scaled by a multiplier.
///
/// Keys move between sections and loop one (`LiveControl`), from the next beat, keeping the phase; a new
/// multiplier scales the map from the next beat. The map ends the beats after one more, which
/// marks its end and is never heard.
public struct MapTempo: TempoSource {
  private var playhead: MapPlayhead
  /// The map's beat that comes next.
  private var index: Int
  /// Whether the section playing (or the bars looped, while they play) repeats.
  private var loopsSection: Bool
  /// Whether each section repeats until told where to go at its end (an earned trainer).
  private let holdsSections: Bool
  /// Where to go when the section playing ends, as told: sections on (or back); nil for as the
  /// map goes on, or, where sections are held, the same again.
  private var moveAtSectionEnd: Int?
  /// The map's beats of the bars looped, if any.
  private let loopedBeats: Range<Int>?
  /// Whether the next beat was placed by the start or a jump rather than after the beat played
  /// before it: a new multiplier then keeps its frame, and no section has just ended.
  private var nextBeatIsPlaced = true
  /// The bar the first beat is numbered.
  private let firstBar: Int

  /// `map` from its first beat (or that of the bars `programme` loops), played as `programme` says,
  /// its first beat on `startFrame` and numbered `firstBar`.
  public init(map: TempoMap, programme: Programme, startFrame: Int64, firstBar: Int = 1, sampleRate: SampleRate) {
    playhead = MapPlayhead(map: map, multiplier: programme.multiplier, startFrame: startFrame, sampleRate: sampleRate)
    loopsSection = programme.loopsSection
    holdsSections = programme.holdsSections
    self.firstBar = firstBar
    if let bars = programme.loopBars, let first = map.firstBeat(ofBar: bars.lowerBound) {
      loopedBeats = first..<(map.firstBeat(ofBar: bars.upperBound + 1) ?? map.firstBeat(ofSection: map.sections.count))
      index = first
    } else {
      loopedBeats = nil
      index = 0
    }
    start(atFrame: startFrame)
  }

  /// The tempo the map starts at, multiplied.
  public var startTempo: Tempo { playhead.tempo(ofBeat: index) }

  /// The section the map starts in.
  public var startSection: TempoMap.Section {
    playhead.map.sections[playhead.map.position(ofBeat: index)?.section ?? 0]
  }

  /// Starts the map's first beat on `frame` instead: after a count-in, or on a clock's beat.
  public mutating func start(atFrame frame: Int64) {
    playhead.rescale(to: playhead.multiplier, fromBeat: index, atFrame: frame)
  }

  /// The frame of the next beat; nil once the map has ended.
  public var nextBeatFrame: Int64? {
    if let count = playhead.map.beatCount, index > count { return nil }
    return playhead.frame(ofBeat: index)
  }

  /// The frame of the map's beat `n` while nothing changes.
  public func frame(ofBeat n: Int) -> Int64 { playhead.frame(ofBeat: n) }

  /// The next beat of the map, as its section sets it.
  public mutating func nextBeat(after last: Beat?, rhythm: Rhythm) -> SourcedBeat {
    // Decided as the beat is played, so that a loop released up to then plays on.
    moveIfTheSectionEnds()
    let map = playhead.map
    let position = map.position(ofBeat: index)
    let section = map.sections[position?.section ?? map.sections.count - 1]
    let meter = section.meter
    let beatInSection = position?.beatInSection ?? 0
    let beatInBar = beatInSection % meter.numerator + 1
    let barInSection = beatInSection / meter.numerator + 1
    let beat = SourcedBeat(
      frame: nextBeatFrame ?? .max, meter: meter, beatInBar: beatInBar, tempo: playhead.tempo(ofBeat: index),
      length: playhead.length(ofBeat: index),
      barLength: beatInBar == 1
        ? playhead.exactFrame(ofBeat: index + meter.numerator) - playhead.exactFrame(ofBeat: index) : 0,
      // The end of the map is marked by a beat that is never heard.
      level: position == nil || rhythm.isMuted
        ? .silent : (section.pattern ?? .standard(beats: meter.numerator)).level(ofBeat: beatInBar),
      section: position.map { Beat.Section(index: $0.section, barInSection: barInSection) }, volume: section.volume,
      subdivision: section.subdivision ?? rhythm.subdivision, sectionGap: section.gap.map { ($0, barInSection) },
      isMapEnd: position == nil, firstBar: firstBar)
    index += 1
    nextBeatIsPlaced = false
    return beat
  }

  /// While a map plays, it sets tempo and meter: `programme`'s multiplier scales it from the next
  /// beat, which follows the last one by the map's interval at the new multiplier (never before
  /// `earliestFrame`).
  public mutating func change(
    tempo: Tempo, meter: Meter, programme: Programme, earliestFrame: Int64, lastBeatFrame: Int64?
  ) -> Bool {
    guard programme.multiplier != playhead.multiplier else { return false }
    if index > 0, !nextBeatIsPlaced, let lastBeatFrame {
      playhead.rescale(to: programme.multiplier, fromBeat: index - 1, atFrame: lastBeatFrame)
    } else {
      // The next beat keeps its frame: the first, or one a jump placed.
      playhead.rescale(to: programme.multiplier, fromBeat: index, atFrame: playhead.frame(ofBeat: index))
    }
    if playhead.frame(ofBeat: index) < earliestFrame {
      playhead.rescale(to: programme.multiplier, fromBeat: index, atFrame: earliestFrame)
    }
    return true
  }

  /// Jumps between sections, or loops the one playing (or stops), from the next beat; returns
  /// whether the second voice's bar was cut short by a jump.
  public mutating func receive(_ control: LiveControl) -> Bool {
    switch control {
    case .jump(let offset): return jump(by: offset)
    case .loop(let loops):
      loopsSection = loops
      return false
    case .moveAtSectionEnd(let offset):
      moveAtSectionEnd = offset
      return false
    }
  }

  /// The section of the map the last beat played is in (the first before any has played).
  private var sectionPlaying: Int {
    playhead.map.position(ofBeat: max(index - 1, 0))?.section ?? 0
  }

  /// Moves `offset` sections on (or back, or to the start of the one playing with 0).
  ///
  /// The next beat keeps its frame: the phase is kept, and the section's first bar starts there.
  /// Returns whether it moved.
  private mutating func jump(by offset: Int) -> Bool {
    guard playhead.map.beatCount.map({ index <= $0 }) ?? true else { return false }
    let target = min(max(sectionPlaying + offset, 0), playhead.map.sections.count - 1)
    let first = playhead.map.firstBeat(ofSection: target)
    playhead.rescale(to: playhead.multiplier, fromBeat: first, atFrame: playhead.frame(ofBeat: index))
    index = first
    nextBeatIsPlaced = true
    return true
  }

  /// When the section playing (or the bars looped, while they play) repeats and its last beat
  /// was the last played, its first beat comes next, on the frame the following one would have
  /// fallen on: no gap and no beat twice.
  ///
  /// Where sections are held until told, the one told (or the same again) comes next there the
  /// same way.
  ///
  /// A beat the start or a jump placed follows no beat of the map: the beat before it in the map,
  /// at the end of another section, was not played, so nothing repeats there.
  private mutating func moveIfTheSectionEnds() {
    guard loopsSection || holdsSections, !nextBeatIsPlaced else { return }
    let map = playhead.map
    let section = sectionPlaying
    let looped =
      loopedBeats.flatMap { loopsSection && $0.contains(index - 1) ? $0 : nil }
      ?? map.firstBeat(ofSection: section)..<map.firstBeat(ofSection: section + 1)
    let end = looped.upperBound
    guard index == end else { return }
    var first = looped.lowerBound
    if !loopsSection, let offset = moveAtSectionEnd {
      // Past the last section a map that loops starts again; one that does not holds its last.
      let next = section + offset
      let target = map.loops && next == map.sections.count ? 0 : min(max(next, 0), map.sections.count - 1)
      first = map.firstBeat(ofSection: target)
      moveAtSectionEnd = nil
    }
    playhead.rescale(to: playhead.multiplier, fromBeat: first, atFrame: playhead.frame(ofBeat: end))
    index = first
  }
}
