/// The player's own tempo: one constant stretch at a time, whose beat `n` sits at
/// `anchor + round(n × framesPerBeat)`; a change of tempo or meter starts a new stretch from the
/// last beat, keeping the phase and the place in the bar.
///
/// klick's speed trainer ramps it: from its start (or the player's tempo), each beat after the
/// first moves the tempo on for the beat after it, as a new stretch from that beat. A tempo the
/// player chooses while it ramps is where it ramps on from; turned off, it stays where it got to.
public struct SteadyTempo: TempoSource {
  private var grid: BeatGrid
  private var index = 0
  private var meter: Meter
  /// The place in the bar of the first beat: 1, unless an outside clock said otherwise.
  private let firstBeatInBar: Int
  /// The tempo the player chose last, which the trainer may ramp away from.
  private var chosen: Tempo
  private var trainer: SpeedTrainer
  /// Whether the first beat has been placed: the trainer moves the tempo from the second.
  private var hasPlacedABeat = false

  /// Beat one on `startFrame` at `tempo` in `meter` (or at the trainer's start, if it has one);
  /// the first beat at `firstBeatInBar`.
  public init(
    startFrame: Int64, tempo: Tempo, meter: Meter, firstBeatInBar: Int = 1, trainer: SpeedTrainer = .off,
    sampleRate: SampleRate
  ) {
    grid = BeatGrid(
      anchorFrame: startFrame, tempo: Self.startingTempo(chosen: tempo, trainer: trainer),
      denominator: meter.denominator, sampleRate: sampleRate)
    self.meter = meter
    self.firstBeatInBar = firstBeatInBar
    chosen = tempo
    self.trainer = trainer
  }

  /// The tempo it starts at when the player chose `chosen`: the trainer's start, if it has one.
  public static func startingTempo(chosen: Tempo, trainer: SpeedTrainer) -> Tempo {
    Tempo(clamping: trainer.startingTempo(chosen: chosen.bpm)) ?? chosen
  }

  /// The frame of the next beat.
  public var nextBeatFrame: Int64? { grid.frame(ofBeat: index) }

  /// The frame of beat `n` of the stretch playing.
  public func frame(ofBeat n: Int) -> Int64 { grid.frame(ofBeat: n) }

  /// The next beat: the one after `last` in the bar (the first after a count-in), at the
  /// rhythm's level.
  public mutating func nextBeat(after last: Beat?, rhythm: Rhythm) -> SourcedBeat {
    let beatInBar: Int
    if let last, !last.isCountIn {
      let following = last.beatInBar + 1
      beatInBar = following > meter.numerator ? 1 : following
    } else {
      beatInBar = firstBeatInBar
    }
    let beat = SourcedBeat(
      frame: grid.frame(ofBeat: index), meter: meter, beatInBar: beatInBar, tempo: grid.tempo,
      length: grid.framesPerBeat, barLength: grid.framesPerBeat * Double(meter.numerator),
      level: rhythm.level(ofBeat: beatInBar, in: meter), subdivision: rhythm.subdivision)
    index += 1
    if hasPlacedABeat { ramp(from: beat.frame) }
    hasPlacedABeat = true
    return beat
  }

  /// Moves the tempo on as the trainer asks, from the beat on `frame`.
  private mutating func ramp(from frame: Int64) {
    guard trainer.isOn else { return }
    let ramped = trainer.tempo(after: grid.tempo.bpm, beats: meter.numerator, chosen: chosen.bpm)
    guard let tempo = Tempo(clamping: ramped), tempo != grid.tempo else { return }
    grid = BeatGrid(anchorFrame: frame, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    index = 1
  }

  /// Plays on at `tempo` in `meter` from the next beat, ramped by the programme's trainer; while
  /// the player's tempo stays what it was, the tempo the trainer ramped to plays on.
  ///
  /// That beat follows the last one played by the new interval, but never falls before
  /// `earliestFrame` (the first frame not yet rendered), so speeding up late in a long beat plays
  /// the next one at once instead of skipping it.
  public mutating func change(
    tempo chosenTempo: Tempo, meter: Meter, programme: Programme, earliestFrame: Int64, lastBeatFrame: Int64?
  ) -> Bool {
    let numeratorChanged = meter.numerator != self.meter.numerator
    self.meter = meter
    trainer = programme.speedTrainer
    let tempo = chosenTempo == chosen ? grid.tempo : chosenTempo
    chosen = chosenTempo
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
    guard !spacing.hasSameSpacing(as: grid) else { return numeratorChanged }
    let regrid = BeatGrid(
      anchorFrame: lastBeatFrame ?? grid.anchorFrame, tempo: tempo, denominator: meter.denominator,
      sampleRate: grid.sampleRate)
    let firstIndex = lastBeatFrame == nil ? 0 : 1
    if regrid.frame(ofBeat: firstIndex) >= earliestFrame {
      grid = regrid
      index = firstIndex
    } else {
      grid = BeatGrid(
        anchorFrame: earliestFrame, tempo: tempo, denominator: meter.denominator, sampleRate: grid.sampleRate)
      index = 0
    }
    return true
  }
}
