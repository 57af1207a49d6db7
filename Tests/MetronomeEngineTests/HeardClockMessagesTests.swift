import MetronomeCore
import MetronomeEngine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HeardClockMessagesTests {
  /// Messages of the periods rendered before the device plays are held; the first period whose
  /// reading says when frames are heard sends them, in order, each timed from that moment: here
  /// frame 2048 is heard 40 ms after the reading, so the messages on frame 0 were due 2.7 ms ago.
  @Test func holdsMessagesUntilTheDeviceSaysWhenTheyAreHeard() {
    var timing = HeardClockMessages(sampleRate: .standard, room: 8)
    var sent: [(MIDIClock.Message, Int64)] = []
    let messages: [(Int64, Int64, MIDIClock.Message)] = [
      (0, 0, .songPosition(0)), (0, 0, .start), (0, 0, .tick), (1024, 1000, .tick), (2048, 2000, .tick),
      (2048, 3000, .tick),
    ]
    for (periodStart, frame, message) in messages {
      let reading: (frames: Int64, nanoseconds: Int64)? = periodStart < 2048 ? nil : (1920, 1_000_000_000)
      timing.send(
        message, atFrame: frame, periodStart: periodStart, nowNanoseconds: 1_000_000_000, delay: { reading },
        to: { sent.append(($0, $1)) })
      #expect(sent.isEmpty == (periodStart < 2048))
    }
    #expect(sent.map(\.0) == [.songPosition(0), .start, .tick, .tick, .tick, .tick])
    // Frame 2048 is due in 1920 frames, so frame F in F - 128 frames of 20.83 µs.
    let due = messages.map { Int64((Double($0.1 - 128) * 1_000 / 48).rounded()) }
    #expect(sent.map(\.1) == due)
  }

  /// Messages that do not fit the room are sent at once rather than grown into.
  @Test func sendsAtOnceWhatDoesNotFit() {
    var timing = HeardClockMessages(sampleRate: .standard, room: 2)
    var sent: [Int64] = []
    for frame in Int64(0)..<3 {
      timing.send(.tick, atFrame: frame, periodStart: 0, nowNanoseconds: 0, delay: { nil }, to: { sent.append($1) })
    }
    #expect(sent == [0, 0, 0])
  }

  /// At 48 kHz the fastest tempo (1000) ticks every 120 frames: 2048 frames hold 17 ticks, and
  /// Song Position and Start.
  @Test func roomForEveryTickAtTheFastestTempo() {
    #expect(HeardClockMessages.room(forFrames: 2_048, at: .standard) == 19)
  }
}
