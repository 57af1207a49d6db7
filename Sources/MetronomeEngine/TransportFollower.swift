import MetronomeCore

/// Turns a transport's readings, one a cycle, into anchors for the view model to follow: one when
/// it starts rolling, nil when it stops, and a new one whenever its beats leave the grid the last
/// anchor set (a relocation, another tempo or meter); nothing while it rolls on as foreseen.
///
/// With a timebase master the transport's own bar, beat and tempo place the beats (to within
/// a tick, or exactly where its beats run from its frame 0 at its tempo); without one, its frame
/// does, at the metronome's tempo and meter, beat one of bar one on its frame 0.
public struct TransportFollower: Sendable {
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// The clock its anchors name.
  public let source: ClockSource
  private var anchor: TransportAnchor?
  private var lastID = 0
  private var hasRead = false
  /// Whether the last reading numbered its beat otherwise than the anchor, in time with it: a
  /// master may say so for a cycle at a bar line, so only a second such reading counts.
  private var wasNumberedOtherwise = false

  /// A follower of `source` counting frames at `sampleRate`.
  public init(sampleRate: SampleRate, source: ClockSource = .jack) {
    self.sampleRate = sampleRate
    self.source = source
  }

  /// What a change the reading at the cycle starting on the engine's frame `cycleStart` calls
  /// for, the metronome playing at `tempo` in `meter`: `.some(anchor)` to follow it, `.some(nil)`
  /// to stop, nil for none.
  public mutating func follow(_ reading: TransportReading, atFrame cycleStart: Int64, tempo: Tempo, meter: Meter)
    -> TransportAnchor??
  {
    let isFirst = !hasRead
    hasRead = true
    guard reading.isRolling else {
      defer { anchor = nil }
      // A transport that stands still at first holds the metronome until it rolls.
      return anchor == nil && !isFirst ? nil : .some(nil)
    }
    let place = nextBeat(of: reading, tempo: tempo, meter: meter)
    let spacing = BeatGrid(
      anchorFrame: 0, tempo: place.tempo, denominator: place.meter.denominator, sampleRate: sampleRate)
    let frame = cycleStart + Int64((place.beatsAhead * spacing.framesPerBeat).rounded())
    // The metronome plays the master's tempo and meter: a key that changed them is undone.
    if let anchor, tempo == place.tempo, meter == place.meter {
      switch foresight(of: frame, bar: place.bar, beatInBar: place.beatInBar, within: place.tolerance, from: anchor) {
      case .foreseen:
        wasNumberedOtherwise = false
        return nil
      case .numberedOtherwise where !wasNumberedOtherwise:
        wasNumberedOtherwise = true
        return nil
      case .numberedOtherwise, .elsewhere: break
      }
    }
    wasNumberedOtherwise = false
    lastID += 1
    let next = TransportAnchor(
      id: lastID, source: source, frame: frame, bar: place.bar, beatInBar: place.beatInBar, tempo: place.tempo,
      meter: place.meter)
    anchor = next
    return .some(next)
  }

  /// The transport's next beat: how many beats from the reading's frame (under one), its bar
  /// and beat, the tempo and meter it plays at, and how far off it may be in frames.
  private func nextBeat(of reading: TransportReading, tempo: Tempo, meter: Meter)
    -> (beatsAhead: Double, bar: Int, beatInBar: Int, tempo: Tempo, meter: Meter, tolerance: Int64)
  {
    if let position = reading.barBeat {
      // JACK counts beats of the meter's note value; the metronome, quarter notes.
      let quarters = position.beatsPerMinute * 4 / Double(position.meter.denominator)
      // A tick is coarse (a 1920th of a beat, 12.5 frames at 120): a master whose beats run from
      // its frame 0 at its tempo places them exactly, where that agrees with the tick.
      let framesPerBeat = 60 / position.beatsPerMinute * Double(sampleRate.hz)
      let fromFrame = (Double(reading.frame) / framesPerBeat).truncatingRemainder(dividingBy: 1)
      let fraction = abs(fromFrame - position.fraction) <= position.resolution ? fromFrame : position.fraction
      let beatsAhead = fraction > 0 ? 1 - fraction : 0
      var bar = position.bar
      var beat = position.beat + (fraction > 0 ? 1 : 0)
      if beat > position.meter.numerator {
        beat = 1
        bar += 1
      }
      let beatTempo = Tempo(clamping: quarters) ?? tempo
      // The master says where a beat is to within one of its ticks.
      let spacing = BeatGrid(
        anchorFrame: 0, tempo: beatTempo, denominator: position.meter.denominator, sampleRate: sampleRate)
      let tolerance = Int64((position.resolution * spacing.framesPerBeat).rounded(.up)) + 1
      return (beatsAhead, bar, beat, beatTempo, position.meter, tolerance)
    }
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    let beats = Double(reading.frame) / spacing.framesPerBeat
    let next = beats.rounded(.up)
    let index = Int(next)
    return (next - beats, index / meter.numerator + 1, index % meter.numerator + 1, tempo, meter, 1)
  }

  /// How a beat at `frame`, `bar` and `beatInBar` stands to `anchor`'s grid.
  private enum Foresight {
    /// The grid plays it, within the tolerance, numbered alike.
    case foreseen
    /// The grid plays it in time, numbered otherwise.
    case numberedOtherwise
    /// The grid plays no beat there.
    case elsewhere
  }

  private func foresight(
    of frame: Int64, bar: Int, beatInBar: Int, within tolerance: Int64, from anchor: TransportAnchor
  )
    -> Foresight
  {
    let meter = anchor.meter
    let grid = BeatGrid(
      anchorFrame: anchor.frame, tempo: anchor.tempo, denominator: meter.denominator, sampleRate: sampleRate)
    let beats = Int((Double(frame - anchor.frame) / grid.framesPerBeat).rounded())
    guard abs(grid.frame(ofBeat: beats) - frame) <= tolerance else { return .elsewhere }
    let place = (anchor.bar - 1) * meter.numerator + anchor.beatInBar - 1 + beats
    return place == (bar - 1) * meter.numerator + beatInBar - 1 ? .foreseen : .numberedOtherwise
  }
}

extension TransportReading {
  /// How finely a clock that counts quarter notes is taken, as a transport's ticks are: a beat's
  /// 1920th, so that the few microseconds its time wavers never move the grid.
  static let quarterResolution = 1.0 / 1_920

  /// A clock that counts quarter notes (a Link session, MIDI clock), read as a transport: at
  /// `quarters` from its beat 0 at `tempo` quarters a minute, in `meter`, bars counted from that
  /// beat 0, its frame where its beats would fall from frame 0.
  init(quarters: Double, tempo: Double, isRolling: Bool, meter: Meter, sampleRate: SampleRate) {
    let quantum = meter.quartersPerBar
    let beatLength = meter.quartersPerBeat
    let bars = (quarters / quantum).rounded(.down)
    // Clamped before it is converted: far from beat 0, rounding may leave it anywhere.
    let intoBar = min(max((quarters - bars * quantum) / beatLength, 0), Double(meter.numerator) - 0x1p-20)
    let beat = Int(intoBar)
    // Clamped, so that no clock's count, however far it has run, traps the conversion.
    let frames = min(max(quarters * 60 / tempo * Double(sampleRate.hz), -1e15), 1e15)
    self.init(
      isRolling: isRolling, frame: Int64(frames.rounded()),
      barBeat: BarBeat(
        bar: Int(min(max(bars, -1e15), 1e15)) + 1, beat: beat + 1, fraction: intoBar - Double(beat),
        resolution: Self.quarterResolution, beatsPerMinute: tempo / beatLength, meter: meter))
  }
}
