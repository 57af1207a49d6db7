import Foundation
import MetronomeCore

/// A drummer's take (`DrumTake`) heard by a microphone in a room (`SimulatedRoom`, or a response
/// made elsewhere): the clicks reach it through the room, the drums directly, and the truth of
/// where each stroke's sound starts and which click it was played against.
public struct RoomTake: Sendable {
  /// The kit's rate, at which the take is built.
  public static let sampleRate = DrumTake.sampleRate

  /// What the metronome played.
  public let output: [Float]
  /// What the microphone heard.
  public let input: [Float]
  /// The clicks' echo alone, as the microphone heard it.
  public let echo: [Float]
  /// The frame each stroke's sound starts on, in the order played.
  public let attacks: [Int]
  /// The offset each stroke was played at, in frames from its click as heard.
  public let offsets: [Int]
  /// The output's frame of the click each stroke was played against.
  public let strokeClicks: [Int]
  /// The frame each click starts on in the output.
  public let clicks: [Int]
  /// What else the microphone heard from the drums' first beat on (music in the room, a loop
  /// played instead of the drummer), as it heard it.
  public let alongside: [Float]
  /// Frames from the speaker to the microphone along the direct path (before any change).
  public let direct: Int
  /// The input's frame from which the room heard is the change's, if any.
  public let changedAt: Int?

  /// The room heard from a beat on, mid-take: a microphone or a speaker moved, or the click turned
  /// up or down.
  public struct Change: Sendable {
    /// The beat from which the click is heard through the new room: the change comes a quarter
    /// of a beat before it, or before its `click`.
    public let beat: Int
    /// The click of `beat` (0 for the beat's own, 1 for the next of its subdivisions…) before which
    /// the change comes, half a click's spacing before it where clicks come closer than half a
    /// beat: a speaker turned up before an offbeat.
    public let click: Int
    /// The room from then on.
    public let room: any RoomResponse
    /// The click's direct level from then on, in dBFS.
    public let clickLevel: Double

    /// A change as given.
    public init(beat: Int, click: Int = 0, room: any RoomResponse, clickLevel: Double) {
      self.beat = beat
      self.click = click
      self.room = room
      self.clickLevel = clickLevel
    }
  }

  /// A take of `beats` beats `spacing` frames apart, heard in `room`.
  ///
  /// Each beat at its level in `levels`, bar after bar (an accent and three normal beats unless
  /// given: a weak beat is the normal click at half its level), `subdivisions` clicks a beat, the
  /// first `countIn` beats a count-in's clicks (a sound of their own, undivided; or where
  /// `countInApart` is false, as a run listening to a microphone plays them, the bars' own,
  /// divided); the direct click `clickLevel` dB below full scale; the drums (`DrumTake` with
  /// `seed`, from beat `skipped` on, resting in `rests`, with flams) played against the click as
  /// heard; from `change`'s beat on, heard through its room; `alongside` heard over and over from
  /// beat `skipped` on, at its level (no drummer where `drummer` is false: a recorded loop in
  /// place of the take).
  public init(
    room: any RoomResponse, clickLevel: Double, beats: Int = 24, spacing: Int = 22_050, subdivisions: Int = 1,
    levels: [AccentLevel] = [.strong, .normal, .normal, .normal], skipped: Int = 4, rests: [Range<Int>] = [],
    countIn: Int = 0, countInApart: Bool = true, change: Change? = nil, alongside: [Float] = [], drummer: Bool = true,
    seed: UInt64
  ) throws {
    let rate = try SampleRate(Self.sampleRate)
    let lead = spacing / 2
    let length = (beats + 1) * spacing
    var output = [Float](repeating: 0, count: length)
    var clicks: [Int] = []
    for beat in 0..<beats {
      // A count-in as a listening run plays it states the beat alone first, as the sequencer does.
      let statesTheBeat =
        beat < countIn && (countInApart || BeatSequencer.statesTheBeatAlone(countInBeat: beat, of: countIn))
      for sub in 0..<(statesTheBeat ? 1 : subdivisions) {
        let frame = lead + beat * spacing + sub * spacing / subdivisions
        let level: AccentLevel = sub > 0 ? .weak : levels[beat % levels.count]
        let sound =
          beat < countIn && countInApart
          ? ClickSound.pulse.countInSamples(sampleRate: rate, volume: 1)
          : sub > 0
            ? ClickSound.pulse.subdivisionSamples(sampleRate: rate, volume: 1)
            : ClickSound.pulse.samples(level: level, sampleRate: rate, volume: 1)
        for (index, sample) in sound.enumerated() where frame + index < length { output[frame + index] = sample }
        clicks.append(frame)
      }
    }
    func heard(in room: any RoomResponse, at level: Double) -> [Float] {
      SimulatedRoom.heard(
        output, through: room.impulseResponse(rate: rate.hz, seconds: 0.35, directGain: Float(pow(10, level / 20))))
    }
    var echo = heard(in: room, at: clickLevel)
    let direct = room.directFrames(at: rate.hz)
    // The sound in the air as the microphone moves is heard where it is then: the room before,
    // faded over 20 ms into the room after.
    let clickSpacing = spacing / subdivisions
    let changedAt = change.map {
      lead + $0.beat * spacing + $0.click * clickSpacing - min(spacing / 4, clickSpacing / 2)
    }
    if let change, let changedAt {
      let after = heard(in: change.room, at: change.clickLevel)
      let fade = rate.hz / 50
      for index in changedAt..<length {
        let share = Float(min(index - changedAt, fade)) / Float(fade)
        echo[index] = (1 - share) * echo[index] + share * after[index]
      }
    }
    let changedDirect = change?.room.directFrames(at: rate.hz) ?? direct
    func heardFrame(ofClick click: Int) -> Int {
      lead + click * spacing
        + (change.map { click >= $0.beat + ($0.click > 0 ? 1 : 0) } == true ? changedDirect : direct)
    }
    let take = try DrumTake(
      clicks: beats, spacing: spacing, spread: 441, skipped: drummer ? skipped : beats, rests: rests, flams: true,
      seed: seed)
    var heardAlongside = [Float](repeating: 0, count: length)
    if !alongside.isEmpty {
      for index in (lead + skipped * spacing)..<length {
        heardAlongside[index] = alongside[(index - lead - skipped * spacing) % alongside.count]
      }
    }
    let mixed = take.mixed(into: zip(echo, heardAlongside).map(+), clickFrame: heardFrame)
    self.output = output
    self.input = mixed.samples
    self.echo = echo
    self.attacks = mixed.attacks
    self.offsets = zip(take.strokes, mixed.attacks).map { stroke, attack in attack - heardFrame(ofClick: stroke.click) }
    self.strokeClicks = take.strokes.map { lead + $0.click * spacing }
    self.clicks = clicks
    self.alongside = heardAlongside
    self.direct = direct
    self.changedAt = changedAt
  }
}
