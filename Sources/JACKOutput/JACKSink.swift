import CJACK
import MetronomeAudio
import MetronomeCore
import Synchronization

/// Plays rendered audio as a JACK client of its own: the server's process callback renders each
/// cycle straight into the output port's buffer, with no bridge and no thread of metronome's.
///
/// `@unchecked Sendable`: the cycle's buffer, the expected frame and the frames lost are touched
/// only on JACK's process thread (by the callback and the player it calls); the xrun count and the
/// server's going away, which other threads read, are atomic.
public final class JACKSink: CallbackAudioSink, @unchecked Sendable {
  /// The server's rate, which the run must be rendered at.
  public let sampleRate: SampleRate
  /// The name JACK gave the client.
  public var clientName: String { client.name }
  /// The output port's full name, `client:click`.
  public var portName: String { client.portName }
  private let client: JACKClient
  private let connections: [String]
  private var render: (@Sendable (Int) -> Void)?
  private var failed: (@Sendable (any Error) -> Void)?
  /// The MIDI output port, if there is one, the ports to connect it to, and its buffer while a
  /// cycle is rendered.
  private var midiPort: OpaquePointer?
  private var midiConnections: [String] = []
  private var midiBuffer: UnsafeMutableRawPointer?
  /// The MIDI input ports, and the output ports to connect to each.
  private var midiInputs: [(port: OpaquePointer, sources: [String])] = []
  /// The audio input ports, the output ports to connect to each, and each one's input copied as
  /// the cycle being rendered started.
  private var audioInputs: [(port: OpaquePointer, sources: [String], heard: UnsafeMutableBufferPointer<Float>)] = []
  /// The frames of the cycle each input's copy holds.
  private var heardFrames = 0
  /// JACK's largest cycle, in frames (`BUFFER_SIZE_MAX` in jackd2).
  private static let largestCycle = 8_192
  /// What hears each cycle's output once it is rendered, on JACK's thread.
  private var cycleRendered: [(UnsafeBufferPointer<Float>) -> Void] = []
  /// What the client publishes as the timebase master, if it is one.
  private var timebase: (@Sendable (Int64) -> TransportReading.BarBeat)?
  /// This cycle's port buffer and how much of it the player has written.
  private var cycle: UnsafeMutableBufferPointer<Float>?
  private var written = 0
  /// The frame time the next cycle should start on: a later one means cycles went by unplayed.
  private var expectedFrame: UInt32?
  private var lost: Int64 = 0
  private let xruns = Atomic<Int>(0)
  private let isGone = Atomic<Bool>(false)
  /// Whether the ports are connected: the cycles before are left silent and unrendered, so that
  /// the first beat and the first MIDI clock tick reach what they are connected to.
  private let isConnected = Atomic<Bool>(false)

  /// Joins the running JACK server as `clientName`, its port to be connected to `connections`
  /// (nil for the server's physical playback ports, empty for none) once started.
  public init(clientName: String, connections: [String]?) throws(JACKError) {
    client = try JACKClient(name: clientName)
    guard let rate = try? SampleRate(client.sampleRate) else {
      client.close()
      throw JACKError("the JACK server runs at \(client.sampleRate) Hz, which metronome cannot play at")
    }
    sampleRate = rate
    self.connections = connections ?? client.audioInputPorts(physicalOnly: true)
  }

  deinit {
    for input in audioInputs { input.heard.deallocate() }
  }

  /// Every audio input port of the server, which the output may connect to.
  public func availablePorts() -> [String] { client.audioInputPorts(physicalOnly: false) }

  /// Connects the output to the input port `destination` as well.
  public func connect(to destination: String) throws(JACKError) { try client.connect(to: destination) }

  /// Connects the output to the physical playback ports, as a run without ports named does.
  public func autoconnect() {
    for destination in client.audioInputPorts(physicalOnly: true) { try? client.connect(to: destination) }
  }

  /// Disconnects the output from every port.
  public func disconnectAll() { client.disconnectAudioOutput() }

  /// The port's playback latency and the cycle being written: how long until a frame written
  /// now is heard.
  public var outputDelayFrames: Int64 { Int64(client.playbackLatencyFrames + client.bufferFrames) }

  /// The playback latency JACK reports for the output's connections, in frames.
  public var playbackLatencyFrames: Int { client.playbackLatencyFrames }

  /// The server's xruns since the client joined.
  public var underrunCount: Int { xruns.load(ordering: .relaxed) }

  /// The frames of each cycle.
  public var bufferFrames: Int { client.bufferFrames }

  /// Cycles the server ran without calling the client, in frames, since last asked.
  public func takeLostFrames() -> Int64 {
    defer { lost = 0 }
    return lost
  }

  /// Writes `period` into this cycle's port buffer, after what was written before; outside a
  /// cycle, or past its end, it has nowhere to go.
  public func write(_ period: RenderedPeriod) throws {
    guard let cycle, let base = cycle.baseAddress else { return }
    let frames = min(period.frames, cycle.count - written)
    guard frames > 0 else { return }
    period.encode(
      into: UnsafeMutableRawBufferPointer(start: base + written, count: frames * MemoryLayout<Float>.size),
      as: .float32)
    written += frames
  }

  /// Publishes the transport's bar, beat and tempo as the timebase master: `position` gives them
  /// for a transport frame, on JACK's process thread.
  public func becomeTimebaseMaster(publishing position: @escaping @Sendable (Int64) -> TransportReading.BarBeat)
    throws
  {
    timebase = position
    try client.becomeTimebaseMaster(context: Unmanaged.passUnretained(self).toOpaque()) { _, _, position, _, context in
      guard let position, let context else { return }
      let sink = Unmanaged<JACKSink>.fromOpaque(context).takeUnretainedValue()
      guard let timebase = sink.timebase else { return }
      JACKClient.publish(timebase(Int64(position.pointee.frame)), in: position)
    }
  }

  /// Adds a MIDI output port, `midi_out`, connected to `connections` once started.
  public func addMIDIOutput(connections: [String]) throws(JACKError) {
    guard let port = client.registerMIDIOutput() else {
      throw JACKError("JACK would not register the MIDI output port 'midi_out'")
    }
    midiPort = port
    midiConnections = connections
  }

  /// Adds a MIDI input port `name` (`midi_in` for MIDI clock, `hits` for a player's notes), to
  /// which `sources` are connected once started.
  public func addMIDIInput(named name: String, connections sources: [String]) throws(JACKError) -> MIDIInput {
    guard let port = client.registerMIDIInput(named: name) else {
      throw JACKError("JACK would not register the MIDI input port '\(name)'")
    }
    midiInputs.append((port, sources))
    return MIDIInput(index: midiInputs.count - 1)
  }

  /// Adds an audio input port `name` (`mic`, for a microphone or a line), to which `sources` are
  /// connected once started.
  public func addAudioInput(named name: String, connections sources: [String]) throws(JACKError) -> AudioInput {
    guard let port = client.registerAudioInput(named: name) else {
      throw JACKError("JACK would not register the audio input port '\(name)'")
    }
    // As large as JACK's largest cycle, so that no cycle's copy allocates on JACK's thread.
    audioInputs.append((port, sources, .allocate(capacity: max(client.bufferFrames, Self.largestCycle))))
    return AudioInput(index: audioInputs.count - 1)
  }

  /// The server's physical capture ports, which an audio input hears the room or a cable through.
  public func physicalCapturePorts() -> [String] { client.physicalCapturePorts() }

  /// Whether anything is connected to `input` yet.
  public func isConnected(_ input: AudioInput) -> Bool { JACKClient.isConnected(audioInputs[input.index].port) }

  /// Whether the port `name` carries audio rather than MIDI; nil when the server has no such port.
  public func isAudioPort(_ name: String) -> Bool? { client.isAudioPort(name) }

  /// The samples `input` received in the cycle being rendered, as they were when it started;
  /// outside a cycle, none.
  public func audio(of input: AudioInput) -> UnsafeBufferPointer<Float> {
    guard cycle != nil else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: audioInputs[input.index].heard[..<heardFrames])
  }

  /// The capture latency JACK reports for `input`'s connections, in frames.
  public func captureLatencyFrames(of input: AudioInput) -> Int {
    JACKClient.captureLatencyFrames(of: audioInputs[input.index].port)
  }

  /// Calls `body` once each cycle is rendered, with what the output plays in it.
  ///
  /// On JACK's thread, where `audio(of:)` still gives the cycle's input. Before `start`.
  public func afterEachCycle(_ body: @escaping (UnsafeBufferPointer<Float>) -> Void) { cycleRendered.append(body) }

  /// Calls `body` with each MIDI message `input` received in the cycle being rendered, its bytes
  /// and its offset in the cycle, in order; outside a cycle, never.
  public func receiveMIDI(on input: MIDIInput, _ body: (_ offset: Int, UInt8, UInt8, UInt8) -> Void) {
    guard let cycle else { return }
    JACKClient.readMIDI(from: midiInputs[input.index].port, frames: UInt32(cycle.count)) { body(Int($0), $1, $2, $3) }
  }

  /// Frames from a note reaching the physical input to its reaching `input` (its capture
  /// latency), and from a frame written to the output to its being heard (the output's playback
  /// latency), as JACK reports them for the ports' connections now.
  public func latencyFrames(of input: MIDIInput) -> (capture: Int, playback: Int) {
    (JACKClient.captureLatencyFrames(of: midiInputs[input.index].port), client.playbackLatencyFrames)
  }

  /// Sends the first `count` of `bytes` as one MIDI message at frame `offset` of the cycle being
  /// rendered; outside a cycle, past its end or without a MIDI port, nowhere.
  public func sendMIDI(_ bytes: (UInt8, UInt8, UInt8), count: Int, atOffset offset: Int) {
    guard let midiBuffer, let cycle, (0..<cycle.count).contains(offset) else { return }
    _ = JACKClient.writeMIDI(bytes, count: count, at: UInt32(offset), into: midiBuffer)
  }

  /// How many microseconds from now this cycle's first frame is heard; call only while rendering
  /// a cycle.
  public func microsUntilCycleIsHeard() -> Int64 {
    outputDelayFrames * 1_000_000 / Int64(sampleRate.hz) - client.microsSinceCycleStart
  }

  /// The server's transport as this cycle starts; call only while rendering a cycle.
  public func transport() -> TransportReading { client.transport() }

  /// Nothing is queued: the cycles after the run are silent.
  public func finish() throws {}

  /// Activates the client, its cycles calling `render`, and connects its port.
  public func start(
    rendering render: @escaping @Sendable (Int) -> Void, failed: @escaping @Sendable (any Error) -> Void
  ) throws {
    self.render = render
    self.failed = failed
    let context = Unmanaged.passUnretained(self).toOpaque()
    try client.activate(
      context: context,
      process: { frames, context in
        guard let context else { return 0 }
        Unmanaged<JACKSink>.fromOpaque(context).takeUnretainedValue().process(frames: frames)
        return 0
      },
      xrun: { context in
        guard let context else { return 0 }
        Unmanaged<JACKSink>.fromOpaque(context).takeUnretainedValue().xruns.add(1, ordering: .relaxed)
        return 0
      },
      shutdown: { context in
        guard let context else { return }
        Unmanaged<JACKSink>.fromOpaque(context).takeUnretainedValue().serverWentAway()
      })
    for destination in connections { try client.connect(to: destination) }
    if let midiPort {
      for destination in midiConnections { try client.connect(port: midiPort, to: destination) }
    }
    let inputs = midiInputs + audioInputs.map { ($0.port, $0.sources) }
    for (port, sources) in inputs {
      for source in sources { try client.connect(source, to: port) }
    }
    isConnected.store(true, ordering: .releasing)
  }

  /// Leaves the server.
  public func stop() {
    guard !isGone.exchange(true, ordering: .acquiringAndReleasing) else { return }
    client.close()
  }

  /// One cycle: the player renders into the port's buffer; what it leaves is silence.
  private func process(frames: UInt32) {
    guard let buffer = client.buffer(frames: frames) else { return }
    guard isConnected.load(ordering: .acquiring) else {
      buffer.update(repeating: 0, count: Int(frames))
      _ = midiPort.flatMap { JACKClient.emptyMIDIBuffer(of: $0, frames: frames) }
      return
    }
    let start = client.cycleStartFrame
    if let expectedFrame, start != expectedFrame {
      lost += Int64(Int32(bitPattern: start &- expectedFrame))
    }
    expectedFrame = start &+ frames
    cycle = UnsafeMutableBufferPointer(start: buffer, count: Int(frames))
    written = 0
    // Each input is copied before anything is rendered: its buffer is the connected client's
    // output (or the driver's capture), which the server's next cycle writes anew. A callback held
    // past its cycle (a stalled machine) read it late and heard part of the next cycle as this
    // one's: a stroke a cycle off, where none was played (MEASUREMENTS).
    heardFrames = min(Int(frames), audioInputs.first?.heard.count ?? 0)
    for input in audioInputs {
      let received = JACKClient.audio(of: input.port, frames: frames)
      guard let into = input.heard.baseAddress else { continue }
      if let from = received.baseAddress {
        into.update(from: from, count: min(received.count, heardFrames))
      } else {
        into.update(repeating: 0, count: heardFrames)
      }
    }
    midiBuffer = midiPort.flatMap { JACKClient.emptyMIDIBuffer(of: $0, frames: frames) }
    render?(Int(frames))
    (buffer + written).update(repeating: 0, count: Int(frames) - written)
    for body in cycleRendered { body(UnsafeBufferPointer(start: buffer, count: Int(frames))) }
    cycle = nil
    midiBuffer = nil
  }

  /// A MIDI input port of the client, as `addMIDIInput` registered it.
  public struct MIDIInput: Sendable {
    fileprivate let index: Int
  }

  /// An audio input port of the client, as `addAudioInput` registered it.
  public struct AudioInput: Sendable {
    fileprivate let index: Int
  }

  private func serverWentAway() {
    guard !isGone.exchange(true, ordering: .acquiringAndReleasing) else { return }
    failed?(JACKError("the JACK server went away: start it again, then metronome"))
  }
}
