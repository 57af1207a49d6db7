import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting
import Testing

/// The room canceller (`EchoPathCanceller`) in simulated rooms (`RoomTake`): shoebox rooms from a
/// practice booth to a hall, reverberation times from 0.2 to 0.8 s, the microphone 0.3 to 3 m
/// from the speaker, the click heard from 30 dB below the drums to as loud as them, with no
/// calibration (the round trip given is 0, as JACK reports where the devices add nothing).
@Suite(.timeLimit(.minutes(5))) struct RoomEchoTests {
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

  /// Every stroke from the count-in on is found and placed within a millisecond, and no click is
  /// taken for one.
  ///
  /// Each is found within a millisecond of where its sound starts, and placed by the click's own
  /// round trip as heard: its offset from the click comes back within a millisecond. So too where
  /// the clicks reach the microphone 5 ms earlier or 50 to 135 ms later than the devices say (the
  /// round trip given is that much long or short): the echo is learned where it is heard, its
  /// whole tail.
  @Test(arguments: corpus, [-5, 0, 50, 100, 135])
  func everyStrokeIsFoundAndPlacedAndNoClickIsTakenForOne(room: Room, millisecondsLate: Int) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let take = try RoomTake(room: room.room, clickLevel: room.clickLevel, seed: room.seed)
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: -Int64(millisecondsLate * rate.hz / 1_000)), sampleRate: rate)
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

  /// Eighths at 100 BPM over `beats` beats, an accent every fourth, as played at the kit's rate,
  /// from beat 0's eighth on where `fromEighth`, else from beat 0.
  private func eighths(beats: Int = 24, fromEighth: Bool = false) throws -> [Float] {
    let spacing = Self.beatFrames
    var output = [Float](repeating: 0, count: (beats + 1) * spacing)
    let rate = try SampleRate(RoomTake.sampleRate)
    for beat in 0..<beats {
      for half in 0..<2 where beat >= 1 || half == 1 || !fromEighth {
        let sound =
          half == 1
          ? ClickSound.pulse.subdivisionSamples(sampleRate: rate, volume: 1)
          : ClickSound.pulse.samples(level: beat % 4 == 0 ? .strong : .normal, sampleRate: rate, volume: 1)
        for (index, sample) in sound.enumerated() { output[beat * spacing + half * spacing / 2 + index] = sample }
      }
    }
    return output
  }

  /// 100 BPM at the kit's rate.
  private static let beatFrames = 26_460

  /// `output` as a cable brings it back, `roundTrip` frames late at `gain`, with a kit played
  /// over it from the fifth beat (`DrumTake`, seeded): what the input hears, the clicks' part of
  /// it, and where each stroke's sound starts.
  private func throughACable(_ output: [Float], roundTrip: Int = 2_048, gain: Float = 0.5, seed: UInt64 = 26)
    throws -> (input: [Float], echo: [Float], attacks: [Int])
  {
    var echo = [Float](repeating: 0, count: output.count)
    for index in roundTrip..<output.count { echo[index] = gain * output[index - roundTrip] }
    let take = try DrumTake(clicks: 24, spacing: Self.beatFrames, spread: 882, skipped: 4, seed: seed)
    let mixed = take.mixed(into: echo) { $0 * Self.beatFrames + roundTrip }
    return (mixed.samples, echo, mixed.attacks)
  }

  /// Eighths in a loud, lively room: no stroke missed, at most one click taken for one.
  ///
  /// The rooms benchmark's twelfth take (2.8 × 3.2 × 3.9 m, RT60 0.6 s, the microphone 0.7 m
  /// away, the click 10 dB under the drums): each click still rings under the next, and what is
  /// heard is shared among them by how fast the room's answer dies away, learned from the first
  /// click heard (with a cable's decay, a stroke is missed and three clicks are taken).
  @Test func eighthsInALivelyRoomAreSharedByTheRoomsOwnDecay() throws {
    let corpus = SeededRooms.benchmarkCorpus(count: 12)[11]
    let take = try RoomTake(
      room: corpus.room, clickLevel: corpus.clickLevel, subdivisions: corpus.subdivisions, seed: corpus.seed)
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: 0), sampleRate: try SampleRate(RoomTake.sampleRate))
    let heard = HeardTake(take, heard: listener.attacks(in: take.input, playing: take.output))
    #expect(
      heard.strokes.allSatisfy { $0 != nil }, "missed \(heard.strokes.indices.filter { heard.strokes[$0] == nil })")
    #expect(heard.strays.count <= 1, "clicks taken for strokes at \(heard.strays)")
  }

  /// Eighths through a cable, the accent first heard on the fifth beat, as the drummer starts (a
  /// microphone connected after the first bar, a count-in of a sound of its own): the accent's
  /// answer starts from the direct path the other clicks taught, not from the drums it is first
  /// heard under; every stroke is found.
  @Test func aClickSoundFirstHeardUnderTheDrumsStartsFromTheDirectPath() throws {
    let output = try eighths(fromEighth: true)
    let take = try throughACable(output)
    let found = try heard(take.input, playing: output, roundTrip: 2_048, cycle: 1_024)
    #expect(foundExactly(take.attacks, in: found), "\(found.map(\.0.frame)) for \(take.attacks)")
    #expect(found.allSatisfy { $0.1 == Placement(roundTrip: 2_048, heard: true) })
  }

  /// A speaker connected after the first eighth played: each sound is learned from the first of
  /// its clicks heard whole, and no click after is taken for a hit.
  ///
  /// The input is silent before (a port that only then delivers; connected as the first beat
  /// plays, which is heard in part) or hisses at -70 dB (a microphone; connected before the first
  /// beat). The eighth is learned from its second click, and the eighth after each accent is not
  /// taken for a hit either.
  @Test(arguments: [(0, Self.beatFrames + 2_048 + 40), (0.000_3, Self.beatFrames - 4_000)] as [(Float, Int)])
  func aSpeakerConnectedAfterTheFirstClicksIsLearnedFromTheFirstItPlays(hiss: Float, connected: Int) throws {
    let output = try eighths(fromEighth: true)
    var take = try throughACable(output)
    var random = SeededGenerator(seed: 3)
    for index in 0..<connected { take.input[index] = 0 }
    for index in take.input.indices { take.input[index] += hiss * Float.random(in: -1...1, using: &random) }
    let found = try heard(take.input, playing: output, roundTrip: 2_048, cycle: 1_024)
    #expect(foundExactly(take.attacks, in: found), "\(found.map(\.0.frame)) for \(take.attacks)")
    #expect(found.allSatisfy { $0.1 == Placement(roundTrip: 2_048, heard: true) })
  }

  /// A microphone behind headphones, silent until the drummer starts after a bar: nothing is
  /// taken out, every stroke is found from the first, each placed by the round trip given.
  @Test func throughHeadphonesEveryStrokeIsFoundFromTheFirst() throws {
    let output = try eighths()
    let take = try throughACable(output, roundTrip: 300, gain: 0)
    let found = try heard(take.input, playing: output, roundTrip: 300, cycle: 1_024)
    #expect(foundExactly(take.attacks, in: found), "\(found.map(\.0.frame)) for \(take.attacks)")
    #expect(found.allSatisfy { $0.1 == Placement(roundTrip: 300, heard: false) })
  }

  /// A microphone cut at full scale, the clicks coming back at four times it (a gain turned up
  /// far too far): each time is counted, a tenth of a second or more apart, and no click is taken for a
  /// stroke, though strokes under a cut click are lost with it.
  @Test func aMicrophoneCutAtFullScaleIsCountedAndNoClickIsTakenForAStroke() throws {
    let output = try eighths()
    var take = try throughACable(output, gain: 4)
    take.input = take.input.map { min(max($0, -1), 1) }
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: 2_048), sampleRate: try SampleRate(RoomTake.sampleRate))
    var told = 0
    var found: [Int] = []
    take.input.withUnsafeBufferPointer { input in
      output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: input.count, by: 1_024) {
          let end = min(start + 1_024, input.count)
          listener.listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start),
            noticed: { if $0 == .clipped { told += 1 } }
          ) { attack, _ in found.append(Int(attack.frame)) }
        }
      }
    }
    #expect(listener.clips > 20 && told == listener.clips, "\(listener.clips) clips, \(told) told")
    let strayed = found.filter { frame in !take.attacks.contains { abs($0 - frame) <= 1_100 } }
    #expect(strayed.isEmpty && found.count > take.attacks.count / 2, "\(strayed) of \(found.count)")
  }

  /// What is cut at full scale: an input held there a frame, or beyond it, twice within a tenth
  /// of a second counted once; not a click's own peak at full scale through a perfect loop, nor a
  /// float beyond it once (nothing cut it).
  @Test func anInputIsCutWhereHeldAtFullScale() {
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: .standard)
    let heard: [[Float]] = [
      [0.2, 1, 0.97, -1, -0.9], [0.9995, 0.9995, 0.5, -1, -1], [0, 1.2, 0.9], [-0.9999, -0.9999], [1.5, 1.5],
    ]
    var told: [Int] = []
    for (index, samples) in heard.enumerated() {
      // Each a second apart: a clip counts again.
      var input = [Float](repeating: 0, count: 48_000)
      input.replaceSubrange(0..<samples.count, with: samples)
      input.withUnsafeBufferPointer { input in
        listener.listen(
          input: input, output: UnsafeBufferPointer(start: nil, count: 0), from: Int64(index) * 48_000,
          noticed: { if $0 == .clipped { told.append(index) } }
        ) { _, _ in }
      }
    }
    #expect(told == [1, 3, 4] && listener.clips == 3)
  }

  /// Clicks as loud as the drums through a loop (a desktop's microphone that hears the speaker),
  /// the drums ringing under most of them: what the echo leaves, at each click from the third bar
  /// on, stays 50 dB under the click, since only stretches the learned echo explains as well as
  /// it usually does teach it, not those a drum rings under.
  @Test(arguments: [26, 27] as [UInt64])
  func aDrumRingingUnderTheClicksIsNotLearnedAsTheirEcho(seed: UInt64) throws {
    let output = try eighths()
    let take = try throughACable(output, roundTrip: 1_024, gain: 1, seed: seed)
    let canceller = EchoPathCanceller(roundTrip: 1_024)
    var left = [Float](repeating: 0, count: take.input.count)
    for start in stride(from: 0, to: take.input.count - 1_023, by: 1_024) {
      output[start..<start + 1_024].withUnsafeBufferPointer { canceller.played($0, from: Int64(start)) }
      take.input[start..<start + 1_024].withUnsafeBufferPointer {
        canceller.cancel($0, from: Int64(start)) { cancelled, _, first in
          for (index, sample) in cancelled.enumerated() {
            let frame = Int(first) + index
            left[frame] = sample - (take.input[frame] - take.echo[frame])
          }
        }
      }
    }
    let worst = stride(from: 8 * Self.beatFrames, to: 24 * Self.beatFrames, by: Self.beatFrames / 2).map { click in
      let echo = take.echo[click..<click + 4_096].map(abs).max() ?? 0
      let error = left[click..<click + 4_096].map(abs).max() ?? 0
      return 20 * log10(Double(max(error, 1e-9) / max(echo, 1e-9)))
    }
    #expect(worst.allSatisfy { $0 < -50 }, "\(worst.map { Int($0.rounded()) }) dB")
  }

  /// A stroke played exactly on clicks heard in a room, its peak as loud as theirs (double talk):
  /// each is found within a millisecond of where its sound starts and placed on its click.
  @Test func aStrokeExactlyOnTheClickAtTheClicksOwnLevelIsFoundAndPlaced() throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let corpus = Self.corpus[2]
    let take = try RoomTake(room: corpus.room, clickLevel: corpus.clickLevel, skipped: 24, seed: corpus.seed)
    let snare = try WAVFile(contentsOf: DrumTake.kitFolder.appendingPathComponent("Snare-Med.wav")).samples
    let snarePeak = snare.map(abs).max() ?? 1
    let start = snare.firstIndex { abs($0) >= snarePeak / 100 } ?? 0
    var input = take.input
    var attacks: [Int] = []
    for beat in [6, 9, 13, 16, 21] {
      let heard = take.clicks[beat] + take.direct
      let echoPeak = take.echo[heard..<heard + 2_048].map(abs).max() ?? 0
      for (index, sample) in snare.enumerated() where heard - start + index < input.count {
        input[heard - start + index] += sample * echoPeak / snarePeak
      }
      attacks.append(heard)
    }
    let found = try heard(input, playing: take.output)
    #expect(foundExactly(attacks, in: found), "\(found.map(\.0.frame)) for \(attacks)")
    let offsets = found.map { $0.1.frame(ofAttackAt: $0.0.frame, offset: 0) }
    #expect(zip(offsets, [6, 9, 13, 16, 21]).allSatisfy { abs(Int($0) - take.clicks[$1]) <= rate.hz / 1_000 })
  }

  /// A microphone unplugged halfway through a take of clicks alone: what it no longer hears is
  /// not taken out, so no click's negative is heard, and no click is taken for a hit before or
  /// after; the listener says once that it stopped hearing the click.
  @Test func aMicrophoneThatGoesSilentLeavesNoClickOfItsOwn() throws {
    let take = try RoomTake(room: Self.corpus[2].room, clickLevel: -12, skipped: 24, seed: 7)
    var input = take.input
    for index in (input.count / 2)..<input.count { input[index] = 0 }
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: try SampleRate(44_100))
    var found: [Int64] = []
    var notices: [InputNotice] = []
    input.withUnsafeBufferPointer { input in
      take.output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: input.count, by: 256) {
          let end = min(start + 256, input.count)
          listener.listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start),
            noticed: { notices.append($0) }
          ) { attack, _ in found.append(attack.frame) }
        }
      }
    }
    #expect(take.attacks.isEmpty && found.isEmpty, "found \(found) cut at \(input.count / 2)")
    // A second of clicks predicted and none heard, once.
    #expect(notices == [.wentSilent])
  }
}
