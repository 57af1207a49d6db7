import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting
import Testing

/// The room canceller (`EchoPathCanceller`) following the path as it changes mid-take: a volume
/// turned while the drummer plays on, a microphone moved while the drummer rests or plays on, a
/// count-in's sound of its own; no calibration anywhere (the round trip given is 0).
@Suite(.timeLimit(.minutes(5))) struct PathChangeTests {
  /// The corpus's rehearsal room, and its microphone a metre farther from the speaker.
  static let room = RoomEchoTests.corpus[2].room
  static let farther = SimulatedRoom(
    size: room.size, reverberation: room.reverberation, speaker: room.speaker, microphone: (4, 1.8, 1.2))
  /// The beat the path changes on, and the input's frame of the fourth click from it on: the
  /// click's frame less a quarter beat, so that strokes played early on it count.
  static let changeBeat = 14
  static func frame(ofBeat beat: Int) -> Int { 11_025 + beat * 22_050 - 22_050 / 4 }

  /// What a listener with the room canceller hears of `take` (in cycles of 256 frames), what it
  /// said of the input, and the canceller.
  private func listen(to take: RoomTake, through last: Int? = nil, roundTrip: Int64 = 0) throws -> (
    HeardTake, [InputNotice], EchoPathCanceller
  ) {
    let canceller = EchoPathCanceller(roundTrip: roundTrip)
    let listener = AudioHitListener(canceller: canceller, sampleRate: try SampleRate(RoomTake.sampleRate))
    var heard: [(Attack, Placement)] = []
    var notices: [InputNotice] = []
    let frames = min(last ?? take.input.count, take.input.count)
    take.input.withUnsafeBufferPointer { input in
      take.output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: frames, by: 256) {
          let end = min(start + 256, input.count)
          listener.listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start),
            noticed: { notices.append($0) }
          ) { heard.append(($0, $1)) }
        }
      }
    }
    return (HeardTake(take, heard: heard), notices, canceller)
  }

  /// A volume turned while the drummer plays on (the click up 6 dB in the rehearsal room and
  /// 3 dB in the hall, down 6 dB where it was as loud as the drums): no click is taken for a
  /// stroke even as it changes; from the fourth click on every stroke is found and placed within
  /// a millisecond; the canceller scaled its answers once, by what the volume was turned, and
  /// the listener said so.
  @Test(arguments: [(2, -12, -6), (3, -6, -3), (4, 0, -6)] as [(Int, Double, Double)])
  func aVolumeTurnedWhileTheDrummerPlaysOnIsFollowed(room: Int, before: Double, after: Double) throws {
    let corpus = RoomEchoTests.corpus[room]
    let take = try RoomTake(
      room: corpus.room, clickLevel: before, beats: 32,
      change: .init(beat: Self.changeBeat, room: corpus.room, clickLevel: after), seed: corpus.seed)
    let (heard, notices, canceller) = try listen(to: take)
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(heard.wrong(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.wrong())")
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - (after - before)) < 0.3, "\(canceller.changes)")
    #expect(notices.count == 1 && notices.allSatisfy { if case .clickLevel = $0 { true } else { false } })
  }

  /// The same where the clicks reach the input 100 ms later than the devices say (the round trip
  /// given is that much short): the echo is learned where it is heard, and followed there.
  @Test func aVolumeTurnedIsFollowedWhereTheClicksComeBack100msLaterThanSaid() throws {
    let corpus = RoomEchoTests.corpus[2]
    let take = try RoomTake(
      room: corpus.room, clickLevel: -12, beats: 32,
      change: .init(beat: Self.changeBeat, room: corpus.room, clickLevel: -6), seed: corpus.seed)
    let (heard, notices, canceller) = try listen(to: take, roundTrip: -Int64(RoomTake.sampleRate / 10))
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(heard.wrong(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.wrong())")
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - 6) < 0.3, "\(canceller.changes)")
    #expect(notices.count == 1 && notices.allSatisfy { if case .clickLevel = $0 { true } else { false } })
  }

  /// A volume turned by half a decibel or more is followed (0.55 dB: once, by that much); by less,
  /// the answers are left as they were (0.45 dB: what a stroke on every click may lean them by).
  @Test(arguments: [(0.55, 1), (0.45, 0)] as [(Double, Int)])
  func aVolumeTurnedHalfADecibelOrMoreIsFollowed(turn: Double, followed: Int) throws {
    let corpus = RoomEchoTests.corpus[2]
    let take = try RoomTake(
      room: corpus.room, clickLevel: -12, beats: 32,
      change: .init(beat: Self.changeBeat, room: corpus.room, clickLevel: -12 + turn), seed: corpus.seed)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(canceller.changes.levels == followed, "\(canceller.changes)")
    if followed > 0 {
      #expect(abs(20 * log10(Double(canceller.changes.lastLevel)) - turn) < 0.1, "\(canceller.changes)")
    }
  }

  /// The same with two weak beats a bar after a normal one (the normal click at half its level,
  /// heard as the same sound at half its gain, so that three readings running hold two weak
  /// ones): each click's level is read against its own gain, and the turn is followed once, by
  /// what the volume was turned. (Read against the sound's first gain, the weak beats read 12 dB
  /// down: four changes said, strokes misplaced.)
  @Test func aVolumeTurnedOverWeakBeatsIsFollowedAsOverNormalOnes() throws {
    let corpus = RoomEchoTests.corpus[2]
    let take = try RoomTake(
      room: corpus.room, clickLevel: -12, beats: 32, levels: [.strong, .normal, .weak, .weak],
      change: .init(beat: Self.changeBeat, room: corpus.room, clickLevel: -6), seed: corpus.seed)
    let (heard, notices, canceller) = try listen(to: take)
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(heard.wrong(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.wrong())")
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - 6) < 0.3, "\(canceller.changes)")
    #expect(notices.count == 1)
  }

  /// A speaker's cable into the microphone (as the live tests' JACK drummer mixes the click in):
  /// the click heard once, at once, with no room.
  static let cable = ImpulseResponse(samples: [1] + [Float](repeating: 0, count: 63), rate: RoomTake.sampleRate)

  /// A volume turned up 6 dB while the drummer plays on over eighths at 100 BPM, before each beat
  /// of a bar (the accent's and the others'; every click under a stroke): through a cable (the
  /// click at -12 dB) and in the bedroom (at -20), no click after the change is taken for a stroke; from
  /// the third beat after it every stroke is found and placed within a millisecond; the answers
  /// were scaled once, by what the volume was turned. (Read click by click, the eighths after a
  /// beat hold the beat's echo, played before the turn and heard louder than predicted, and
  /// read up to twice the turn; a click heard alone and louder, learned in part as well as
  /// scaled, was scaled twice; and what the readings through the drums leave, 0.5 to 3 %, set
  /// off attacks on the clicks' sharp starts: MEASUREMENTS.md, "A volume turned in eighths".)
  @Test(arguments: [false, true], 12..<16)
  func aVolumeTurnedOverEighthsIsFollowedWhicheverBeatItComesBefore(inTheBedroom: Bool, beat: Int) throws {
    let room: any RoomResponse = inTheBedroom ? RoomEchoTests.corpus[1].room : Self.cable
    let level: Double = inTheBedroom ? -20 : -12
    let spacing = 26_460
    let take = try RoomTake(
      room: room, clickLevel: level, beats: 32, spacing: spacing, subdivisions: 2,
      change: .init(beat: beat, room: room, clickLevel: level + 6), seed: 7)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.strays(from: take.changedAt ?? 0).isEmpty, "clicks taken for strokes at \(heard.strays)")
    let third = spacing / 2 + (beat + 3) * spacing - spacing / 4
    #expect(heard.wrong(from: third).isEmpty, "\(heard.wrong(from: third))")
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - 6) < 0.3, "\(canceller.changes)")
  }

  /// The same through a cable, turned before an offbeat eighth, from the fourth click.
  ///
  /// The live test's drummer turns the click up where it connects, an eighth later or not. The
  /// drummers play on or just after most clicks; from the fourth click after the turn every stroke
  /// is found and placed within a millisecond and none is taken for a click. (Each reading was one
  /// fit over the whole click, which a stroke on the eighth leaned 6 % and one 106 frames into the
  /// next left unread: the fourth click was heard unscaled, and a stroke 129 frames after it
  /// placed on it. Now each is read chunk by chunk: `ChunkedFit`.)
  @Test(arguments: [7, 11] as [UInt64], 12..<14)
  func aVolumeTurnedBeforeAnOffbeatIsFollowedFromTheFourthClick(seed: UInt64, beat: Int) throws {
    let spacing = 26_460
    let take = try RoomTake(
      room: Self.cable, clickLevel: -12, beats: 32, spacing: spacing, subdivisions: 2,
      change: .init(beat: beat, click: 1, room: Self.cable, clickLevel: -6), seed: seed)
    let (heard, _, canceller) = try listen(to: take)
    // Halfway between the third click after the turn and the fourth.
    let fourth = (take.changedAt ?? 0) + 3 * spacing / 2
    #expect(heard.strays(from: fourth).isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(heard.wrong(from: fourth).isEmpty, "\(heard.wrong(from: fourth))")
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - 6) < 0.3, "\(canceller.changes)")
  }

  /// The same in the rehearsal room, whose tail lasts past the eighth: the answers are scaled once,
  /// by what the volume was turned, within 0.3 dB, though each eighth is heard over the beat's
  /// tail, played before the turn. (What strokes the listener finds there in eighths, with or
  /// without a change, is left as found: MEASUREMENTS.md.)
  @Test(arguments: 12..<16)
  func aVolumeTurnedOverEighthsInALivelyRoomIsReadAsTurned(beat: Int) throws {
    let room = RoomEchoTests.corpus[2].room
    let take = try RoomTake(
      room: room, clickLevel: -12, beats: 32, spacing: 26_460, subdivisions: 2,
      change: .init(beat: beat, room: room, clickLevel: -6), seed: 7)
    let (_, notices, canceller) = try listen(to: take)
    let decibels = 20 * log10(Double(canceller.changes.lastLevel))
    #expect(canceller.changes.levels == 1 && abs(decibels - 6) < 0.3, "\(canceller.changes)")
    #expect(notices == [.clickLevel(decibels: decibels)])
  }

  /// The microphone moved a metre farther while the drummer rests two bars: each sound is learned
  /// again from the second of its clicks heard alone, the other sounds' direct sound moved with
  /// the first; no click is taken for a stroke from the fourth click on; from the drummer's return
  /// every stroke is found and placed within a millisecond, by the click heard where the
  /// microphone is now; the listener said the echo was learned again.
  @Test func aMicrophoneMovedWhileTheDrummerRestsIsLearnedAgain() throws {
    let rest = Self.changeBeat..<(Self.changeBeat + 8)
    let take = try RoomTake(
      room: Self.room, clickLevel: -12, beats: 32, rests: [rest],
      change: .init(beat: Self.changeBeat, room: Self.farther, clickLevel: -14), seed: 3)
    let (heard, notices, canceller) = try listen(to: take)
    #expect(heard.strays(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.strays)")
    #expect(heard.wrong(from: Self.frame(ofBeat: rest.upperBound)).isEmpty, "\(heard.wrong())")
    #expect(canceller.changes.learnedAgain == 2 && notices.contains(.echoLearnedAgain), "\(canceller.changes)")
    let moved = Self.farther.directFrames(at: RoomTake.sampleRate) - Self.room.directFrames(at: RoomTake.sampleRate)
    #expect(abs(canceller.placement.roundTrip - Int64(take.direct + moved)) <= 2, "\(canceller.placement)")
  }

  /// The microphone moved a metre farther while the drummer rests a bar: the direct sound is
  /// followed once three clicks heard alone agree, and the clicks heard twice alone are learned
  /// again, so that hits are placed by the click heard where the microphone is now; no click is
  /// taken from the fourth on.
  @Test func aMicrophoneMovedWhileTheDrummerRestsABarIsPlacedByTheClickHeardThere() throws {
    let take = try RoomTake(
      room: Self.room, clickLevel: -12, beats: 32, rests: [(Self.changeBeat - 1)..<(Self.changeBeat + 4)],
      change: .init(beat: Self.changeBeat, room: Self.farther, clickLevel: -14), seed: 3)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.strays(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.strays)")
    let moved = Self.farther.directFrames(at: RoomTake.sampleRate) - Self.room.directFrames(at: RoomTake.sampleRate)
    #expect(
      canceller.changes.learnedAgain >= 1 && canceller.changes.moves == 1
        && abs(canceller.changes.lastMove - moved) <= 2, "\(canceller.changes)")
    #expect(abs(canceller.placement.roundTrip - Int64(take.direct + moved)) <= 2, "\(canceller.placement)")
  }

  /// A volume turned while the drummer rests a bar (from a bar's last beat): the regular click is
  /// learned again from the clicks heard alone; the accent, heard alone once and learned only in
  /// part, follows from its third click under the drums; from then on every stroke is found and
  /// placed within a millisecond, and no click is taken from the fourth after the change.
  @Test(arguments: [(1, -20, -14), (2, -12, -6), (4, 0, -6)] as [(Int, Double, Double)])
  func aVolumeTurnedWhileTheDrummerRestsABarIsFollowedClickByClick(room: Int, before: Double, after: Double)
    throws
  {
    let corpus = RoomEchoTests.corpus[room]
    let take = try RoomTake(
      room: corpus.room, clickLevel: before, beats: 36, rests: [(Self.changeBeat - 1)..<(Self.changeBeat + 4)],
      change: .init(beat: Self.changeBeat, room: corpus.room, clickLevel: after), seed: corpus.seed)
    let (heard, _, _) = try listen(to: take)
    #expect(heard.strays(from: Self.frame(ofBeat: Self.changeBeat + 3)).isEmpty, "\(heard.strays)")
    // The third accent under the drums after the rest is beat 28's.
    #expect(heard.wrong(from: Self.frame(ofBeat: 29)).isEmpty, "\(heard.wrong())")
  }

  /// The microphone moved a metre farther while the drummer plays on: nothing can be heard alone,
  /// so the room's new reflections are not learned, but the click's direct sound is followed
  /// from the fourth click on, the hits placed by it, the listener saying by how much; no click is
  /// taken for a stroke.
  @Test func aMicrophoneMovedWhileTheDrummerPlaysOnHasItsDirectSoundFollowed() throws {
    let take = try RoomTake(
      room: Self.room, clickLevel: -12, beats: 32,
      change: .init(beat: Self.changeBeat, room: Self.farther, clickLevel: -14), seed: 3)
    let (heard, notices, canceller) = try listen(to: take)
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    let moved = Self.farther.directFrames(at: RoomTake.sampleRate) - Self.room.directFrames(at: RoomTake.sampleRate)
    #expect(canceller.changes.moves == 1 && abs(canceller.changes.lastMove - moved) <= 2, "\(canceller.changes)")
    #expect(abs(canceller.placement.roundTrip - Int64(take.direct + moved)) <= 2, "\(canceller.placement)")
    let milliseconds = Double(canceller.changes.lastMove) * 1_000 / Double(RoomTake.sampleRate)
    #expect(notices == [.clickMoved(milliseconds: milliseconds)])
  }

  /// The microphone nudged while the drummer plays on: its direct sound 4 frames later is
  /// followed, by that much; 3 frames later (what a reading through the drums may stray by) it is
  /// left where it was.
  @Test(arguments: [(4, 1), (3, 0)] as [(Int, Int)])
  func aDirectSoundMovedFourFramesOrMoreIsFollowed(frames: Int, followed: Int) throws {
    let nudged = Self.room.microphoneMoved(by: Double(frames) / Double(RoomTake.sampleRate) * 343)
    let moved = nudged.directFrames(at: RoomTake.sampleRate) - Self.room.directFrames(at: RoomTake.sampleRate)
    try #require(moved == frames)
    let take = try RoomTake(
      room: Self.room, clickLevel: -12, beats: 32, change: .init(beat: Self.changeBeat, room: nudged, clickLevel: -12),
      seed: 3)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
    #expect(canceller.changes.moves == followed, "\(canceller.changes)")
    if followed > 0 { #expect(canceller.changes.lastMove == frames, "\(canceller.changes)") }
    // Followed once the third click's answer is heard, before the fourth click: its hits are
    // placed by where the click is heard now.
    let (_, _, early) = try listen(to: take, through: 11_025 + (Self.changeBeat + 3) * 22_050)
    #expect(early.changes.moves == followed, "\(early.changes)")
  }

  /// A count-in of a sound of its own, the drummer playing from the first beat after it: the
  /// beats' sounds are first heard under the drums and start from the direct path; the first
  /// time the drummer rests, from a bar's last beat for two bars (each sound heard twice alone
  /// once the drums' ring has died), they are learned whole, and from then on every stroke is
  /// found and placed within a millisecond and no click is taken for one.
  @Test(arguments: 1..<5)
  func aCountInsBeatsAreLearnedWholeOnceTheDrummerRests(room: Int) throws {
    let corpus = RoomEchoTests.corpus[room]
    let rest = 11..<20
    let take = try RoomTake(
      room: corpus.room, clickLevel: corpus.clickLevel, beats: 32, rests: [rest], countIn: 4, seed: corpus.seed)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.wrong(from: Self.frame(ofBeat: rest.upperBound)).isEmpty, "\(heard.wrong())")
    #expect(heard.strays(from: Self.frame(ofBeat: rest.upperBound)).isEmpty, "\(heard.strays)")
    #expect(canceller.changes.learnedAgain == 2, "\(canceller.changes)")
  }

  /// A count-in as a run listening to a microphone plays it, as the bars will, the drummer
  /// playing from the first beat after it and never resting: every stroke is found and placed
  /// within a millisecond and no click is taken for one, from the first stroke on.
  @Test(arguments: 1..<5)
  func aCountInPlayingTheBarsTeachesTheirClicksBeforeTheDrummerPlays(room: Int) throws {
    let corpus = RoomEchoTests.corpus[room]
    let take = try RoomTake(
      room: corpus.room, clickLevel: corpus.clickLevel, beats: 32, countIn: 4, countInApart: false, seed: corpus.seed)
    let (heard, _, canceller) = try listen(to: take)
    #expect(heard.wrong().isEmpty, "\(heard.wrong())")
    #expect(heard.strays(from: 0).isEmpty, "\(heard.strays)")
    #expect(canceller.changes.learnedAgain == 0, "\(canceller.changes)")
  }
}
