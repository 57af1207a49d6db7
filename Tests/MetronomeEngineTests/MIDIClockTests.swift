import MetronomeCore
import MetronomeEngine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MIDIClockTests {
  /// A beat of `meter` at `bpm`, on `frame`.
  private func beat(
    _ bar: Int, _ beatInBar: Int, at frame: Int64, bpm: Double = 120, meter: Meter = .fourFour, countIn: Bool = false
  )
    throws -> Beat
  {
    Beat(
      count: 0, bar: bar, beatInBar: beatInBar, meter: meter, tempo: try Tempo(bpm: bpm), frame: frame,
      sampleRate: .standard, isCountIn: countIn)
  }

  /// Runs the clock over `beats` in periods of `period` frames up to `end`, playing until `stopAt`.
  private func messages(_ beats: [Beat], period: Int, end: Int64, stopAt: Int64 = .max) -> [(Int64, MIDIClock.Message)]
  {
    var clock = MIDIClock(sampleRate: .standard)
    var sent: [(Int64, MIDIClock.Message)] = []
    var start: Int64 = 0
    while start < end {
      let inPeriod = beats.filter { $0.frame >= start && $0.frame < start + Int64(period) }
      clock.messages(from: start, frames: period, beats: inPeriod, isPlaying: start < stopAt) { sent.append(($0, $1)) }
      start += Int64(period)
    }
    return sent
  }

  /// Each message is its bytes, and read back is the message it was.
  ///
  /// A status byte alone for the real-time messages; Song Position's two data bytes of seven bits
  /// each, the low ones first, as MIDI 1.0 writes them.
  @Test func eachMessageIsItsBytesAndBack() {
    let cases: [(MIDIClock.Message, [UInt8])] = [
      (.tick, [0xF8]), (.start, [0xFA]), (.continue, [0xFB]), (.stop, [0xFC]), (.songPosition(0), [0xF2, 0, 0]),
      (.songPosition(300), [0xF2, 0x2C, 0x02]), (.songPosition(16_383), [0xF2, 0x7F, 0x7F]),
    ]
    for (message, expected) in cases {
      let bytes = message.bytes
      #expect(Array([bytes.0, bytes.1, bytes.2].prefix(bytes.count)) == expected, "\(message)")
      #expect([bytes.0, bytes.1, bytes.2].dropFirst(bytes.count).allSatisfy { $0 == 0 }, "\(message)")
      #expect(MIDIClock.Message(bytes.0, bytes.1, bytes.2) == message)
    }
  }

  /// At 120 in 4/4, bar one starts with Song Position 0 and Start, then 24 ticks a beat, 1000
  /// frames apart, whatever the period; pausing sends Stop.
  @Test func twentyFourTicksAQuarterOnTheirFramesThenStop() throws {
    let beats = try [beat(1, 1, at: 0), beat(1, 2, at: 24_000)]
    for period in [256, 1_000, 48_000] {
      let sent = messages(beats, period: period, end: 48_000, stopAt: 48_000)
      #expect(sent.prefix(2).map(\.1) == [.songPosition(0), .start])
      let ticks = sent.filter { $0.1 == .tick }.map(\.0)
      #expect(ticks == (0..<48).map { Int64($0) * 1_000 }, "period \(period)")
    }
    let stopped = messages(beats, period: 256, end: 49_000, stopAt: 48_000)
    #expect(stopped.last.map { $0.1 } == .stop)
    #expect(stopped.last.map { $0.0 } == 48_128)
  }

  /// The run's last period ends with Stop on its last frame, after its ticks.
  @Test func theRunsEndSendsStop() throws {
    var clock = MIDIClock(sampleRate: .standard)
    var sent: [(Int64, MIDIClock.Message)] = []
    clock.messages(from: 0, frames: 256, beats: [try beat(1, 1, at: 0)], isPlaying: true) { sent.append(($0, $1)) }
    clock.messages(from: 256, frames: 1_100, beats: [], isPlaying: true, endsRun: true) { sent.append(($0, $1)) }

    #expect(sent.map(\.1) == [.songPosition(0), .start, .tick, .tick, .stop])
    #expect(sent.map(\.0) == [0, 0, 0, 1_000, 1_355])
  }

  /// A run whose last period is a single frame stops on that frame, not past it.
  @Test func aLastPeriodOfOneFrameStopsOnIt() throws {
    var clock = MIDIClock(sampleRate: .standard)
    var sent: [(Int64, MIDIClock.Message)] = []
    clock.messages(from: 0, frames: 256, beats: [try beat(1, 1, at: 0)], isPlaying: true) { sent.append(($0, $1)) }
    clock.messages(from: 256, frames: 1, beats: [], isPlaying: true, endsRun: true) { sent.append(($0, $1)) }
    #expect(sent.last.map { [$0.0] } == [256])
    #expect(sent.last.map(\.1) == .stop)
  }

  /// A pause sends Stop at its period's start and nothing after it, though the period held a beat
  /// before the pause; a pause in the count-in (nothing started) leaves no tick of its beat to
  /// come when the count-in plays again.
  @Test func aPauseSendsNothingAfterItsStop() throws {
    var clock = MIDIClock(sampleRate: .standard)
    var sent: [(Int64, MIDIClock.Message)] = []
    clock.messages(from: 0, frames: 1_024, beats: [try beat(1, 1, at: 0)], isPlaying: true) { sent.append(($0, $1)) }
    sent = []
    clock.messages(from: 1_024, frames: 1_024, beats: [try beat(1, 2, at: 1_500)], isPlaying: false) {
      sent.append(($0, $1))
    }
    #expect(sent.map(\.1) == [.stop] && sent.map(\.0) == [1_024])

    var counting = MIDIClock(sampleRate: .standard)
    sent = []
    let countIn = try beat(0, 1, at: 0, countIn: true)
    counting.messages(from: 0, frames: 1_024, beats: [countIn], isPlaying: true) { sent.append(($0, $1)) }
    counting.messages(from: 1_024, frames: 1_024, beats: [], isPlaying: false) { sent.append(($0, $1)) }
    let resumed = try beat(0, 1, at: 50_000, countIn: true)
    counting.messages(from: 49_152, frames: 1_024, beats: [resumed], isPlaying: true) { sent.append(($0, $1)) }
    // Two ticks before the pause, then the resumed beat's own from its frame.
    #expect(sent.map(\.0) == [0, 1_000, 50_000])
  }

  /// However close the beats come, on one frame even, the ticks go out in order.
  @Test func theTicksGoOutInOrderHoweverCloseTheBeats() throws {
    let frames: [Int64] = [0, 10, 20, 20, 20, 30, 5_000, 5_000, 5_001]
    let beats = try frames.enumerated().map { try beat(1, $0.offset % 4 + 1, at: $0.element) }
    let ticks = messages(beats, period: 8_192, end: 8_192).filter { $0.1 == .tick }.map(\.0)
    #expect(ticks == ticks.sorted())
    #expect(ticks.count >= 8 * 24)
  }

  /// A count-in clocks ticks but starts nothing; bar one starts.
  ///
  /// In 6/8 an eighth holds 12 ticks, each beat's ticks from its own frame; a tempo change moves
  /// them from the next beat, and the ticks of a beat cut short come before the next.
  @Test func countInsCompoundMetersAndTempoChanges() throws {
    let sixEight = try Meter(6, 8)
    let beats = try [
      beat(0, 6, at: 0, meter: sixEight, countIn: true), beat(1, 1, at: 12_000, meter: sixEight),
      beat(1, 2, at: 22_000, bpm: 144, meter: sixEight),
    ]
    let sent = messages(beats, period: 512, end: 32_000)
    #expect(sent.first.map { $0.1 } == .tick)
    let start = try #require(sent.firstIndex { $0.1 == .start })
    #expect(sent[start].0 == 12_000)
    #expect(sent[start - 1].1 == .songPosition(0))
    let ticks = sent.filter { $0.1 == .tick }.map(\.0)
    // 12 ticks of 1000 frames for each eighth at 120; the eighth cut short at 10000 frames by the
    // change to 144 sends its last two in the period of the next eighth, from 21504 on; that
    // eighth (10000 frames) has ticks of 833.33 frames, rounded from its own frame.
    #expect(ticks.prefix(22) == ArraySlice((0..<22).map { (tick: Int64) in tick * 1_000 }))
    #expect(ticks.dropFirst(22).prefix(5) == [21_504, 21_752, 22_000, 22_833, 23_667])
  }

  /// A beat cut short in the period of its last tick sends the rest from just after that tick.
  ///
  /// The two ticks an eighth at 120 had left when the next came 10,000 frames on are spread
  /// evenly from frame 9,001 up to that eighth, whose own ticks follow from its frame.
  @Test func aBeatCutShortSpreadsItsLastTicksFromJustAfterItsLastTick() throws {
    let sixEight = try Meter(6, 8)
    let beats = try [beat(1, 1, at: 0, meter: sixEight), beat(1, 2, at: 10_000, bpm: 144, meter: sixEight)]
    let ticks = messages(beats, period: 32_000, end: 32_000).filter { $0.1 == .tick }.map(\.0)
    #expect(Array(ticks.prefix(15)) == (0..<10).map { Int64($0) * 1_000 } + [9_001, 9_500, 10_000, 10_833, 11_667])
  }

  /// Only beats set the ticks: a subdivision's click, the second voice's and a map's end pass
  /// over; a beat of a whole note holds 96 ticks.
  @Test func onlyBeatsSetTheTicksAWholeNoteHolding96() throws {
    let twoOne = try Meter(2, 1, cap: NumeratorCap(atLeast: 2))
    let beats = try [beat(1, 1, at: 0, meter: twoOne), beat(1, 2, at: 96_000, meter: twoOne)]
    let plain = messages(beats, period: 512, end: 100_000)
    #expect(Array(plain.filter { $0.1 == .tick }.map(\.0).prefix(100)) == (0..<100).map { Int64($0) * 1_000 })
    let others = [
      Beat(
        count: 0, bar: 1, beatInBar: 1, meter: twoOne, tempo: try Tempo(bpm: 120), frame: 30_500,
        sampleRate: .standard, subdivision: 1, clicks: 2),
      Beat(
        count: 0, bar: 1, beatInBar: 1, meter: twoOne, tempo: try Tempo(bpm: 120), frame: 40_500,
        sampleRate: .standard, voice: .polyrhythm(click: 1, of: 3)),
      Beat(
        count: 0, bar: 1, beatInBar: 2, meter: twoOne, tempo: try Tempo(bpm: 120), frame: 50_500,
        sampleRate: .standard, isMapEnd: true),
    ]
    let withOthers = messages((beats + others).sorted { $0.frame < $1.frame }, period: 512, end: 100_000)
    #expect(withOthers.map(\.0) == plain.map(\.0))
    #expect(withOthers.map(\.1) == plain.map(\.1))
  }

  /// Starting elsewhere than bar one sends the song position there, in sixteenths, and Continue.
  @Test func startingInTheMiddleContinuesFromTheSongPosition() throws {
    let sent = messages(try [beat(3, 2, at: 0)], period: 256, end: 256)
    #expect(sent.prefix(2).map(\.1) == [.songPosition(36), .continue])
    #expect(MIDIClock.Message.songPosition(200).bytes == (0xF2, 0x48, 0x01, 3))
  }
}
