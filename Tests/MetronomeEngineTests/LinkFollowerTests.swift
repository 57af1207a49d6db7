import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import Testing

/// A Link session in the test's hands: a tempo and a beat running at it from an origin, which
/// the test, as another peer, may change between cycles.
private final class SharedTimeline: LinkSession {
  var tempo: Double
  var origin: (micros: Int64, beat: Double)
  var isPlaying: Bool
  var peers: Int
  /// What the metronome asked of the session, in order.
  var requests: [String] = []

  init(tempo: Double, beat: Double = 0, isPlaying: Bool, peers: Int) {
    self.tempo = tempo
    origin = (0, beat)
    self.isPlaying = isPlaying
    self.peers = peers
  }

  func beat(atMicros micros: Int64) -> Double { origin.beat + Double(micros - origin.micros) / 60e6 * tempo }

  func snapshot(atMicros micros: Int64, quantum: Double) -> LinkSnapshot {
    LinkSnapshot(tempo: tempo, beat: beat(atMicros: micros), isPlaying: isPlaying)
  }

  func setTempo(_ tempo: Tempo, atMicros micros: Int64) {
    requests.append("tempo \(tempo.bpm)")
    changeTempo(to: tempo.bpm, atMicros: micros)
  }

  func start(atMicros micros: Int64, quantum: Double) {
    requests.append("start")
    startPlaying(atMicros: micros, quantum: quantum)
  }

  func stop(atMicros micros: Int64) {
    requests.append("stop")
    isPlaying = false
  }

  /// A tempo change, as any peer makes it: the beat runs on from where it is.
  func changeTempo(to tempo: Double, atMicros micros: Int64) {
    origin = (micros, beat(atMicros: micros))
    self.tempo = tempo
  }

  /// A start, as any peer makes it: beat 0 now when alone, else on the next bar line.
  func startPlaying(atMicros micros: Int64, quantum: Double) {
    isPlaying = true
    let beat = beat(atMicros: micros)
    origin = (micros, peers == 0 ? 0 : beat - (beat / quantum).rounded(.up) * quantum)
  }
}

@Suite(.timeLimit(.minutes(1)))
struct LinkFollowerTests {
  /// An engine at `tempo` in 4/4 following `session`, rendered 256 frames at a time up to
  /// `frames`, `between` called with each period's first frame before it is followed; each beat
  /// heard as "bar.beat@frame".
  private func play(
    _ session: SharedTimeline, tempo: Double = 120, toFrame frames: Int64,
    between: @escaping (Int64, ClickEngine) -> Void = { _, _ in }
  ) throws -> (beats: [String], engine: ClickEngine) {
    var settings = PlaybackSettings(tempo: try Tempo(bpm: tempo))
    settings.startsPlaying = false
    let engine = ClickEngine(settings: settings)
    var follower = LinkFollower(sampleRate: .standard, startsPlaying: true)
    var beats: [Beat] = []
    let recording = engine.beats.sink { beats.append($0) }
    defer { recording.cancel() }
    engine.beforeEachPeriod { start in
      between(start, engine)
      // At 48 kHz a frame is 20⅚ µs: the session's clock reads the cycle's time to the microsecond.
      follower.follow(session, atFrame: start, heardAtMicros: start * 1_000 / 48, viewModel: engine.viewModel)
    }
    while engine.renderer.cursor < frames { _ = engine.renderPeriod(frames: 256) }
    #expect(beats.allSatisfy { $0.syncSource == .link })
    return (beats.map { "\($0.bar).\($0.beatInBar)@\($0.frame)" }, engine)
  }

  /// Alone, it looks for peers for a second and a half, then starts the session: beat 0 of bar 1
  /// on the first cycle from frame 72000 on, at its own tempo.
  @Test func aSessionOfOneStartsAfterLookingForPeers() throws {
    let session = SharedTimeline(tempo: 120, isPlaying: false, peers: 0)

    let (beats, _) = try play(session, toFrame: 150_000)

    #expect(beats == ["1.1@72192", "1.2@96192", "1.3@120192", "1.4@144192"])
    #expect(session.requests == ["start"])
  }

  /// A peer found while looking (at frame 25600, its session at beat 3.5 and not playing) is
  /// started with: beat 0 on the session's next bar line, half a beat on.
  @Test func aPeerFoundWhileLookingIsStartedWith() throws {
    let session = SharedTimeline(tempo: 120, beat: 3.5 - 25_600.0 / 24_000, isPlaying: false, peers: 0)

    let (beats, _) = try play(session, toFrame: 80_000) { start, _ in
      if start == 25_600 { session.peers = 1 }
    }

    #expect(session.requests == ["start"])
    #expect(beats == ["1.1@37600", "1.2@61600"])
  }

  /// Joining a session that plays at 100 with its beat at 5.3 takes its tempo and phase: the next
  /// session beat, 6 (bar 2, beat 3), is 0.7 × 28800 frames on; nothing is asked of the session.
  @Test func joiningAPlayingSessionTakesItsTempoAndPhase() throws {
    let session = SharedTimeline(tempo: 100, beat: 5.3, isPlaying: true, peers: 1)

    let (beats, engine) = try play(session, toFrame: 90_000)

    #expect(beats == ["2.3@20160", "2.4@48960", "3.1@77760"])
    #expect(engine.viewModel.currentState.tempo.bpm == 100)
    #expect(session.requests.isEmpty)
  }

  /// A start here in a session of others waits for its next bar line: at beat 2.5 of a bar of 4,
  /// one and a half beats on, at frame 36000; nothing sounds before it.
  @Test func aStartWaitsForTheSessionsBarLine() throws {
    let session = SharedTimeline(tempo: 120, beat: 2.5, isPlaying: false, peers: 1)

    let (beats, _) = try play(session, toFrame: 90_000)

    #expect(beats == ["1.1@36000", "1.2@60000", "1.3@84000"])
    #expect(session.requests == ["start"])
  }

  /// Another peer's change to 150 at frame 30000 (beat 1.25) moves the beats from there, in phase
  /// with the session: beat 2 three quarters of a 19200-frame beat on, at 44400.
  @Test func aPeersTempoChangeMovesTheBeatsInPhase() throws {
    let session = SharedTimeline(tempo: 120, isPlaying: true, peers: 1)

    let (beats, engine) = try play(session, toFrame: 90_000) { start, _ in
      if start == 29_952 { session.changeTempo(to: 150, atMicros: 625_000) }
    }

    #expect(beats == ["1.1@0", "1.2@24000", "1.3@44400", "1.4@63600", "2.1@82800"])
    #expect(engine.viewModel.currentState.tempo.bpm == 150)
    #expect(session.requests.isEmpty)
  }

  /// A tempo key here, pressed 100 frames before beat 3, goes to the session at the next cycle
  /// (frame 48128), for every peer from the session's next beat: beats 3 and 4 keep their frames,
  /// 19200 frames apart from there on.
  @Test func aTempoKeyHereSetsTheSessionsTempo() throws {
    let session = SharedTimeline(tempo: 120, isPlaying: true, peers: 1)

    let (beats, _) = try play(session, toFrame: 115_000) { start, engine in
      guard start == 0 else { return }
      engine.clock.schedule(after: AudioTime(frame: 47_900, sampleRate: .standard)) { engine.viewModel.tempo.send(150) }
    }

    #expect(session.requests == ["tempo 150.0"])
    #expect(session.tempo == 150)
    #expect(beats == ["1.1@0", "1.2@24000", "1.3@48000", "1.4@72000", "2.1@91200", "2.2@110400"])
  }

  /// Pausing here stops the session; a peer starting it again plays from its next bar line
  /// (beat 0 at frame 192000, bar 1 again); a peer stopping it pauses the metronome, which asks
  /// nothing more of the session.
  @Test func startsAndStopsGoBothWays() throws {
    let session = SharedTimeline(tempo: 120, isPlaying: true, peers: 1)

    let (beats, engine) = try play(session, toFrame: 300_000) { start, engine in
      switch start {
      case 49_920: engine.viewModel.actions.send(.togglePlaying)
      case 99_840: session.startPlaying(atMicros: 2_080_000, quantum: 4)
      case 239_872: session.isPlaying = false
      default: break
      }
    }

    #expect(session.requests == ["stop"])
    #expect(beats == ["1.1@0", "1.2@24000", "1.3@48000", "1.1@192000", "1.2@216000"])
    #expect(engine.viewModel.currentState.isPlaying == false)
  }
}
