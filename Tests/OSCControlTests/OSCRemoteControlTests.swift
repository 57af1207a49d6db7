import CombineSchedulers
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OSCControl
import OpenCombineShim
import TerminalUI
import Testing

/// klick's remote control of a view model in virtual time: packets handed in as a socket would,
/// the session inputs they make applied as a session would, replies collected instead of sent.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct OSCRemoteControlTests {
  private let scheduler = TestScheduler<AudioTime, Never>(now: 0)
  private let client = OSCEndpoint(host: "127.0.0.1", port: 40_000)
  private let viewModel: MetronomeViewModel
  private let control: OSCRemoteControl
  private let sent: Box<[(packet: [UInt8], to: OSCEndpoint)]> = Box([])
  private let logged: Box<[String]> = Box([])
  private let session: RecordingSession

  init() {
    viewModel = MetronomeViewModel(autoplay: true, beatScheduler: scheduler.limited().eraseToBeatScheduler())
    session = RecordingSession(store: viewModel)
    let (sent, logged) = (self.sent, self.logged)
    control = OSCRemoteControl(
      store: viewModel, fixed: KlickState(), send: { sent.value.append(($0, $1)) },
      log: { logged.value.append($0) })
  }

  /// A control of `viewModel` of its own, sending and logging where this test's does.
  private func control(of viewModel: MetronomeViewModel) -> OSCRemoteControl {
    let (sent, logged) = (self.sent, self.logged)
    return OSCRemoteControl(
      store: viewModel, fixed: KlickState(), send: { sent.value.append(($0, $1)) },
      log: { logged.value.append($0) })
  }

  private func send(_ path: String, _ arguments: [OSCArgument] = []) {
    control.received(OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: session)
  }

  /// What was sent, read back, with where it went.
  private var replies: [String] {
    sent.value.map { "\((try? OSCCodec.messages(in: $0.packet))?.first?.description ?? "?") → \($0.to.port)" }
  }

  /// At 120 the beats are half a second apart; a tempo set between two beats times the next.
  @Test func aTempoSetOverOSCIsHeardFromTheNextBeat() {
    let beats = scheduler.record(viewModel.beat.map(\.frame))
    scheduler.advance(to: 0.75)
    send("/klick/simple/set_tempo", [.int32(96)])
    scheduler.advance(to: 1.5)
    #expect(beats.values == [0, 24_000, 54_000])
    #expect(viewModel.currentState.tempo.bpm == 96)
  }

  @Test func registeredClientsHearTheValueInForceAndTheTempoAsItChanges() {
    send("/klick/register_client")
    send("/klick/simple/set_meter", [.int32(5), .int32(4)])
    send("/klick/simple/set_tempo", [.float32(5_000)])
    control.tellChanges()
    control.tellChanges()
    #expect(
      replies == [
        "/klick/simple/meter ,ii 5 4 → 40000", "/klick/simple/tempo ,f 1000.0 → 40000",
        "/klick/simple/current_tempo ,f 1000.0 → 40000",
      ])
    #expect(viewModel.currentState.meter.signature == "5/4")
  }

  /// As klick does, a pattern is kept as written, and forgotten when the beats of a bar change.
  @Test func aPatternIsKeptUntilTheBeatsOfABarChange() {
    send("/klick/register_client")
    send("/klick/simple/set_pattern", [.string("X..x")])
    send("/klick/simple/set_meter", [.int32(4), .int32(8)])
    send("/klick/simple/set_meter", [.int32(3), .int32(8)])
    send("/klick/simple/query")
    #expect(
      replies.prefix(3) == [
        "/klick/simple/pattern ,s \"X..x\" → 40000", "/klick/simple/meter ,ii 4 8 → 40000",
        "/klick/simple/meter ,ii 3 8 → 40000",
      ])
    #expect(replies.last == "/klick/simple/pattern ,s \"\" → 40000")
  }

  @Test func startStopAndQuit() {
    send("/klick/metro/stop")
    #expect(!viewModel.currentState.isPlaying)
    send("/klick/metro/stop")
    #expect(!viewModel.currentState.isPlaying)
    send("/klick/metro/start")
    #expect(viewModel.currentState.isPlaying)
    send("/klick/quit")
    #expect(session.inputs.filter { $0 == .command(.quit) }.count == 1)
    // Asked as values, so that a stop sent twice stops once and never starts.
    let playing = session.inputs.filter { if case .action(.setPlaying) = $0 { true } else { false } }
    #expect(playing == [.action(.setPlaying(false)), .action(.setPlaying(false)), .action(.setPlaying(true))])
  }

  /// A packet that is not OSC, or a message klick does not know, is one line and no reply.
  @Test func badPacketsAreOneLineEachAndNoReply() {
    send("/klick/register_client")
    control.received(Array(OSCCodec.packet(for: OSCMessage("/klick/ping")).dropLast()), from: client, into: session)
    send("/klick/bogus", [.int32(1)])
    send("/klick/metro/set_type", [.string("jack")])
    #expect(
      logged.value == [
        "OSC: ignored a packet of 15 bytes from 127.0.0.1:40000: its type tags are missing or not a padded string",
        "unknown message: /klick/bogus ,i",
        "OSC: /klick/metro/set_type: only --follow-transport follows the JACK transport, from the start of the run",
      ])
    #expect(replies == ["/klick/metro/type ,s \"simple\" → 40000"])
  }

  /// klick's map metronome over OSC: switching kinds stops, and the steady tempo or the map
  /// plays when next started; a map file loaded stops and plays from its start, in its meter and
  /// at its tempo; a preroll counts it in; a file that cannot be read is a line, and the map stays.
  @Test func mapsAreSwitchedToLoadedAndCountedIn() throws {
    let maps = [
      "a.map": try TempoMapParser.parse("4 4/4 100\n", source: "a.map"),
      "b.map": try TempoMapParser.parse("2 3/4 90\n", source: "b.map"),
    ]
    let viewModel = MetronomeViewModel(
      initialTempo: try Tempo(bpm: 100), programme: Programme(map: maps["a.map"]), autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
    var fixed = KlickState()
    fixed.mapFile = "a.map"
    let (sent, logged) = (self.sent, self.logged)
    let control = OSCRemoteControl(
      store: viewModel, fixed: fixed,
      loadMap: { path in
        guard let map = maps[path] else { throw Refusal() }
        return map
      }, send: { sent.value.append(($0, $1)) }, log: { logged.value.append($0) })
    let send = { (path: String, arguments: [OSCArgument]) in
      control.received(
        OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: RecordingSession(store: viewModel))
    }
    send("/klick/register_client", [])
    send("/klick/metro/set_type", [.string("simple")])
    #expect(!viewModel.currentState.isPlaying)
    send("/klick/metro/set_type", [.string("map")])
    send("/klick/map/load_file", [.string("b.map")])
    send("/klick/map/load_file", [.string("c.map")])
    send("/klick/map/set_preroll", [.int32(1)])
    send("/klick/map/set_preroll", [.int32(99)])
    let beats = scheduler.record(viewModel.beat.map { [$0.isCountIn ? 0 : $0.bar, $0.beatInBar] })
    send("/klick/metro/start", [])
    scheduler.advance(to: 2.5)
    #expect(beats.values == [[0, 1], [0, 2], [0, 3], [1, 1]])
    #expect(viewModel.currentState.meter.signature == "3/4")
    #expect(viewModel.currentState.tempo.bpm == 90)
    #expect(
      replies == [
        "/klick/metro/type ,s \"simple\" → 40000", "/klick/metro/type ,s \"map\" → 40000",
        "/klick/map/filename ,s \"b.map\" → 40000", "/klick/map/filename ,s \"b.map\" → 40000",
        "/klick/map/preroll ,i 1 → 40000", "/klick/map/preroll ,i 1 → 40000", "/klick/metro/active ,i 1 → 40000",
      ])
    #expect(
      logged.value == [
        "OSC: /klick/map/load_file: not there",
        "OSC: /klick/map/set_preroll: preroll 99: -1 for none, 0 for two beats, or 1 to 64 bars",
      ])
  }

  /// Following MIDI clock, whose tempo no setter changes, the tempo setters are a line each and
  /// answer with the tempo in force; the meter is still set.
  @Test func aFollowedClocksTempoStaysWhatItIs() {
    let (sent, logged) = (self.sent, self.logged)
    let control = OSCRemoteControl(
      store: viewModel, fixed: KlickState(), tempoFollows: "MIDI clock",
      send: { sent.value.append(($0, $1)) }, log: { logged.value.append($0) })
    let send = { (path: String, arguments: [OSCArgument]) in
      control.received(OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: session)
    }
    send("/klick/register_client", [])
    send("/klick/simple/set_tempo", [.float32(96)])
    send("/klick/simple/set_tempo_increment", [.float32(4)])
    send("/klick/simple/set_meter", [.int32(3), .int32(4)])
    #expect(viewModel.currentState.tempo.bpm == 120)
    #expect(viewModel.currentState.programme.speedTrainer == .off)
    #expect(
      replies == [
        "/klick/simple/tempo ,f 120.0 → 40000", "/klick/simple/tempo_increment ,f 0.0 → 40000",
        "/klick/simple/meter ,ii 3 4 → 40000",
      ])
    #expect(
      logged.value == [
        "OSC: /klick/simple/set_tempo: the tempo follows MIDI clock; what is in force stays",
        "OSC: /klick/simple/set_tempo_increment: the tempo follows MIDI clock; what is in force stays",
      ])
  }

  /// Without a map, klick's map metronome plays the tempo, meter and pattern in force as a map.
  @Test func theMapKindWithoutAMapPlaysTheTempoInForce() throws {
    send("/klick/register_client")
    send("/klick/simple/set_meter", [.int32(3), .int32(4)])
    send("/klick/simple/set_pattern", [.string("X.x")])
    send("/klick/metro/set_type", [.string("map")])
    send("/klick/map/query")
    #expect(!viewModel.currentState.isPlaying)
    let map = try #require(viewModel.currentState.programme.map)
    #expect(map.sections.map(\.meter) == [try Meter(3, 4)])
    #expect(map.sections.map(\.tempo) == [.steady(120)])
    #expect(map.sections.map { $0.pattern?.description } == ["X.x"])
    #expect(viewModel.currentState.tempo.bpm == 120)
    #expect(
      replies.suffix(4) == [
        "/klick/metro/type ,s \"map\" → 40000", "/klick/map/filename ,s \"\" → 40000",
        "/klick/map/preroll ,i -1 → 40000", "/klick/map/tempo_multiplier ,f 1.0 → 40000",
      ])
  }

  /// klick's sound and pitch messages hand the sound to play to the run, which reports them from
  /// then on; one it cannot play is a line, and the sound in force stays.
  @Test func soundsAndPitchesAreHandedToTheRun() {
    let sounds = Sounds()
    let (sent, logged) = (self.sent, self.logged)
    let control = OSCRemoteControl(
      store: viewModel, fixed: KlickState(), sounds: sounds, send: { sent.value.append(($0, $1)) },
      log: { logged.value.append($0) })
    let send = { (path: String, arguments: [OSCArgument]) in
      control.received(OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: session)
    }
    send("/klick/config/set_sound", [.int32(3)])
    send("/klick/config/set_sound_pitch", [.float32(2), .float32(0.5)])
    send("/klick/config/set_sound", [.string("a.wav"), .string("b.wav")])
    send("/klick/config/set_sound", [.int32(9)])
    send("/klick/config/query", [])
    #expect(
      sounds.played == [
        "builtIn(3) at 1.0, 1.0", "builtIn(3) at 2.0, 0.5", "files(emphasis: \"a.wav\", normal: \"b.wav\") at 2.0, 0.5",
      ])
    #expect(logged.value == ["OSC: /klick/config/set_sound: not there"])
    #expect(
      replies.prefix(3) == [
        "/klick/config/sound ,ss \"a.wav\" \"b.wav\" → 40000", "/klick/config/sound_volume ,ff 1.0 1.0 → 40000",
        "/klick/config/sound_pitch ,ff 2.0 0.5 → 40000",
      ])
  }

  private struct Refusal: Error, CustomStringConvertible {
    var description: String { "not there" }
  }

  /// The run's sounds as the control changes them: each played, the sound 9 refused.
  private final class Sounds: ClickSounds {
    var inForce = (sound: KlickState.Sound.builtIn(0), pitch: KlickState.SoundPair(emphasis: 1, normal: 1))
    var played: [String] = []

    func play(_ sound: KlickState.Sound, pitch: KlickState.SoundPair) throws {
      guard sound != .builtIn(9) else { throw Refusal() }
      played.append("\(sound) at \(pitch.emphasis), \(pitch.normal)")
      inForce = (sound, pitch)
    }
  }

  /// klick's speed trainer over OSC, as klick ramps it: from the beat after the next, each beat
  /// a quarter of the increment more, up to the limit; its values and the tempo heard are
  /// reported, the tempo set stays what it was; started again it starts from its start.
  @Test func klicksSpeedTrainerRampsTheTempoBeatByBeat() {
    let beats = scheduler.record(viewModel.beat.map { [$0.frame, Int64($0.tempo.bpm)] })
    // The tempo heard is the beats' as the session hands them on.
    let hearing = viewModel.beat.sink { [control] beat in MainActor.assumeIsolated { control.heard(beat) } }
    defer { hearing.cancel() }
    send("/klick/register_client")
    scheduler.advance(to: 0.25)
    send("/klick/simple/set_tempo_limit", [.float32(122)])
    send("/klick/simple/set_tempo_increment", [.float32(4)])
    scheduler.advance(to: 2)
    #expect(beats.values.map(\.[1]) == [120, 120, 121, 122, 122])
    #expect(beats.values.map(\.[0]) == [0, 24_000, 47_802, 71_409, 95_015])
    control.tellChanges()
    send("/klick/simple/query")
    // klick's replies, apart from the beats heard that it never sends.
    #expect(
      replies.filter { !$0.hasPrefix("/metronome/beat") } == [
        "/klick/simple/tempo_limit ,f 122.0 → 40000", "/klick/simple/tempo_increment ,f 4.0 → 40000",
        "/klick/simple/current_tempo ,f 122.0 → 40000", "/klick/simple/tempo ,f 120.0 → 40000",
        "/klick/simple/tempo_increment ,f 4.0 → 40000", "/klick/simple/tempo_start ,f 0.0 → 40000",
        "/klick/simple/tempo_limit ,f 122.0 → 40000", "/klick/simple/current_tempo ,f 122.0 → 40000",
        "/klick/simple/meter ,ii 4 4 → 40000", "/klick/simple/pattern ,s \"\" → 40000",
      ])
    send("/klick/simple/set_tempo_start", [.float32(100)])
    send("/klick/metro/stop")
    send("/klick/metro/start")
    #expect(viewModel.currentState.tempo.bpm == 120)
    scheduler.advance(to: 3.3)
    #expect(beats.values.dropFirst(5).map(\.[1]) == [100, 100, 101])
    // Turned off, it stays at the tempo it got to; a tempo set is the current one at once.
    send("/klick/simple/set_tempo_increment", [.float32(0)])
    scheduler.advance(to: 4.5)
    sent.value = []
    control.tellChanges()
    #expect(replies == ["/klick/simple/current_tempo ,f 102.0 → 40000"])
    send("/klick/simple/set_tempo", [.float32(90)])
    control.tellChanges()
    #expect(replies.last == "/klick/simple/current_tempo ,f 90.0 → 40000")
  }

  /// klick's volume and sound volumes scale the clicks from the next beat: all of them, the
  /// accented ones, the others; a run at volume 0 has nothing to scale and says so.
  @Test func volumesSetOverOSCScaleTheClicksFromTheNextBeat() {
    let volumes = scheduler.record(viewModel.beat.map(\.volume))
    send("/klick/register_client")
    scheduler.advance(to: 0.25)
    send("/klick/config/set_volume", [.float32(0.5)])
    send("/klick/config/set_sound_volume", [.int32(2), .double(0.5)])
    scheduler.advance(to: 2)
    #expect(volumes.values == [1, 0.25, 0.25, 0.25, 1])
    #expect(replies == ["/klick/config/volume ,f 0.5 → 40000", "/klick/config/sound_volume ,ff 2.0 0.5 → 40000"])

    var silent = KlickState()
    silent.volume = 0
    let logged = self.logged
    let quiet = OSCRemoteControl(
      store: viewModel, fixed: silent, send: { _, _ in }, log: { logged.value.append($0) })
    quiet.received(
      OSCCodec.packet(for: OSCMessage("/klick/config/set_volume", [.float32(1)])), from: client, into: session)
    #expect(viewModel.currentState.gains.overall == 0.5)
    #expect(
      logged.value == [
        "OSC: /klick/config/set_volume: the run plays at volume 0, which nothing scales: start it with a --volume above 0"
      ])
    // The volume asked for is the run's own volume scaled: at --volume 0.5, 0.25 is half.
    var half = KlickState()
    half.volume = 0.5
    OSCRemoteControl(store: viewModel, fixed: half, send: { _, _ in }, log: { _ in }).received(
      OSCCodec.packet(for: OSCMessage("/klick/config/set_volume", [.float32(0.25)])), from: client, into: session)
    #expect(viewModel.currentState.gains.overall == 0.5)
  }

  /// The tempo heard is 0 while stopped, and once started again it is the tempo set until a beat
  /// is heard, not the one a trainer had ramped to before the stop.
  @Test func theTempoHeardIsNoneWhileStoppedAndTheTempoSetOnceStarted() {
    let beats = scheduler.record(viewModel.beat)
    send("/klick/register_client")
    send("/klick/simple/set_tempo_increment", [.float32(8)])
    scheduler.advance(to: 1.6)
    for beat in beats.values { control.heard(beat) }
    control.tellChanges()
    #expect(replies.last?.hasPrefix("/klick/simple/current_tempo ,f 12") == true, "\(replies)")
    send("/klick/metro/stop")
    control.tellChanges()
    #expect(control.state.currentTempo == 0)
    #expect(replies.last == "/klick/simple/current_tempo ,f 0.0 → 40000")
    send("/klick/metro/start")
    control.tellChanges()
    #expect(control.state.currentTempo == 120)
  }

  /// A run that cannot load maps (klick's map metronome has none to load) says so.
  @Test func aMapCannotBeLoadedWhereTheRunLoadsNone() {
    send("/klick/metro/set_type", [.string("map")])
    send("/klick/map/load_file", [.string("song.map")])
    #expect(logged.value == ["OSC: /klick/map/load_file: not available in this run; what is in force stays"])
    #expect(viewModel.currentState.loadedMap == nil)
  }

  /// While a map plays, its multiplier sets the tempo (the map's first times the multiplier) from
  /// the next beat, and the multiplier in force is what the keys made of the tempo since.
  @Test func aMapsTempoMultiplierSetsItsTempo() throws {
    let map = try TempoMapParser.parse("4 4/4 100\n", source: "map")
    let viewModel = MetronomeViewModel(
      initialTempo: try Tempo(bpm: 100), programme: Programme(map: map), autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
    var fixed = KlickState()
    fixed.kind = .map
    let sent = self.sent
    let control = OSCRemoteControl(
      store: viewModel, fixed: fixed, send: { sent.value.append(($0, $1)) },
      log: { _ in })
    let send = { (path: String, arguments: [OSCArgument]) in
      control.received(
        OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: RecordingSession(store: viewModel))
    }
    let beats = scheduler.record(viewModel.beat.map(\.frame))
    send("/klick/register_client", [])
    scheduler.advance(to: 0.3)
    send("/klick/map/set_tempo_multiplier", [.float32(1.5)])
    scheduler.advance(to: 1)
    #expect(beats.values == [0, 19_200, 38_400])
    viewModel.dispatch(.setTempo(75))
    send("/klick/map/query", [])
    #expect(
      replies == [
        "/klick/map/tempo_multiplier ,f 1.5 → 40000", "/klick/map/filename ,s \"\" → 40000",
        "/klick/map/preroll ,i -1 → 40000", "/klick/map/tempo_multiplier ,f 0.75 → 40000",
      ])
  }

  /// A JACK client's port as klick's `/klick/config` messages change it, kept in a list.
  private final class Ports: OutputConnections, @unchecked Sendable {
    var connected: [String] = []
    func availablePorts() -> [String] { ["system:playback_1", "system:playback_2"] }
    func connect(to destination: String) throws {
      guard availablePorts().contains(destination) else { throw Refusal(port: destination) }
      connected.append(destination)
    }
    func autoconnect() { connected = availablePorts() }
    func disconnectAll() { connected = [] }

    struct Refusal: Error, CustomStringConvertible {
      let port: String
      var description: String { "no port \(port)" }
    }
  }

  /// klick's port messages reach the output's port: listed to whoever asks, connected one by one
  /// (one that fails is a line), all undone, the physical ones again; a run without JACK says it
  /// has none, and lists none.
  @Test func portMessagesConnectTheOutputsPortWhereThereIsOne() {
    let ports = Ports()
    let (sent, logged) = (self.sent, self.logged)
    let control = OSCRemoteControl(
      store: viewModel, fixed: KlickState(), connections: ports,
      send: { sent.value.append(($0, $1)) }, log: { logged.value.append($0) })
    let send = { (path: String, arguments: [OSCArgument]) in
      control.received(OSCCodec.packet(for: OSCMessage(path, arguments)), from: client, into: session)
    }
    send("/klick/config/get_available_ports", [.string("osc.udp://127.0.0.1:9001/")])
    #expect(replies == ["/klick/config/available_ports ,ss \"system:playback_1\" \"system:playback_2\" → 9001"])
    send("/klick/config/connect", [.string("system:playback_2"), .string("nowhere:in")])
    #expect(ports.connected == ["system:playback_2"])
    send("/klick/config/disconnect_all", [])
    #expect(ports.connected == [])
    send("/klick/config/autoconnect", [])
    #expect(ports.connected == ["system:playback_1", "system:playback_2"])

    self.send("/klick/config/autoconnect")
    self.send("/klick/config/get_available_ports")
    #expect(replies.last == "/klick/config/available_ports , → 40000")
    #expect(
      logged.value == [
        "OSC: /klick/config/connect: no port nowhere:in",
        "OSC: /klick/config/autoconnect: only a run with --jack has a port to connect",
      ])
  }

  /// Each beat heard is told to the registered clients, and to no one before one registers.
  @Test func registeredClientsAreToldEachBeatAsItIsHeard() throws {
    let beats = scheduler.record(viewModel.beat)
    scheduler.advance(to: 0.5)
    let (first, second) = (try #require(beats.values.first), try #require(beats.values.last))
    control.heard(first)
    send("/klick/register_client")
    control.heard(second)
    #expect(
      replies == ["/metronome/beat ,iiissfhd 1 2 0 \"beats\" \"normal\" 120.0 24000 0.5 → 40000"])
  }

  /// Each click says its voice: a subdivision is `beats` with its click in the beat from 1, the
  /// second voice's clicks `polyrhythm`, counted as its own beats.
  @Test func eachBeatToldSaysItsVoiceAndItsClickInTheBeat() throws {
    let viewModel = MetronomeViewModel(
      initialSubdivision: try Subdivision(2), initialPolyrhythm: 3, autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
    let control = control(of: viewModel)
    let beats = scheduler.record(viewModel.beat)
    scheduler.advance(to: 0.7)
    control.received(
      OSCCodec.packet(for: OSCMessage("/klick/register_client")), from: client, into: RecordingSession(store: viewModel)
    )
    for beat in beats.values { control.heard(beat) }
    #expect(
      replies == [
        "/metronome/beat ,iiissfhd 1 1 0 \"beats\" \"strong\" 120.0 0 0.0 → 40000",
        "/metronome/beat ,iiissfhd 1 1 0 \"polyrhythm\" \"normal\" 120.0 0 0.0 → 40000",
        "/metronome/beat ,iiissfhd 1 1 1 \"beats\" \"normal\" 120.0 12000 0.25 → 40000",
        "/metronome/beat ,iiissfhd 1 2 0 \"beats\" \"normal\" 120.0 24000 0.5 → 40000",
        "/metronome/beat ,iiissfhd 1 2 0 \"polyrhythm\" \"normal\" 120.0 32000 0.6666666666666666 → 40000",
      ])
  }

  /// `/klick/simple/tap` with a time taps at that time, in seconds: two taps 0.6 s apart set 100
  /// BPM however late they arrive; without one, it taps when it arrives.
  @Test func aTapsTimeIsWhenItWasTapped() {
    send("/klick/simple/tap", [.double(10)])
    send("/klick/simple/tap", [.double(10.6)])
    send("/klick/simple/tap")
    #expect(
      session.inputs == [
        .action(.tapTempo(atSeconds: 10)), .action(.tapTempo(atSeconds: 10.6)), .command(.tapTempo),
      ])
    #expect(viewModel.currentState.tempo.bpm == 100)
  }

  /// metronome's own namespace: any key by its script name, the values keys only step, and the
  /// state the display shows, to the registered clients after each change.
  @Test func metronomesNamespaceTakesEveryKeyAndTellsTheState() {
    send("/klick/register_client")
    send("/metronome/key", [.string("up")])
    send("/metronome/key", [.string("s")])
    send("/metronome/key", [.string("w")])
    send("/metronome/key", [.string("3")])
    send("/metronome/key", [.string("m")])
    #expect(viewModel.currentState.tempo.bpm == 130)
    #expect(viewModel.currentState.subdivision.count == 2)
    #expect(viewModel.currentState.pattern.description == "Xxox")
    #expect(viewModel.currentState.isMuted)
    send("/metronome/set_subdivision", [.int32(4), .float32(60)])
    send("/metronome/set_meter", [.int32(7), .int32(8)])
    send("/metronome/set_pattern", [.string("X..x.x.")])
    sent.value.removeAll()
    send("/metronome/set_tempo", [.int32(97)])
    #expect(
      replies == [
        "/metronome/tempo ,f 97.0 → 40000", "/metronome/meter ,ii 7 8 → 40000", "/metronome/playing ,i 1 → 40000",
        "/metronome/pattern ,s \"X..x.x.\" → 40000", "/metronome/subdivision ,if 4 60.0 → 40000",
        "/metronome/muted ,i 1 → 40000", "/metronome/second_voice ,ii 0 0 → 40000", "/metronome/song ,i 0 → 40000",
        "/metronome/looping ,i 0 → 40000",
      ])
    sent.value.removeAll()
    send("/metronome/key", [.string("r")])
    send("/metronome/query", [.string("9001")])
    #expect(replies.suffix(9).allSatisfy { $0.hasSuffix("→ 9001") })
    #expect(replies.suffix(9).first == "/metronome/tempo ,f 120.0 → 9001")
    send("/metronome/key", [.string("q")])
    #expect(session.inputs.last == .command(.quit))
  }

  @Test func metronomesNamespaceRefusesWhatIsNotAKeyOrAValue() {
    send("/metronome/key", [.string("F13")])
    send("/metronome/set_meter", [.int32(7), .int32(3)])
    send("/metronome/set_subdivision", [.int32(12)])
    send("/metronome/bogus")
    #expect(
      logged.value == [
        "/metronome/key: no key 'F13': name one as key scripts do (space, up, ], 1, …)",
        "/metronome/set_meter: meter denominator 3 is not one of 1, 2, 4, 8, 16, 32, 64",
        "/metronome/set_subdivision: a subdivision of 12 clicks per beat is out of range: use 1 (none) to 9",
        "unknown message: /metronome/bogus ,",
      ])
    #expect(sent.value.isEmpty)
  }

  /// The state told is the state: stopped, unmuted, a second voice muted, the second song of a
  /// setlist (from 1), a section looping.
  @Test func theStateToldIsTheStateWhateverItIs() throws {
    let song = { (bpm: Double) in
      Setlist.Song(
        title: "\(bpm)", map: TempoMap(sections: [TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(bpm))]))
    }
    let viewModel = MetronomeViewModel(
      initialPolyrhythm: 3, programme: Programme(setlist: Setlist(songs: [song(100), song(90)])),
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
    let control = control(of: viewModel)
    for action in [MetronomeAction.moveSong(by: 1), .togglePolyrhythmMute, .toggleSectionLoop] {
      viewModel.dispatch(action)
    }
    control.received(
      OSCCodec.packet(for: OSCMessage("/metronome/query")), from: client, into: RecordingSession(store: viewModel))
    #expect(
      replies == [
        "/metronome/tempo ,f 90.0 → 40000", "/metronome/meter ,ii 4 4 → 40000", "/metronome/playing ,i 0 → 40000",
        "/metronome/pattern ,s \"Xxxx\" → 40000", "/metronome/subdivision ,if 1 50.0 → 40000",
        "/metronome/muted ,i 0 → 40000", "/metronome/second_voice ,ii 3 1 → 40000", "/metronome/song ,i 2 → 40000",
        "/metronome/looping ,i 1 → 40000",
      ])
  }

  /// A query with anything but an address, or an address that is none, is a line and no reply.
  @Test func aQueryWithAWrongArgumentIsALine() {
    send("/metronome/query", [.int32(3)])
    send("/metronome/query", [.string("nowhere")])
    #expect(
      logged.value == [
        "unknown message: /metronome/query ,i",
        "/metronome/query: 'nowhere' is not an address: write osc.udp://HOST:PORT/ or a port",
      ])
    #expect(sent.value.isEmpty)
  }

  /// klick forgets the pattern when the beats of a bar change, and keeps it when they do not.
  @Test func aPatternIsForgottenOnlyWhenTheBeatsOfABarChange() {
    send("/klick/simple/set_pattern", [.string("X.x.")])
    send("/klick/simple/set_meter", [.int32(4), .int32(8)])
    #expect(viewModel.currentState.requestedPattern?.description == "X.x.")
    send("/klick/simple/set_meter", [.int32(3), .int32(4)])
    #expect(viewModel.currentState.requestedPattern == nil)
  }

  /// The speed trainer's start is told as set; a preroll of -1 is none, 0 to 64 bars are bars (0
  /// counting two beats, as klick's does).
  @Test func theTrainersStartIsToldAndAPrerollOfMinusOneIsNone() {
    send("/klick/register_client")
    send("/klick/simple/set_tempo_start", [.float32(90)])
    #expect(control.state.tempoStart == 90)
    #expect(replies.last == "/klick/simple/tempo_start ,f 90.0 → 40000")
    let map = TempoMap(sections: [TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(100))])
    let viewModel = MetronomeViewModel(
      programme: Programme(map: map), beatScheduler: scheduler.limited().eraseToBeatScheduler())
    let control = control(of: viewModel)
    let preroll = { (bars: Int32) in
      control.received(
        OSCCodec.packet(for: OSCMessage("/klick/map/set_preroll", [.int32(bars)])), from: client,
        into: RecordingSession(store: viewModel))
    }
    for bars in [2, 0, 64] as [Int32] {
      preroll(bars)
      #expect(viewModel.currentState.programme.countIn == .bars(Int(bars)))
    }
    preroll(-1)
    #expect(viewModel.currentState.programme.countIn == nil)
    preroll(65)
    #expect(logged.value.last?.contains("preroll 65: -1 for none") == true, "\(logged.value)")
  }

  @Test func klicksReadyGoesWhereAsked() {
    control.announceReady(to: OSCEndpoint(host: "localhost", port: 9001))
    #expect(replies == ["/klick/ready , → 9001"])
  }
}

/// A value the closures handed to the control write to.
private final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
