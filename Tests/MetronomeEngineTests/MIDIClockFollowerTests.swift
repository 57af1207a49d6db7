import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import OpenCombine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MIDIClockFollowerTests {
  /// Beats of a metronome sending MIDI clock and of one following it, as "bar.beat@frame".
  ///
  /// The two are rendered side by side 256 frames at a time up to `frames`, as two clients of one
  /// JACK server are: each period's messages reach the follower in the same period. `between` is
  /// called with each period's first frame and both engines before it is rendered.
  private func play(
    _ sent: PlaybackSettings, toFrame frames: Int64,
    between: @escaping (Int64, ClickEngine, ClickEngine) -> Void = {
      _, _, _ in
    }
  ) throws -> (sent: [String], followed: [String], follower: ClickEngine) {
    let sender = ClickEngine(settings: sent)
    var settings = PlaybackSettings(tempo: try Tempo(bpm: 90))
    settings.startsPlaying = false
    let follower = ClickEngine(settings: settings)
    var following = MIDIClockFollower(sampleRate: .standard)
    var sentBeats: [Beat] = []
    var followedBeats: [Beat] = []
    let recordings = [
      sender.beats.sink { sentBeats.append($0) }, follower.beats.sink { followedBeats.append($0) },
    ]
    defer { for recording in recordings { recording.cancel() } }
    sender.sendMIDI(clock: true, notes: nil) { _, frame, message in
      if case .clock(let clock) = message { following.receive(clock, atFrame: frame) }
    }
    follower.follow { following.follow(cycleStart: $0, tempo: $1, meter: $2) }
    while follower.renderer.cursor < frames {
      between(sender.renderer.cursor, sender, follower)
      _ = sender.renderPeriod(frames: 256)
      _ = follower.renderPeriod(frames: 256)
    }
    #expect(followedBeats.allSatisfy { $0.syncSource == .midi })
    let text = { (beats: [Beat]) in beats.map { "\($0.bar).\($0.beatInBar)@\($0.frame)" } }
    return (text(sentBeats.filter { !$0.isCountIn }), text(followedBeats), follower)
  }

  /// Following a clock at 137 in 4/4 counted in for a bar: nothing during the count-in (clocked,
  /// but not started), then every beat on the sender's own frame from its Start, numbered alike,
  /// at its tempo.
  @Test func followsAClockOnItsExactFrames() throws {
    let sent = PlaybackSettings(tempo: try Tempo(bpm: 137), programme: Programme(countIn: .bars(1)))

    let (sentBeats, followed, follower) = try play(sent, toFrame: 300_000)

    #expect(followed.count >= 10)
    #expect(followed == Array(sentBeats.prefix(followed.count)))
    #expect(followed.first == "1.1@84088")
    #expect(follower.viewModel.currentState.tempo.bpm == 137)
  }

  /// A Stop stops the follower; the sender playing on from bar 1 again sends Start, and the
  /// follower plays with it again; a tempo change at the sender moves the follower's beats with
  /// the sender's from the next beat it measures.
  @Test func stopsStartsAndTakesATempoChange() throws {
    let (sentBeats, followed, follower) = try play(PlaybackSettings(tempo: try Tempo(bpm: 120)), toFrame: 400_000) {
      start, sender, _ in
      switch start {
      case 60_160, 120_064: sender.viewModel.actions.send(.togglePlaying)
      case 240_128: sender.viewModel.tempo.send(150)
      default: break
      }
    }

    #expect(followed.prefix(3) == ["1.1@0", "1.2@24000", "1.3@48000"])
    // Nothing while the sender was paused, from 60160 to 120064.
    #expect(!followed.map(frame).contains { (60_160..<120_064).contains($0) })
    let afterTheChange = sentBeats.filter { frame(of: $0) > 300_000 }
    #expect(afterTheChange.count >= 4)
    #expect(afterTheChange.allSatisfy(followed.contains), "\(followed)")
    #expect(follower.viewModel.currentState.tempo.bpm == 150)
  }

  /// A sender's run that ends stops the follower with it: its six beats and none after.
  @Test func theSendersEndStopsTheFollower() throws {
    let (sentBeats, followed, follower) = try play(
      PlaybackSettings(tempo: try Tempo(bpm: 120), length: .beats(6)), toFrame: 300_000)

    #expect(sentBeats.count == 6)
    #expect(followed == sentBeats)
    #expect(follower.viewModel.currentState.isPlaying == false)
  }

  /// The anchor a follower given `messages` (each on its frame) gives for a cycle from frame 0, at
  /// 90 in 4/4.
  private func anchor(after messages: [(MIDIClock.Message, Int64)]) throws -> TransportAnchor? {
    var follower = MIDIClockFollower(sampleRate: .standard)
    for (message, frame) in messages { follower.receive(message, atFrame: frame) }
    return try follower.follow(cycleStart: 0, tempo: Tempo(bpm: 90), meter: .fourFour) ?? nil
  }

  /// `count` ticks `spacing` frames apart, the first on `frame`.
  private func ticks(_ count: Int, from frame: Int64, spacing: Int64) -> [(MIDIClock.Message, Int64)] {
    (0..<Int64(count)).map { (.tick, frame + $0 * spacing) }
  }

  /// A Continue plays from the Song Position sent before it; a Start from bar one.
  ///
  /// Six ticks a sixteenth: 20 sixteenths into 4/4 is bar 2's second beat. Without either, ticks
  /// alone play nothing.
  @Test func aContinuePlaysFromTheSongPositionAndAStartFromBarOne() throws {
    let continued = try #require(
      try anchor(after: [(.songPosition(20), 0), (.continue, 0)] + ticks(3, from: 0, spacing: 1_000)))
    #expect([continued.bar, continued.beatInBar] == [2, 2])
    #expect(continued.frame == 0)
    #expect(continued.tempo.bpm == 120)
    let started = try #require(
      try anchor(after: [(.songPosition(20), 0), (.start, 0)] + ticks(3, from: 0, spacing: 1_000)))
    #expect([started.bar, started.beatInBar] == [1, 1])
    #expect(try anchor(after: [(.songPosition(20), 0)] + ticks(3, from: 0, spacing: 1_000)) == nil)
  }

  /// A Continue with no Song Position before it plays from the song's start.
  @Test func aContinueAloneContinuesFromTheStart() throws {
    let continued = try #require(try anchor(after: [(.continue, 0)] + ticks(3, from: 0, spacing: 1_000)))
    #expect([continued.bar, continued.beatInBar] == [1, 1])
    #expect(continued.frame == 0)
  }

  /// Ticks exactly 2.5 s apart (a clock at 1 BPM) are still measured; the third tick already
  /// measures a change that the second began.
  @Test func theSlowestClockIsMeasuredAndAChangeFromTheThirdTick() throws {
    let slowest = try #require(try anchor(after: [(.start, 0)] + ticks(3, from: 0, spacing: 120_000)))
    #expect(slowest.tempo.bpm == 1)
    let changed = try #require(try anchor(after: [(.start, 0), (.tick, 0), (.tick, 1_000), (.tick, 1_749)]))
    #expect(changed.tempo.bpm == 160.2)
  }

  /// The tempo is measured from a change's first tick.
  ///
  /// Over the last quarter's ticks, or over those since one came more than a quarter sooner or a
  /// third later than the one before (exactly a quarter or a third is wavering), or since a pause
  /// of more than 2.5 s, whose first tick alone measures nothing (the metronome's own 90 stands).
  @Test(arguments: [
    (1_000, 749, 0, 3, 160.2), (1_000, 750, 0, 3, 123.9), (1_500, 2_001, 0, 3, 60.0), (1_500, 2_000, 0, 3, 76.8),
    (1_000, 1_200, 144_000, 3, 100.0), (1_000, 1_200, 144_000, 1, 90),
  ])
  func aTempoChangeIsMeasuredFromItsFirstTick(before: Int, after: Int, pause: Int, count: Int, bpm: Double) throws {
    let steady = ticks(30, from: 0, spacing: Int64(before))
    let changed = ticks(count, from: 29 * Int64(before) + Int64(after) + Int64(pause), spacing: Int64(after))
    let followed = try #require(try anchor(after: [(.start, 0)] + steady + changed))
    #expect(followed.tempo.bpm == bpm)
  }

  /// The frame of a beat written "bar.beat@frame".
  private func frame(of beat: String) -> Int { beat.split(separator: "@").last.flatMap { Int($0) } ?? -1 }
}
