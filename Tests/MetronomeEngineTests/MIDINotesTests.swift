import MetronomeCore
import MetronomeEngine
import Testing

/// A MIDI note for every click, on its exact frame, held for 0.1 s or until the same note comes
/// again, released at the run's end; velocities from how loud the click is.
@Suite(.timeLimit(.minutes(1)))
struct MIDINotesTests {
  private typealias Sent = (frame: Int64, message: MIDINotes.Message)

  /// A click of `level` at `frame`, 4/4 at 120.
  private func click(
    at frame: Int64, level: AccentLevel = .normal, beatInBar: Int = 2, subdivision: Int = 0,
    voice: Beat.Voice = .beats, countIn: Bool = false, volume: Double = 1, mapEnd: Bool = false
  ) -> Beat {
    Beat(
      count: 0, bar: 1, beatInBar: beatInBar, meter: .fourFour, tempo: .standard, frame: frame, sampleRate: .standard,
      level: level, subdivision: subdivision, voice: voice, isCountIn: countIn, volume: volume, isMapEnd: mapEnd)
  }

  /// The messages for `beats` in periods of `period` frames up to `end`, the last ending the run.
  private func sent(_ beats: [Beat], period: Int, end: Int64, map: MIDINoteMap = MIDINoteMap()) -> [Sent] {
    var notes = MIDINotes(map: map, sampleRate: .standard)
    var sent: [Sent] = []
    var start: Int64 = 0
    while start < end {
      let frames = Int(min(Int64(period), end - start))
      let inPeriod = beats.filter { $0.frame >= start && $0.frame < start + Int64(frames) }
      notes.messages(from: start, frames: frames, beats: inPeriod, endsRun: start + Int64(frames) == end) {
        // A JACK port takes a message only within the cycle it is written in.
        #expect((start..<start + Int64(frames)).contains($0), "\($1) at \($0), outside the period from \(start)")
        sent.append(($0, $1))
      }
      start += Int64(frames)
    }
    return sent
  }

  /// Beat one's bell at 127, the others' click at 0.6 of it (76), each on its frame and released
  /// 4800 frames (0.1 s) later, whatever the period.
  @Test func eachClickIsANoteOnItsFrame() {
    let beats = [click(at: 0, level: .strong, beatInBar: 1), click(at: 24_000)]
    let expected: [(Int64, MIDINotes.Message)] = [
      (0, .noteOn(channel: 10, note: 34, velocity: 127)), (4_800, .noteOff(channel: 10, note: 34)),
      (24_000, .noteOn(channel: 10, note: 33, velocity: 76)), (28_800, .noteOff(channel: 10, note: 33)),
    ]
    for period in [1, 64, 256, 4_800, 24_000, 48_000] {
      let messages = sent(beats, period: period, end: 48_000)
      #expect(messages.map(\.frame) == expected.map(\.0), "period \(period)")
      #expect(messages.map(\.message) == expected.map(\.1), "period \(period)")
    }
  }

  /// Every kind of click is sent with its own key and velocity: weak, a subdivision's, the second
  /// voice's, the count-in's; a silent click, a gap's (silent too), a map's end and a click at
  /// volume 0 send nothing.
  @Test func everyVoiceAndNothingForSilence() throws {
    let map = try MIDINoteMap(parsing: "1,2,3/1,4/2,5/3,6/4")
    let beats = [
      click(at: 0, level: .weak), click(at: 6_000, subdivision: 1),
      click(at: 12_000, voice: .polyrhythm(click: 1, of: 3)),
      click(at: 18_000, countIn: true), click(at: 24_000, level: .silent), click(at: 30_000, mapEnd: true),
      click(at: 36_000, volume: 0),
    ]
    let ons = sent(beats, period: 256, end: 48_000, map: map).filter {
      if case .noteOn = $0.message { true } else { false }
    }
    #expect(
      ons.map(\.message) == [
        .noteOn(channel: 1, note: 3, velocity: 38), .noteOn(channel: 2, note: 4, velocity: 57),
        .noteOn(channel: 3, note: 5, velocity: 64), .noteOn(channel: 4, note: 6, velocity: 102),
      ])
    #expect(ons.map(\.frame) == [0, 6_000, 12_000, 18_000])
  }

  /// A click's volume (a map's section, the remote control's gains) scales its velocity, never
  /// below 1 while it sounds at all, never above 127 however loud.
  @Test func velocityFollowsTheVolume() {
    let notes = MIDINotes(map: MIDINoteMap(), sampleRate: .standard)
    #expect(notes.velocity(of: click(at: 0, level: .strong, volume: 0.5)) == 64)
    #expect(notes.velocity(of: click(at: 0, level: .strong, volume: 0.001)) == 1)
    #expect(notes.velocity(of: click(at: 0, level: .strong, volume: 16)) == 127)
    #expect(notes.velocity(of: click(at: 0, volume: 1)) == 76)
    #expect(notes.velocity(of: click(at: 0, volume: 0)) == nil)
  }

  /// The same note struck again within 0.1 s is released on the new note's frame, just before it;
  /// another note sounding meanwhile keeps its own release.
  @Test func aNoteStruckAgainIsReleasedFirst() {
    let beats = [click(at: 0, level: .strong, beatInBar: 1), click(at: 1_000), click(at: 2_000), click(at: 3_000)]
    let messages = sent(beats, period: 256, end: 12_000)
    #expect(messages.map(\.frame) == [0, 1_000, 2_000, 2_000, 3_000, 3_000, 4_800, 7_800])
    #expect(
      messages.map(\.message) == [
        .noteOn(channel: 10, note: 34, velocity: 127), .noteOn(channel: 10, note: 33, velocity: 76),
        .noteOff(channel: 10, note: 33), .noteOn(channel: 10, note: 33, velocity: 76),
        .noteOff(channel: 10, note: 33), .noteOn(channel: 10, note: 33, velocity: 76),
        .noteOff(channel: 10, note: 34), .noteOff(channel: 10, note: 33),
      ])
  }

  /// Releases and notes of other keys keep frame order: a release due on a note's frame comes
  /// before it, one due a frame later after it.
  @Test func releasesAndOtherNotesInFrameOrder() {
    for period in [256, 4_800, 9_600] {
      let onItsFrame = sent([click(at: 0, level: .strong, beatInBar: 1), click(at: 4_800)], period: period, end: 9_600)
      #expect(
        onItsFrame.prefix(3).map(\.message) == [
          .noteOn(channel: 10, note: 34, velocity: 127), .noteOff(channel: 10, note: 34),
          .noteOn(channel: 10, note: 33, velocity: 76),
        ], "period \(period)")
      let aFrameBefore = sent(
        [click(at: 0, level: .strong, beatInBar: 1), click(at: 4_799)], period: period, end: 9_600)
      #expect(aFrameBefore.map(\.frame) == [0, 4_799, 4_800, 9_599], "period \(period)")
    }
  }

  /// The run's end releases what still sounds on its last frame; a release due in frames a glitch
  /// skipped comes on the next period's first frame.
  @Test func theEndAndASkipReleaseEveryNote() {
    let ended = sent([click(at: 0, level: .strong, beatInBar: 1), click(at: 100)], period: 256, end: 1_000)
    #expect(ended.suffix(2).map(\.frame) == [999, 999])
    #expect(Set(ended.suffix(2).map { "\($0.message)" }).count == 2)

    var notes = MIDINotes(map: MIDINoteMap(), sampleRate: .standard)
    var messages: [Sent] = []
    notes.messages(from: 0, frames: 256, beats: [click(at: 10)]) { messages.append(($0, $1)) }
    notes.messages(from: 9_984, frames: 256, beats: []) { messages.append(($0, $1)) }
    #expect(messages.map(\.frame) == [10, 9_984])
  }

  /// Note on is 0x9n and note off 0x8n with velocity 0, n the channel less one; three bytes each,
  /// where a clock tick is one and Song Position three.
  @Test func theBytesOnTheWire() {
    #expect(MIDIMessage.note(.noteOn(channel: 10, note: 33, velocity: 76)).bytes == (0x99, 33, 76, 3))
    #expect(MIDIMessage.clock(.tick).bytes == (0xF8, 0, 0, 1))
    #expect(MIDIMessage.clock(.songPosition(129)).bytes == (0xF2, 1, 1, 3))
    #expect(MIDINotes.Message.noteOn(channel: 10, note: 33, velocity: 76).bytes == (0x99, 33, 76))
    #expect(MIDINotes.Message.noteOff(channel: 1, note: 127).bytes == (0x80, 127, 0))
    #expect(MIDINotes.Message.noteOn(channel: 16, note: 0, velocity: 127).bytes == (0x9F, 0, 127))
  }

  /// Sent with the clock, through the engine: every message in frame order, the clock's first on a
  /// shared frame (Song Position and Start before bar one's note), and Stop on the run's last frame
  /// after the notes' releases there.
  @Test func withTheClockInFrameOrder() throws {
    var settings = PlaybackSettings(tempo: try Tempo(bpm: 120), subdivision: try Subdivision(2), length: .beats(2))
    settings.programme.countIn = .bars(1)
    let engine = ClickEngine(settings: settings)
    var sent: [(Int64, MIDIMessage)] = []
    engine.sendMIDI(clock: true, notes: MIDINoteMap()) { _, frame, message in sent.append((frame, message)) }
    while !engine.isFinished { _ = engine.renderPeriod(frames: 256) }

    #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    let notes = sent.filter { if case .note(.noteOn) = $0.1 { true } else { false } }
    // The count-in's four beats, then two beats and their eighths.
    #expect(notes.map(\.0) == [0, 24_000, 48_000, 72_000, 96_000, 108_000, 120_000, 132_000])
    let barOne = sent.filter { $0.0 == 96_000 }.map(\.1)
    #expect(
      barOne == [
        .clock(.songPosition(0)), .clock(.start), .clock(.tick), .note(.noteOn(channel: 10, note: 34, velocity: 127)),
      ])
    #expect(sent.last.map { $0.1 } == .clock(.stop))
    #expect(sent.last.map { $0.0 } == 143_999)
  }
}
