import Foundation

/// Rooms drawn from a seeded generator, the same for a seed wherever they are drawn: sizes from a
/// booth to a hall, reverberation times from 0.2 to 0.8 s, the microphone 0.3 to 3 m from the
/// speaker.
public enum SeededRooms {
  /// The next room `random` draws.
  public static func next(_ random: inout SeededGenerator) -> SimulatedRoom {
    let size = (
      Double.random(in: 2.5...10, using: &random), Double.random(in: 2.5...8, using: &random),
      Double.random(in: 2.4...4, using: &random)
    )
    let speaker = (
      Double.random(in: 0.3...(size.0 - 0.3), using: &random), Double.random(in: 0.3...(size.1 - 0.3), using: &random),
      Double.random(in: 0.5...1.8, using: &random)
    )
    let distance = Double.random(in: 0.3...3, using: &random)
    let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
    let microphone = (
      min(max(speaker.0 + distance * cos(angle), 0.2), size.0 - 0.2),
      min(max(speaker.1 + distance * sin(angle), 0.2), size.1 - 0.2), Double.random(in: 0.5...1.8, using: &random)
    )
    return SimulatedRoom(
      size: size, reverberation: Double.random(in: 0.2...0.8, using: &random), speaker: speaker,
      microphone: microphone)
  }

  /// A take of the rooms benchmark's corpus (`MetronomeBenchmark rooms`): the room, the click's
  /// level under the drums (dBFS), clicks a beat (one take in three in eighths) and the take's seed.
  public struct Take: Sendable {
    /// The room.
    public let room: SimulatedRoom
    /// The click's direct sound, dBFS (the drums peak near 0).
    public let clickLevel: Double
    /// Clicks a beat: 2 for eighths.
    public let subdivisions: Int
    /// The seed of the drummer's take.
    public let seed: UInt64
  }

  /// The first `count` takes of the rooms benchmark's corpus, drawn from seed 34.
  public static func benchmarkCorpus(count: Int) -> [Take] {
    var random = SeededGenerator(seed: 34)
    return (0..<count).map { index in
      let room = next(&random)
      let level = Double.random(in: -30...0, using: &random)
      return Take(room: room, clickLevel: level, subdivisions: index % 3 == 2 ? 2 : 1, seed: UInt64(index + 1))
    }
  }
}
