import AudioListening
import MetronomeCore
import MetronomeTesting
import Testing

/// The room canceller (`EchoPathCanceller`) in simulated rooms (`RoomTake`): shoebox rooms from a
/// practice booth to a hall, reverberation times from 0.2 to 0.8 s, the microphone 0.3 to 3 m
/// from the speaker, the click heard from 30 dB below the drums to as loud as them, with no
/// calibration (the round trip given is 0, as JACK reports where the devices add nothing).
@Suite struct RoomEchoTests {
  /// A room of the corpus: its size, reverberation time, where the speaker and the microphone are,
  /// how loud the click's direct sound is (dBFS; the drums peak near 0), clicks a beat and seed.
  struct Room: CustomTestStringConvertible, Sendable {
    let name: String
    let room: SimulatedRoom
    let clickLevel: Double
    var seed: UInt64 = 1
    var testDescription: String { name }
  }

  static let corpus: [Room] = [
    Room(
      name: "booth, 0.3 m, -30 dB",
      room: SimulatedRoom(size: (3, 2.5, 2.4), reverberation: 0.2, speaker: (1, 1, 1.2), microphone: (1.3, 1, 1.2)),
      clickLevel: -30),
    Room(
      name: "bedroom, 1 m, -20 dB",
      room: SimulatedRoom(size: (4, 3.5, 2.5), reverberation: 0.4, speaker: (1, 1, 1), microphone: (1.8, 1.6, 1)),
      clickLevel: -20, seed: 2),
    Room(
      name: "rehearsal room, 2 m, -12 dB",
      room: SimulatedRoom(size: (6, 5, 3), reverberation: 0.6, speaker: (1, 1, 1.5), microphone: (3, 1.4, 1.2)),
      clickLevel: -12, seed: 3),
    Room(
      name: "hall, 3 m, -6 dB",
      room: SimulatedRoom(size: (10, 8, 4), reverberation: 0.8, speaker: (2, 2, 1.5), microphone: (4.8, 3, 1.2)),
      clickLevel: -6, seed: 4),
    Room(
      name: "living room, 1.5 m, as loud as the drums",
      room: SimulatedRoom(size: (5, 4, 2.7), reverberation: 0.5, speaker: (0.5, 2, 1), microphone: (2, 2.2, 1.2)),
      clickLevel: 0, seed: 5),
  ]

  /// Every stroke from the count-in on is found, within a millisecond of where its sound starts,
  /// no click is taken for one, and each is placed by the click's own round trip as heard: its
  /// offset from the click comes back within a millisecond.
  @Test(arguments: corpus)
  func everyStrokeIsFoundAndPlacedAndNoClickIsTakenForOne(room: Room) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let take = try RoomTake(room: room.room, clickLevel: room.clickLevel, seed: room.seed)
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate)
    let heard = listener.attacks(in: take.input, playing: take.output)
    let found = heard.map { Int($0.0.frame) }
    #expect(found.count == take.attacks.count, "found \(found) for \(take.attacks)")
    let errors = zip(found, take.attacks).map { $0 - $1 }
    #expect(errors.allSatisfy { abs($0) <= rate.hz / 1_000 }, "\(errors)")
    // Placed by the click as heard: the offset from the click comes back.
    #expect(heard.allSatisfy { $0.1.heard }, "\(heard.map(\.1))")
    let offsets = zip(heard, take.strokeClicks).map { heard, click in
      Int(heard.1.frame(ofAttackAt: heard.0.frame, offset: 0)) - click
    }
    let offsetErrors = zip(offsets, take.offsets).map { $0 - $1 }
    #expect(offsetErrors.allSatisfy { abs($0) <= rate.hz / 1_000 }, "\(offsetErrors)")
  }
}

extension RoomEchoTests {
  /// The attacks the room canceller finds in `input`, with `output` played, in cycles of `cycle`.
  private func heard(_ input: [Float], playing output: [Float], roundTrip: Int64 = 0, cycle: Int = 256) throws
    -> [(Attack, Placement)]
  {
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: roundTrip), sampleRate: try SampleRate(RoomTake.sampleRate))
    return listener.attacks(in: input, playing: output, cycle: cycle)
  }

  /// Whether each of `attacks` was found within a millisecond, and nothing else.
  private func foundExactly(_ attacks: [Int], in heard: [(Attack, Placement)]) -> Bool {
    heard.count == attacks.count && zip(heard, attacks).allSatisfy { abs(Int($0.0.frame) - $1) <= 44 }
  }

  /// Eighths through a cable (the click back 2,048 frames late at half its level), the accent
  /// first heard on the fifth beat, as the drummer starts (a microphone connected after the first
  /// bar, a count-in of a sound of its own): the accent's answer starts from the direct path the
  /// other clicks taught, not from the drums it is first heard under; every stroke is found.
  @Test func aClickSoundFirstHeardUnderTheDrumsStartsFromTheDirectPath() throws {
    let spacing = 26_460
    var output = [Float](repeating: 0, count: 25 * spacing)
    let rate = try SampleRate(RoomTake.sampleRate)
    for beat in 0..<24 {
      for half in 0..<2 where beat >= 1 || half == 1 {
        let sound =
          half == 1
          ? ClickSound.pulse.subdivisionSamples(sampleRate: rate, volume: 1)
          : ClickSound.pulse.samples(level: beat % 4 == 0 ? .strong : .normal, sampleRate: rate, volume: 1)
        for (index, sample) in sound.enumerated() { output[beat * spacing + half * spacing / 2 + index] = sample }
      }
    }
    var echo = [Float](repeating: 0, count: output.count)
    for index in 2_048..<output.count { echo[index] = 0.5 * output[index - 2_048] }
    let take = try DrumTake(clicks: 24, spacing: spacing, spread: 882, skipped: 4, seed: 26)
    let mixed = take.mixed(into: echo) { $0 * spacing + 2_048 }
    let found = try heard(mixed.samples, playing: output, roundTrip: 2_048, cycle: 1_024)
    #expect(foundExactly(mixed.attacks, in: found), "\(found.map(\.0.frame)) for \(mixed.attacks)")
    #expect(found.allSatisfy { $0.1 == Placement(roundTrip: 2_048, heard: true) })
  }

  /// A microphone unplugged halfway through a take of clicks alone: what it no longer hears is
  /// not taken out, so no click's negative is heard, and no click is taken for a hit before or after.
  @Test func aMicrophoneThatGoesSilentLeavesNoClickOfItsOwn() throws {
    let take = try RoomTake(room: Self.corpus[2].room, clickLevel: -12, skipped: 24, seed: 7)
    var input = take.input
    for index in (input.count / 2)..<input.count { input[index] = 0 }
    let found = try heard(input, playing: take.output)
    #expect(take.attacks.isEmpty && found.isEmpty, "found \(found.map(\.0.frame)) cut at \(input.count / 2)")
  }
}
