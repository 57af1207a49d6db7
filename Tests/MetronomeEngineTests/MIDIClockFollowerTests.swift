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

  /// The frame of a beat written "bar.beat@frame".
  private func frame(of beat: String) -> Int { beat.split(separator: "@").last.flatMap { Int($0) } ?? -1 }
}
