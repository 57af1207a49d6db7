import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct SimulatedRoomTests {
  private let room = SimulatedRoom(size: (6, 5, 3), reverberation: 0.6, speaker: (1, 1, 1.5), microphone: (3, 1, 1.5))

  /// Nothing reaches the microphone before the direct sound, 2 m at 343 m/s, whose peak is the gain asked for.
  @Test func theDirectSoundComesFirstAtItsDistanceAndLevel() {
    let response = room.impulseResponse(rate: 48_000, seconds: 0.35, directGain: 0.25)
    let direct = room.directFrames(at: 48_000)
    #expect(direct == 280)
    #expect(response[..<(direct - 1)].allSatisfy { $0 == 0 })
    #expect(abs(response[(direct - 1)...(direct + 1)].max()! - 0.25) < 1e-6)
  }

  /// A livelier room keeps more of its sound 200 ms on.
  @Test func aLongerReverberationLeavesMoreLateSound() {
    func late(_ reverberation: Double) -> Float {
      let lively = SimulatedRoom(
        size: room.size, reverberation: reverberation, speaker: room.speaker, microphone: room.microphone)
      return lively.impulseResponse(rate: 48_000, seconds: 0.35, directGain: 1)[9_600...].reduce(0) { $0 + $1 * $1 }
    }
    #expect(late(0.8) > 4 * late(0.3))
  }

  /// Hearing a signal through a response is their convolution, as long as the signal.
  @Test func aSignalIsHeardThroughTheResponse() {
    let heard = SimulatedRoom.heard([1, 0, 0.5, 0, 0, 0], through: [0, 0.5, 0.25])
    let expected: [Float] = [0, 0.5, 0.25, 0.25, 0.125, 0]
    #expect(zip(heard, expected).allSatisfy { abs($0 - $1) < 1e-6 } && heard.count == 6, "\(heard)")
  }
}
