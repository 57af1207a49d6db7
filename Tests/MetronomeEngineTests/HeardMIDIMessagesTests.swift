import MetronomeCore
import MetronomeEngine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HeardMIDIMessagesTests {
  /// Messages of the periods rendered before the device plays are held; the first period whose
  /// reading says when frames are heard sends them, in order, each with the time it is due: here
  /// frame 2048 is heard 40 ms after the reading (at 1 s), so the messages on frame 0 were due
  /// 2.7 ms before it; messages of one frame are due at one time.
  @Test func holdsMessagesUntilTheDeviceSaysWhenTheyAreHeard() {
    var timing = HeardMIDIMessages<MIDIClock.Message>(sampleRate: .standard, room: 8)
    var sent: [(MIDIClock.Message, Int64)] = []
    let messages: [(Int64, Int64, MIDIClock.Message)] = [
      (0, 0, .songPosition(0)), (0, 0, .start), (0, 0, .tick), (1024, 1000, .tick), (2048, 2000, .tick),
      (2048, 3000, .tick),
    ]
    var readings = 0
    for (periodStart, frame, message) in messages {
      let reading: (frames: Int64, nanoseconds: Int64)? = periodStart < 2048 ? nil : (1920, 1_000_000_000)
      timing.send(
        message, atFrame: frame, periodStart: periodStart, nowNanoseconds: 1_000_000_000,
        delay: {
          readings += 1
          return reading
        },
        to: { sent.append(($0, $1)) })
      #expect(sent.isEmpty == (periodStart < 2048))
    }
    #expect(sent.map(\.0) == [.songPosition(0), .start, .tick, .tick, .tick, .tick])
    // Frame 2048 is due 1920 frames after 1 s, so frame F F - 128 frames of 20.83 µs after it.
    let due = messages.map { 1_000_000 + Int64((Double($0.1 - 128) * 1_000 / 48).rounded()) }
    #expect(sent.map(\.1) == due)
    // One reading a period: the device is asked once, not for every message.
    #expect(readings == 3)
  }

  /// Messages that do not fit the room are sent at once (due now) rather than grown into.
  @Test func sendsAtOnceWhatDoesNotFit() {
    var timing = HeardMIDIMessages<MIDIClock.Message>(sampleRate: .standard, room: 2)
    var sent: [Int64] = []
    for frame in Int64(0)..<3 {
      timing.send(
        .tick, atFrame: frame, periodStart: 0, nowNanoseconds: 5_000_000, delay: { nil }, to: { sent.append($1) })
    }
    #expect(sent == [5_000, 5_000, 5_000])
  }

  /// At 48 kHz the fastest tempo (1000) ticks every 120 frames: 2048 frames hold 17 ticks, and
  /// Song Position and Start.
  @Test func roomForEveryTickAtTheFastestTempo() {
    #expect(HeardMIDIMessages<MIDIClock.Message>.room(forFrames: 2_048, at: .standard) == 19)
    // 2880 frames are exactly 24 ticks.
    #expect(HeardMIDIMessages<MIDIClock.Message>.room(forFrames: 2_880, at: .standard) == 26)
    // With notes, room for a click's on and off beside every tick.
    #expect(HeardMIDIMessages<MIDIMessage>.room(forFrames: 2_048, at: .standard, notes: true) == 57)
  }
}
