import Foundation
import MetronomeCore

/// A drummer's take (`DrumTake`) heard by a microphone in a simulated room (`SimulatedRoom`):
/// the clicks reach it through the room, the drums directly, and the truth of where each
/// stroke's sound starts and which click it was played against.
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
  /// Frames from the speaker to the microphone along the direct path.
  public let direct: Int

  /// A take of `beats` beats `spacing` frames apart, heard in `room`.
  ///
  /// An accent every fourth beat, `subdivisions` clicks a beat, the direct click `clickLevel` dB
  /// below full scale; the drums (`DrumTake` with `seed`, from beat `skipped` on) played against
  /// the click as heard.
  public init(
    room: SimulatedRoom, clickLevel: Double, beats: Int = 24, spacing: Int = 22_050, subdivisions: Int = 1,
    skipped: Int = 4, seed: UInt64
  ) throws {
    let rate = try SampleRate(Self.sampleRate)
    let lead = spacing / 2
    let length = (beats + 1) * spacing
    var output = [Float](repeating: 0, count: length)
    var clicks: [Int] = []
    for beat in 0..<beats {
      for sub in 0..<subdivisions {
        let frame = lead + beat * spacing + sub * spacing / subdivisions
        let level: AccentLevel = sub > 0 ? .weak : beat % 4 == 0 ? .strong : .normal
        let sound =
          sub > 0
          ? ClickSound.pulse.subdivisionSamples(sampleRate: rate, volume: 1)
          : ClickSound.pulse.samples(level: level, sampleRate: rate, volume: 1)
        for (index, sample) in sound.enumerated() where frame + index < length { output[frame + index] = sample }
        clicks.append(frame)
      }
    }
    let gain = Float(pow(10, clickLevel / 20))
    let echo = SimulatedRoom.heard(
      output, through: room.impulseResponse(rate: rate.hz, seconds: 0.35, directGain: gain))
    let direct = room.directFrames(at: rate.hz)
    let take = try DrumTake(clicks: beats, spacing: spacing, spread: 441, skipped: skipped, seed: seed)
    let mixed = take.mixed(into: echo) { lead + $0 * spacing + direct }
    self.output = output
    self.input = mixed.samples
    self.echo = echo
    self.attacks = mixed.attacks
    self.offsets = zip(take.strokes, mixed.attacks).map { stroke, attack in
      attack - (lead + stroke.click * spacing + direct)
    }
    self.strokeClicks = take.strokes.map { lead + $0.click * spacing }
    self.clicks = clicks
    self.direct = direct
  }
}
