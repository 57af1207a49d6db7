import CJACK
import Glibc
import MetronomeCore

/// A JACK client with one audio output port: every call into libjack, wrapped once.
///
/// `@unchecked Sendable`: libjack's client calls are safe from any thread, and the process
/// callback reaches the client only through the pointers it was given.
final class JACKClient: @unchecked Sendable {
  /// The client as JACK knows it.
  private let client: OpaquePointer
  /// The output port the clicks are written to.
  private let port: OpaquePointer
  /// The name JACK gave the client (it may add a suffix when the name is taken).
  let name: String

  /// Joins the running JACK server as `name`, with an output port `click`; never starts a server.
  init(name: String) throws(JACKError) {
    // libjack prints its own complaints; metronome says what failed in one line of its own.
    jack_set_error_function { _ in }
    jack_set_info_function { _ in }
    var status = jack_status_t(rawValue: 0)
    guard let client = metronome_jack_client_open(name, &status) else {
      throw JACKError(
        "no JACK server to join (status 0x\(String(status.rawValue, radix: 16))): start one (jackd), or play through ALSA without --jack"
      )
    }
    guard let port = jack_port_register(client, "click", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
    else {
      jack_client_close(client)
      throw JACKError("JACK would not register the output port 'click'")
    }
    self.client = client
    self.port = port
    self.name = String(cString: jack_get_client_name(client))
  }

  /// The rate the server runs at, in Hz.
  var sampleRate: Int { Int(jack_get_sample_rate(client)) }

  /// The frames of each process cycle.
  var bufferFrames: Int { Int(jack_get_buffer_size(client)) }

  /// The full name of the output port, `client:click`.
  var portName: String { String(cString: jack_port_name(port)) }

  /// The playback latency from the port to the speakers, in frames (the most JACK reports).
  var playbackLatencyFrames: Int {
    var range = jack_latency_range_t()
    jack_port_get_latency_range(port, JackPlaybackLatency, &range)
    return Int(range.max)
  }

  /// The capture latency from the physical input to `input`, in frames (the most JACK reports).
  static func captureLatencyFrames(of input: OpaquePointer) -> Int {
    var range = jack_latency_range_t()
    jack_port_get_latency_range(input, JackCaptureLatency, &range)
    return Int(range.max)
  }

  /// The frame time at the start of the current cycle; call only from the process callback.
  var cycleStartFrame: UInt32 { jack_last_frame_time(client) }

  /// How many microseconds ago the current cycle started, by the server's smoothed clock; call
  /// only from the process callback.
  var microsSinceCycleStart: Int64 {
    var frames: jack_nframes_t = 0
    var cycleStart: jack_time_t = 0
    var nextCycleStart: jack_time_t = 0
    var periodMicros: Float = 0
    guard jack_get_cycle_times(client, &frames, &cycleStart, &nextCycleStart, &periodMicros) == 0 else { return 0 }
    return Int64(jack_get_time()) - Int64(cycleStart)
  }

  /// The transport at the start of the current cycle, with the timebase master's bar, beat and
  /// tempo when it publishes them; call only from the process callback.
  func transport() -> TransportReading {
    var position = jack_position_t()
    let state = jack_transport_query(client, &position)
    var barBeat: TransportReading.BarBeat?
    if position.valid.rawValue & JackPositionBBT.rawValue != 0, position.ticks_per_beat > 0,
      position.beats_per_minute.isFinite, position.beats_per_minute > 0,
      let meter = try? Meter(
        Int(position.beats_per_bar.rounded()), Int(position.beat_type.rounded()),
        cap: .widest)
    {
      barBeat = TransportReading.BarBeat(
        bar: Int(position.bar), beat: Int(position.beat),
        fraction: min(max(Double(position.tick) / position.ticks_per_beat, 0), 1),
        resolution: 1 / position.ticks_per_beat,
        beatsPerMinute: position.beats_per_minute, meter: meter)
    }
    return TransportReading(isRolling: state == JackTransportRolling, frame: Int64(position.frame), barBeat: barBeat)
  }

  /// Becomes the timebase master, taking over from any other: each cycle `callback` is given
  /// `context` and the position to fill in.
  func becomeTimebaseMaster(context: UnsafeMutableRawPointer, callback: JackTimebaseCallback) throws(JACKError) {
    guard jack_set_timebase_callback(client, 0, callback, context) == 0 else {
      throw JACKError("JACK would not make '\(name)' the timebase master")
    }
  }

  /// Fills in `position`'s bar, beat and tempo from `barBeat`, with 1920 ticks a beat; call only
  /// from the timebase callback.
  static func publish(_ barBeat: TransportReading.BarBeat, in position: UnsafeMutablePointer<jack_position_t>) {
    let ticksPerBeat = 1_920.0
    position.pointee.valid = jack_position_bits_t(rawValue: position.pointee.valid.rawValue | JackPositionBBT.rawValue)
    position.pointee.bar = Int32(clamping: barBeat.bar)
    position.pointee.beat = Int32(clamping: barBeat.beat)
    position.pointee.tick = Int32(barBeat.fraction * ticksPerBeat)
    position.pointee.beats_per_bar = Float(barBeat.meter.numerator)
    position.pointee.beat_type = Float(barBeat.meter.denominator)
    position.pointee.ticks_per_beat = ticksPerBeat
    position.pointee.beats_per_minute = barBeat.beatsPerMinute
    position.pointee.bar_start_tick = Double(barBeat.bar - 1) * Double(barBeat.meter.numerator) * ticksPerBeat
  }

  /// The output port's buffer for a cycle of `frames`; call only from the process callback.
  func buffer(frames: UInt32) -> UnsafeMutablePointer<Float>? {
    jack_port_get_buffer(port, frames)?.assumingMemoryBound(to: Float.self)
  }

  /// Calls `process` with `context` every cycle, `xrun` after each xrun, and `shutdown` if the
  /// server goes away; then starts taking part in the server's cycles.
  func activate(
    context: UnsafeMutableRawPointer, process: JackProcessCallback, xrun: JackXRunCallback,
    shutdown: JackShutdownCallback
  ) throws(JACKError) {
    jack_set_process_callback(client, process, context)
    jack_set_xrun_callback(client, xrun, context)
    jack_on_shutdown(client, shutdown, context)
    guard jack_activate(client) == 0 else { throw JACKError("JACK would not activate the client '\(name)'") }
  }

  /// The server's audio input ports: its physical playback ports, which a player hears, or with
  /// `physicalOnly` false every program's too.
  func audioInputPorts(physicalOnly: Bool) -> [String] {
    audioPorts(flags: JackPortIsInput.rawValue | (physicalOnly ? JackPortIsPhysical.rawValue : 0))
  }

  /// The server's physical capture ports: what hears the room or a cable, as audio output ports.
  func physicalCapturePorts() -> [String] { audioPorts(flags: JackPortIsOutput.rawValue | JackPortIsPhysical.rawValue) }

  /// The names of the server's audio ports with all of `flags`.
  private func audioPorts(flags: UInt32) -> [String] {
    Self.ports(of: client, type: JACK_DEFAULT_AUDIO_TYPE, flags: flags)
  }

  /// The names of `client`'s server's ports of `type` with all of `flags`.
  fileprivate static func ports(of client: OpaquePointer, type: String, flags: UInt32) -> [String] {
    guard let names = jack_get_ports(client, nil, type, UInt(flags)) else { return [] }
    defer { jack_free(UnsafeMutableRawPointer(mutating: names)) }
    var ports: [String] = []
    var index = 0
    while let name = names[index] {
      ports.append(String(cString: name))
      index += 1
    }
    return ports
  }

  /// Whether anything is connected to `port`.
  static func isConnected(_ port: OpaquePointer) -> Bool { jack_port_connected(port) > 0 }

  /// Connects the audio output port to the input port `destination`.
  func connect(to destination: String) throws(JACKError) { try connect(port: port, to: destination) }

  /// Disconnects the audio output port from every port.
  func disconnectAudioOutput() { jack_port_disconnect(client, port) }

  /// Registers an output port `midi_out` for MIDI; nil when JACK would not.
  func registerMIDIOutput() -> OpaquePointer? {
    jack_port_register(client, "midi_out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0)
  }

  /// Registers an input port for MIDI named `name`; nil when JACK would not.
  func registerMIDIInput(named name: String) -> OpaquePointer? {
    jack_port_register(client, name, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0)
  }

  /// Registers an input port for audio named `name`; nil when JACK would not.
  func registerAudioInput(named name: String) -> OpaquePointer? {
    jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
  }

  /// Whether the port named `name` carries audio; nil when there is no such port.
  func isAudioPort(_ name: String) -> Bool? {
    guard let port = jack_port_by_name(client, name), let type = jack_port_type(port) else { return nil }
    return String(cString: type) == JACK_DEFAULT_AUDIO_TYPE
  }

  /// The samples audio input `port` received this cycle; call only from the process callback.
  static func audio(of port: OpaquePointer, frames: UInt32) -> UnsafeBufferPointer<Float> {
    guard let buffer = jack_port_get_buffer(port, frames) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Float.self), count: Int(frames))
  }

  /// Calls `body` with each MIDI message of up to three bytes that `port` received this cycle,
  /// and its frame in the cycle, in order; call only from the process callback.
  static func readMIDI(
    from port: OpaquePointer, frames: UInt32, _ body: (_ offset: UInt32, UInt8, UInt8, UInt8) -> Void
  ) {
    guard let buffer = jack_port_get_buffer(port, frames) else { return }
    var event = jack_midi_event_t()
    for index in 0..<jack_midi_get_event_count(buffer) {
      guard jack_midi_event_get(&event, buffer, index) == 0, event.size > 0, let data = event.buffer else { continue }
      body(event.time, data[0], event.size > 1 ? data[1] : 0, event.size > 2 ? data[2] : 0)
    }
  }

  /// The MIDI port's buffer for a cycle of `frames`, emptied; call only from the process callback.
  static func emptyMIDIBuffer(of port: OpaquePointer, frames: UInt32) -> UnsafeMutableRawPointer? {
    guard let buffer = jack_port_get_buffer(port, frames) else { return nil }
    jack_midi_clear_buffer(buffer)
    return buffer
  }

  /// Writes a MIDI message of `count` bytes at frame `offset` of the cycle into `buffer`; false
  /// when it has no room.
  static func writeMIDI(
    _ bytes: (UInt8, UInt8, UInt8), count: Int, at offset: UInt32, into buffer: UnsafeMutableRawPointer
  ) -> Bool {
    withUnsafeBytes(of: bytes) { raw in
      jack_midi_event_write(buffer, offset, raw.baseAddress?.assumingMemoryBound(to: jack_midi_data_t.self), count)
        == 0
    }
  }

  /// Connects output port `port` to the input port `destination`.
  func connect(port: OpaquePointer, to destination: String) throws(JACKError) {
    try connect(String(cString: jack_port_name(port)), to: destination, askingOf: destination, "an input")
  }

  /// Connects the output port `source` to input port `port`.
  func connect(_ source: String, to port: OpaquePointer) throws(JACKError) {
    try connect(source, to: String(cString: jack_port_name(port)), askingOf: source, "an output")
  }

  /// Connects port `source` to port `destination` by their full names; `named`, the one given,
  /// should be `kind` port.
  private func connect(_ source: String, to destination: String, askingOf named: String, _ kind: String)
    throws(JACKError)
  {
    let result = jack_connect(client, source, destination)
    // EEXIST: already connected, which is what was asked.
    guard result == 0 || result == EEXIST else {
      throw JACKError(
        "JACK could not connect '\(source)' to '\(destination)': is '\(named)' \(kind) port? (see jack_lsp)")
    }
  }

  /// Leaves the server.
  func close() {
    jack_deactivate(client)
    jack_client_close(client)
  }
}

/// The running JACK server's ports, as the shell offers them for `--connect` and the like.
public enum JACKPorts {
  /// What a port carries.
  public enum Kind: Sendable {
    /// Audio.
    case audio
    /// MIDI.
    case midi
  }

  /// The names of the ports carrying any of `kinds` that take a signal in (`inputs`) or give one
  /// out, on the server `JACK_DEFAULT_SERVER` names; none, at once, when no server runs.
  public static func names(of kinds: [Kind], inputs: Bool) -> [String] {
    jack_set_error_function { _ in }
    jack_set_info_function { _ in }
    var status = jack_status_t(rawValue: 0)
    guard let client = metronome_jack_client_open("metronome-ports", &status) else { return [] }
    defer { jack_client_close(client) }
    let direction = inputs ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
    return kinds.flatMap { kind in
      JACKClient.ports(
        of: client, type: kind == .audio ? JACK_DEFAULT_AUDIO_TYPE : JACK_DEFAULT_MIDI_TYPE, flags: direction)
    }
  }
}
