import AudioListening
import MetronomeCore
import MetronomeTesting
import Testing

/// The room canceller on takes no one here wrote.
///
/// Drum breaks drummers recorded (LMMS's, from Debian's `lmms-common`) played in the corpus's
/// rooms over the clicks, and music playing in the room beside the drummer. Where nothing says
/// where each stroke starts, the truth is what the same listener hears of the take with no click
/// at all: the canceller must leave exactly that, placing each by the click heard.
@Suite(.timeLimit(.minutes(5))) struct RecordedTakeTests {
  /// The attacks a listener with the room canceller finds in `input` with `output` played.
  private func attacks(in input: [Float], playing output: [Float]) throws -> [(Attack, Placement)] {
    try AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: SampleRate(RoomTake.sampleRate))
      .attacks(in: input, playing: output)
  }

  /// Whether `heard` holds each of `truth` within a millisecond and nothing else, each placed by
  /// the click's direct sound, `direct` frames after it was played (for a take with no change).
  private func same(_ heard: [(Attack, Placement)], as truth: [(Attack, Placement)], direct: Int) -> Bool {
    heard.count == truth.count
      && zip(heard, truth).allSatisfy { heard, truth in
        abs(heard.0.frame - truth.0.frame) <= Int64(RoomTake.sampleRate / 1_000) && heard.1.heard
          && abs(heard.1.roundTrip - Int64(direct)) <= 2
      }
  }

  /// A break played over and over from the fifth beat in place of the drummer, each in a room of
  /// its own: every attack heard in the break alone is heard over the clicks, within a
  /// millisecond, and nothing else.
  @Test(arguments: zip(["break01", "break02", "break03"], [1, 2, 4]))
  func aBreakNoOneHereWroteIsHeardAsWithoutTheClicks(name: String, room: Int) throws {
    let corpus = RoomEchoTests.corpus[room]
    let loop = try RecordedSound.load("beats/\(name).ogg")
    let take = try RoomTake(
      room: corpus.room, clickLevel: corpus.clickLevel, alongside: loop.map { $0 * 0.8 }, drummer: false,
      seed: corpus.seed)
    let truth = try attacks(in: take.alongside, playing: [Float](repeating: 0, count: take.output.count))
    let heard = try attacks(in: take.input, playing: take.output)
    #expect(truth.count > 30)
    #expect(
      same(heard, as: truth, direct: take.direct),
      "heard \(heard.map(\.0.frame)) for \(truth.map(\.0.frame))")
  }

  /// Music playing in the room beside the drummer (a pad, a synth line, a piano, 20 dB under the
  /// drums): every attack heard of the drums and the music without the clicks is heard with
  /// them, and no click is taken for one.
  @Test(arguments: ["stringsnpads/juno_pad01.ogg", "bassloops/techno_synth01.ogg", "instruments/piano01.ogg"])
  func musicPlayingInTheRoomLeavesWhatIsHeardWithoutTheClicks(path: String) throws {
    let corpus = RoomEchoTests.corpus[2]
    let music = try RecordedSound.load(path)
    let peak = music.reduce(Float(0)) { max($0, abs($1)) }
    let take = try RoomTake(
      room: corpus.room, clickLevel: corpus.clickLevel, alongside: music.map { $0 * 0.1 / peak }, seed: corpus.seed)
    let alone = zip(take.input, take.echo).map(-)
    let truth = try attacks(in: alone, playing: [Float](repeating: 0, count: take.output.count))
    let heard = try attacks(in: take.input, playing: take.output)
    #expect(
      same(heard, as: truth, direct: take.direct),
      "heard \(heard.map(\.0.frame)) for \(truth.map(\.0.frame))")
  }

  /// Three of the rooms `scripts/bench-rooms` has pyroomacoustics simulate (seeded there): a
  /// narrow room with the microphone 2.7 m away, a dry hall at 0.6 m, and a tall small room at 0.4 m.
  static let roomsNoOneHereSimulated = [
    SimulatedRoom(
      size: (2.53, 7.3, 2.79), reverberation: 0.59, speaker: (1.23, 5.58, 1.64), microphone: (0.2, 5.22, 1.75)),
    SimulatedRoom(
      size: (9.34, 6.23, 3.62), reverberation: 0.31, speaker: (7.89, 5.92, 1.68), microphone: (7.42, 6.03, 1.7)),
    SimulatedRoom(
      size: (2.63, 5.81, 3.91), reverberation: 0.44, speaker: (0.97, 3.2, 0.72), microphone: (1.09, 2.81, 1.19)),
  ]

  /// Hydrogen's kit in rooms pyroomacoustics simulates, the click 6 dB under the drums' peaks,
  /// its count-in's clicks ringing into each other while none of their echoes is known: every
  /// stroke is found within a millisecond and no click is taken for one.
  @Test(arguments: roomsNoOneHereSimulated)
  func everyStrokeIsFoundInARoomNoOneHereSimulated(room: SimulatedRoom) throws {
    let take = try RoomTake(room: room.pyroomacousticsResponse(), clickLevel: -6, seed: 2)
    let heard = HeardTake(take, heard: try attacks(in: take.input, playing: take.output))
    #expect(heard.wrong().isEmpty, "strokes missed or misplaced: \(heard.wrong())")
    #expect(heard.strays.isEmpty, "clicks taken for strokes at \(heard.strays)")
  }
}
