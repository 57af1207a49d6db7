import CALSA
import MetronomeAudio
import Synchronization

/// A client of the ALSA sequencer with a queue of its own: a MIDI output port whose messages the
/// queue delivers at the times they were given, so that each leaves on time whatever the thread
/// that sent it does next; and an input port whose notes the queue stamps as they arrive.
///
/// This file is the only place metronome calls `snd_seq_*`; every failure becomes an `ALSAError`.
/// It sends without blocking: a message the sequencer has no room for is counted, not waited for,
/// since the sender is the render thread; `finish` tells how many there were.
///
/// `@unchecked Sendable`: one thread sends and receives; `finish`, which another may call as the
/// process ends, only waits on the kernel's queue, touching none of the client's buffers, and
/// reads the count, which is atomic.
public final class ALSASequencer: @unchecked Sendable {
  /// The output port's address, `client:port`, which other programs connect to; nil without one.
  public let address: String?
  /// The input port's address, `client:port`; nil without one.
  public let inputAddress: String?
  /// Whether its queue keeps time by the kernel's high-resolution timer; else by the system
  /// timer, whose tick (4 ms on Debian's kernels) the messages may be late by.
  public let isPrecise: Bool
  /// Messages the sequencer had no room for.
  private let dropped = Atomic(0)
  private let handle: OpaquePointer
  private let port: Int32?
  private let inputPort: Int32?
  private let queue: Int32
  /// The monotonic clock's time, in nanoseconds, when the queue's time was 0.
  private let queueOrigin: Int64

  /// Opens the sequencer as a client named `clientName` with an output port `portName` that
  /// others may subscribe to and an input port `inputName`, each if given, and starts a queue to
  /// time its messages, on the high-resolution timer where the kernel has it.
  public init(clientName: String, portName: String?, inputName: String? = nil) throws(ALSAError) {
    metronome_alsa_silence_errors()
    var opened: OpaquePointer?
    // Output either way: the queue is started by an event sent to it.
    let mode = inputName == nil ? SND_SEQ_OPEN_OUTPUT : SND_SEQ_OPEN_DUPLEX
    try Self.check(snd_seq_open(&opened, "default", mode, SND_SEQ_NONBLOCK), "open")
    guard let handle = opened else { throw Self.error("open", code: -ENODEV) }
    self.handle = handle
    do throws(ALSAError) {
      try Self.check(snd_seq_set_client_name(handle, clientName), "name its client")
      if let portName {
        port = try Self.checked(
          snd_seq_create_simple_port(
            handle, portName, UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ),
            UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION)), "create a port")
      } else {
        port = nil
      }
      // Room for the most messages the kernel lets a client have waiting, since a large --buffer
      // queues ticks seconds ahead.
      _ = snd_seq_set_client_pool_output(handle, Self.pool)
      queue = try Self.checked(snd_seq_alloc_named_queue(handle, clientName), "allocate a queue")
      isPrecise = metronome_seq_use_high_resolution_timer(handle, queue) >= 0
      try Self.check(
        snd_seq_control_queue(handle, queue, Int32(SND_SEQ_EVENT_START.rawValue), 0, nil), "start its queue")
      try Self.check(snd_seq_drain_output(handle), "start its queue")
      // Where the queue's time stands on the monotonic clock: read between two readings of it.
      let before = MonotonicClock.nanoseconds
      let queueTime = metronome_seq_queue_nanoseconds(handle, queue)
      guard queueTime >= 0 else { throw Self.error("read its queue", code: Int32(clamping: queueTime)) }
      queueOrigin = (before + MonotonicClock.nanoseconds) / 2 - queueTime
      if let inputName {
        inputPort = try Self.checked(metronome_seq_create_input_port(handle, inputName, queue), "create a port")
      } else {
        inputPort = nil
      }
      address = port.map { "\(snd_seq_client_id(handle)):\($0)" }
      inputAddress = inputPort.map { "\(snd_seq_client_id(handle)):\($0)" }
    } catch {
      snd_seq_close(handle)
      throw error
    }
  }

  deinit { snd_seq_close(handle) }

  /// Subscribes `destination` (`client:port`, or a client's name and a port) to the port.
  public func connect(to destination: String) throws(ALSAError) {
    guard let port else { return }
    var target = snd_seq_addr_t()
    try Self.check(
      snd_seq_parse_address(handle, &target, destination), "find the port '\(destination)'", hint: Self.portsHint)
    try Self.check(
      snd_seq_connect_to(handle, port, Int32(target.client), Int32(target.port)), "connect to '\(destination)'",
      hint: Self.portsHint)
  }

  /// Subscribes the input port to `source` (`client:port`, or a client's name and a port).
  public func connect(from source: String) throws(ALSAError) {
    guard let inputPort else { return }
    var origin = snd_seq_addr_t()
    try Self.check(snd_seq_parse_address(handle, &origin, source), "find the port '\(source)'", hint: Self.inputsHint)
    try Self.check(
      snd_seq_connect_from(handle, inputPort, Int32(origin.client), Int32(origin.port)), "connect from '\(source)'",
      hint: Self.inputsHint)
  }

  /// Calls `body` with each note-on that reached the input port since last asked, its bytes and
  /// when it arrived on the monotonic clock (in nanoseconds), in order, without waiting.
  public func receiveNotes(_ body: (_ status: UInt8, _ note: UInt8, _ velocity: UInt8, _ nanoseconds: Int64) -> Void) {
    guard inputPort != nil else { return }
    var status: UInt8 = 0
    var note: UInt8 = 0
    var velocity: UInt8 = 0
    var stamp: Int64 = 0
    while true {
      let read = metronome_seq_read_note(handle, &status, &note, &velocity, &stamp)
      if read == 1 { body(status, note, velocity, queueOrigin + stamp) } else if read < 0 { return }
    }
  }

  /// Sends a MIDI message at `micros`, a time of the monotonic clock in microseconds, or at once
  /// if that has passed; messages for the same time arrive in the order they were sent.
  ///
  /// The bytes are those of clock, start, continue, stop, song position with its two data bytes,
  /// or a note on or off with its note and velocity; any other message is not sent.
  public func send(_ status: UInt8, _ first: UInt8, _ second: UInt8, atMicros micros: Int64) {
    guard let port else { return }
    // The queue's time: what it read when the monotonic clock read `queueOrigin`, plus what passed since.
    let due = max(micros.multipliedReportingOverflow(by: 1000).partialValue - queueOrigin, 0)
    let (seconds, nanoseconds) = (UInt32(clamping: due / 1_000_000_000), UInt32(due % 1_000_000_000))
    let sent: Int32
    switch status & 0xF0 {
    case 0x90, 0x80:
      let type = status & 0xF0 == 0x90 ? SND_SEQ_EVENT_NOTEON : SND_SEQ_EVENT_NOTEOFF
      sent = metronome_seq_schedule_note(
        handle, port, queue, Int32(type.rawValue), Int32(status & 0x0F), Int32(first & 0x7F), Int32(second & 0x7F),
        seconds, nanoseconds)
    default:
      let type: snd_seq_event_type
      var value: Int32 = 0
      switch status {
      case 0xF8: type = SND_SEQ_EVENT_CLOCK
      case 0xFA: type = SND_SEQ_EVENT_START
      case 0xFB: type = SND_SEQ_EVENT_CONTINUE
      case 0xFC: type = SND_SEQ_EVENT_STOP
      case 0xF2:
        type = SND_SEQ_EVENT_SONGPOS
        value = Int32(first & 0x7F) | Int32(second & 0x7F) << 7
      default: return
      }
      sent = metronome_seq_schedule(handle, port, queue, Int32(type.rawValue), value, seconds, nanoseconds)
    }
    if sent < 0 || snd_seq_drain_output(handle) < 0 { dropped.add(1, ordering: .relaxed) }
  }

  /// Waits until the queue has delivered every message sent, so that none is lost when the
  /// process ends; returns how many messages the sequencer had no room for.
  public func finish() -> Int {
    _ = snd_seq_sync_output_queue(handle)
    return dropped.load(ordering: .relaxed)
  }

  /// The most messages a client may have waiting in the kernel (`SNDRV_SEQ_MAX_CLIENT_EVENTS`).
  private static let pool = 2000

  /// What to try when a port named to connect to is not there.
  private static let portsHint = "`aconnect -o` lists the ports that take MIDI"
  /// What to try when a port named to connect from is not there.
  private static let inputsHint = "`aconnect -i` lists the ports that send MIDI"
  /// What to try when the sequencer itself fails.
  private static let sequencerHint =
    "is the kernel's sequencer loaded (modprobe snd-seq)? Or use JACK's MIDI ports with --jack"

  private static func error(_ operation: String, code: Int32, hint: String = sequencerHint) -> ALSAError {
    ALSAError(
      operation: operation, device: nil, code: code, message: String(cString: snd_strerror(code)),
      hint: hint)
  }

  private static func check(_ result: Int32, _ operation: String, hint: String = sequencerHint) throws(ALSAError) {
    _ = try checked(result, operation, hint: hint)
  }

  /// `result`, if it is not an error code.
  private static func checked(_ result: Int32, _ operation: String, hint: String = sequencerHint) throws(ALSAError)
    -> Int32
  {
    guard result < 0 else { return result }
    throw error(operation, code: result, hint: hint)
  }
}
