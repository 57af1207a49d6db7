import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting

/// `MetronomeBenchmark rooms` (second part): the room canceller following the path as it changes.
///
/// Mid-take, in seeded simulated rooms, with no calibration: a volume turned up or down (in
/// quarters, and in eighths), the microphone moved 0.5 to 1.5 m, while the drummer plays on or rests two bars; and a count-in of
/// its own sound, the drummer playing on or resting two bars later, or played as the bars (as a
/// run listening to a microphone plays it), in quarters or eighths, the drummer playing on. For each, over every room:
/// the strokes counted (from the fourth click after the change, or from the end of the rest),
/// those missed or found or placed more than a millisecond off, the clicks taken for strokes, the
/// worst and mean distance of those found, and after how many clicks the listener said it had
/// followed the change.
enum PathChangeBenchmark {
  /// One way the path changes mid-take, and from which beat its take is scored.
  struct Scenario: Sendable {
    let name: String
    let scoredFrom: Int
    let take:
      @Sendable (_ room: SimulatedRoom, _ moved: SimulatedRoom, _ level: Double, _ seed: UInt64) throws -> RoomTake

    /// The input's frame strokes are counted from: a quarter of a beat before `scoredFrom`.
    var firstScoredFrame: Int { 11_025 + scoredFrom * 22_050 - 22_050 / 4 }
  }

  /// The beat the path changes on.
  static let changeBeat = 14

  /// The microphone moved while the drummer plays on (`MovedReflectionsBound` reads its takes too).
  static let movedWhilePlaying = Scenario(name: "microphone moved, the drummer on", scoredFrom: changeBeat + 3) {
    room, moved, level, seed in
    try RoomTake(
      room: room, clickLevel: level, beats: 32, change: .init(beat: changeBeat, room: moved, clickLevel: level),
      seed: seed)
  }

  static let scenarios: [Scenario] = [
    Scenario(name: "volume +6 dB, the drummer on", scoredFrom: changeBeat + 3) { room, _, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, change: .init(beat: changeBeat, room: room, clickLevel: level + 6),
        seed: seed)
    },
    Scenario(name: "volume -6 dB, the drummer on", scoredFrom: changeBeat + 3) { room, _, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, change: .init(beat: changeBeat, room: room, clickLevel: level - 6),
        seed: seed)
    },
    Scenario(name: "volume +6 dB in eighths, the drummer on", scoredFrom: changeBeat + 3) { room, _, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, subdivisions: 2,
        change: .init(beat: changeBeat, room: room, clickLevel: level + 6), seed: seed)
    },
    Scenario(name: "volume -6 dB in eighths, the drummer on", scoredFrom: changeBeat + 3) { room, _, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, subdivisions: 2,
        change: .init(beat: changeBeat, room: room, clickLevel: level - 6), seed: seed)
    },
    movedWhilePlaying,
    Scenario(name: "microphone moved, 2 bars' rest", scoredFrom: changeBeat + 8) { room, moved, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, rests: [(changeBeat - 1)..<(changeBeat + 8)],
        change: .init(beat: changeBeat, room: moved, clickLevel: level), seed: seed)
    },
    Scenario(name: "count-in, the drummer on", scoredFrom: 4) { room, _, level, seed in
      try RoomTake(room: room, clickLevel: level, beats: 32, countIn: 4, seed: seed)
    },
    Scenario(name: "count-in as the bars, the drummer on", scoredFrom: 4) { room, _, level, seed in
      try RoomTake(room: room, clickLevel: level, beats: 32, countIn: 4, countInApart: false, seed: seed)
    },
    Scenario(name: "same, in eighths", scoredFrom: 4) { room, _, level, seed in
      try RoomTake(
        room: room, clickLevel: level, beats: 32, subdivisions: 2, countIn: 4, countInApart: false, seed: seed)
    },
    Scenario(name: "count-in, 2 bars' rest from beat 11", scoredFrom: 20) { room, _, level, seed in
      try RoomTake(room: room, clickLevel: level, beats: 32, rests: [11..<20], countIn: 4, seed: seed)
    },
  ]

  static func run(rooms count: Int) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    print(
      "\nfollowing the path, \(count) rooms each  | strokes wrong taken  worst   mean | followed after (clicks)")
    for scenario in scenarios {
      var strokes = 0
      var wrong = 0
      var taken = 0
      var errors: [Int] = []
      var followedAfter: [Int] = []
      try forEachTake(of: scenario, rooms: count) { take, _, _, _ in
        let (heard, firstNotice) = listen(to: take, rate: rate)
        let from = scenario.firstScoredFrame
        strokes += take.attacks.filter { $0 >= from }.count
        wrong += heard.wrong(from: from).count
        taken += heard.strays(from: from).count
        errors += heard.errors(from: from)
        if let firstNotice, let change = take.changedAt {
          followedAfter.append((firstNotice - change) / 22_050 + 1)
        }
      }
      let milliseconds = errors.map { Double($0) * 1_000 / Double(rate.hz) }
      let after = followedAfter.isEmpty ? "-" : "\(followedAfter.min() ?? 0) to \(followedAfter.max() ?? 0)"
      print(
        scenario.name.padding(toLength: 40, withPad: " ", startingAt: 0)
          + String(
            format: "| %7d %5d %5d %5.2f ms %4.2f ms | %@", strokes, wrong, taken, milliseconds.max() ?? 0,
            milliseconds.reduce(0, +) / Double(max(milliseconds.count, 1)), after))
    }
  }

  /// Calls `body` with each of `scenario`'s takes in `count` seeded rooms, the same rooms for every
  /// scenario: the take, the room, the room with the microphone moved, and the click's level in dBFS.
  static func forEachTake(
    of scenario: Scenario, rooms count: Int, _ body: (RoomTake, SimulatedRoom, SimulatedRoom, Double) throws -> Void
  ) throws {
    var random = SeededGenerator(seed: 36)
    for index in 0..<count {
      let room = SeededRooms.next(&random)
      let moved = movedMicrophone(of: room, &random)
      let level = Double.random(in: -24 ... -6, using: &random)
      try body(try scenario.take(room, moved, level, UInt64(index + 1)), room, moved, level)
    }
  }

  /// What the room canceller (or `canceller`) hears of `take`, and the input's frame it first said
  /// it followed a change on.
  static func listen(
    to take: RoomTake, rate: SampleRate, canceller: any OutputCanceller = EchoPathCanceller(roundTrip: 0)
  ) -> (HeardTake, Int?) {
    let listener = AudioHitListener(canceller: canceller, sampleRate: rate)
    var heard: [(Attack, Placement)] = []
    var firstNotice: Int?
    take.input.withUnsafeBufferPointer { input in
      take.output.withUnsafeBufferPointer { output in
        for start in stride(from: 0, to: input.count, by: 256) {
          let end = min(start + 256, input.count)
          listener.listen(
            input: UnsafeBufferPointer(rebasing: input[start..<end]),
            output: UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start),
            noticed: { _ in firstNotice = firstNotice ?? end }
          ) { heard.append(($0, $1)) }
        }
      }
    }
    return (HeardTake(take, heard: heard), firstNotice)
  }

  /// `room` with its microphone 0.5 to 1.5 m from where it was, still inside.
  private static func movedMicrophone(of room: SimulatedRoom, _ random: inout SeededGenerator) -> SimulatedRoom {
    let distance = Double.random(in: 0.5...1.5, using: &random)
    let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
    let microphone = (
      min(max(room.microphone.0 + distance * cos(angle), 0.2), room.size.0 - 0.2),
      min(max(room.microphone.1 + distance * sin(angle), 0.2), room.size.1 - 0.2), room.microphone.2
    )
    return SimulatedRoom(
      size: room.size, reverberation: room.reverberation, speaker: room.speaker, microphone: microphone)
  }
}
