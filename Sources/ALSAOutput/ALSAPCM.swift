import CALSA
import MetronomeAudio
import MetronomeCore
import Synchronization

/// An ALSA PCM: a playback device, or a capture device to listen through.
///
/// This file is the only place metronome calls ALSA's PCM functions (`snd_pcm_*`, and
/// `snd_device_name_*` to list devices): each C call is wrapped once here, and every failure
/// becomes an `ALSAError` with ALSA's own message.
public final class ALSAPCM {
  /// How samples are sent to the device.
  public enum Format: Sendable {
    case float32
    case int16
  }

  /// Which way the samples go.
  public enum Stream: Sendable {
    /// Out to the device, written.
    case playback
    /// In from the device, read.
    case capture
  }

  /// A device ALSA knows of.
  public struct Device: Equatable, Sendable {
    /// The name to pass to `--device` (`--listen-device`, capturing).
    public let name: String
    /// ALSA's description, one line.
    public let description: String
  }

  /// The device name.
  public let device: String
  /// Which way it goes.
  public let stream: Stream
  /// The negotiated sample format.
  public let format: Format
  /// Whether it is a sound card's own (directly, or shared through ALSA's dmix), rather than a
  /// sound server's: its position is the card's pointer, which can be read stale.
  public let isSoundCard: Bool
  /// The negotiated channel count (metronome writes the same click to every channel).
  public let channels: Int
  /// The negotiated period size in frames.
  public let periodFrames: Int
  /// The negotiated buffer size in frames; it grows after an underrun, up to `maximumBufferFrames`.
  public private(set) var bufferFrames: Int
  /// How much room the device has when it signals: the buffer first negotiated, kept when the
  /// buffer grows.
  ///
  /// PipeWire's ALSA plugin asks the graph for cycles of this size: grown with the buffer, it
  /// doubled the cycle of every stream on the server, which put each one a cycle late (ours too,
  /// after the new stream's positions showed nothing of it).
  private let wakeUpFrames: Int
  /// The largest buffer an underrun may grow it to.
  public let maximumBufferFrames: Int
  /// How many frames to write per wake-up: half the buffer first negotiated, in whole periods.
  ///
  /// Each wake-up costs more than rendering does, and the buffer, not the write size, bounds the
  /// latency. A buffer grown later keeps this write size, so that more of it stays filled.
  public let writeFrames: Int
  /// How many underruns (overruns, capturing) were recovered from.
  public private(set) var underruns = 0
  /// The stream's frame it started again from the last time it ran dry, playing; nil before then.
  ///
  /// Everything written before it had been played, and what is written from it plays as late as
  /// the device played nothing.
  public private(set) var ranDryAt: Int64?
  /// Frames written (read, capturing) since the device was opened, less a lead-in
  /// (`beginWithLeadIn`): the stream's own frames count from 0.
  public private(set) var writtenFrames: Int64 = 0 {
    didSet { sharedWrittenFrames.store(writtenFrames, ordering: .releasing) }
  }
  /// The same, for `PositionReader` on another thread.
  private let sharedWrittenFrames = Atomic<Int64>(0)
  /// The negotiated sample rate in hertz.
  public let sampleRate: Int
  private let handle: OpaquePointer
  private var isClosed = false
  /// When audio was last written, on the monotonic clock: how long the device went without.
  private var lastWriteNanoseconds: Int64 = 0

  /// Opens `device` for `stream` at `sampleRate` and negotiates the format (float, else 16-bit),
  /// one channel (or the fewest the device takes), and the period and buffer sizes nearest those asked.
  ///
  /// After an underrun the buffer doubles, up to `maximumBufferFrames` (by default it stays as
  /// negotiated).
  public init(
    device: String, stream: Stream = .playback, sampleRate: SampleRate, periodFrames: Int, bufferFrames: Int,
    maximumBufferFrames: Int? = nil
  ) throws(ALSAError) {
    metronome_alsa_silence_errors()
    var opened: OpaquePointer?
    let operation = stream == .playback ? "open" : "open for capture"
    let hint = stream == .playback ? ALSAError.noDeviceHint : ALSAError.noCaptureDeviceHint
    try Self.check(
      snd_pcm_open(&opened, device, stream == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE, 0),
      operation, device, hint)
    guard let handle = opened else {
      throw ALSAError(operation: operation, device: device, code: 0, message: "no handle", hint: hint)
    }
    self.handle = handle
    self.device = device
    self.stream = stream
    self.sampleRate = sampleRate.hz
    do {
      let negotiated = try Self.configure(
        handle, device: device, stream: stream, rate: sampleRate.hz, period: periodFrames, buffer: bufferFrames
      )
      (format, channels, self.periodFrames, self.bufferFrames) = negotiated
    } catch {
      snd_pcm_close(handle)
      throw error
    }
    wakeUpFrames = self.bufferFrames
    self.maximumBufferFrames = max(maximumBufferFrames ?? self.bufferFrames, self.bufferFrames)
    isSoundCard = Self.card(of: handle) >= 0
    writeFrames = max(self.periodFrames, self.bufferFrames / 2 / self.periodFrames * self.periodFrames)
  }

  /// Makes the next `frames` written a lead-in that the stream's frames come after.
  ///
  /// Written frames count from minus `frames`, so that the stream's first frame is frame 0 and
  /// positions heard during the lead-in are negative. Only before anything is written.
  public func beginWithLeadIn(of frames: Int) {
    precondition(writtenFrames == 0, "a lead-in comes before anything else is written")
    writtenFrames = -Int64(frames)
  }

  /// Closing drops whatever is still queued: stopping is immediate.
  deinit { close() }

  /// Closes the device now (dropping what is queued), if it is open; nothing else may be called after.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    snd_pcm_close(handle)
  }

  /// The number of the card behind `handle`, or -1 for none (a sound server's plugin).
  private static func card(of handle: OpaquePointer) -> Int32 {
    var info: OpaquePointer?
    guard snd_pcm_info_malloc(&info) == 0, let info else { return -1 }
    defer { snd_pcm_info_free(info) }
    return snd_pcm_info(handle, info) == 0 ? snd_pcm_info_get_card(info) : -1
  }

  /// Sets `handle` up; a playback device signals room once `wakeUp` frames are free (by default,
  /// the whole buffer negotiated).
  private static func configure(
    _ handle: OpaquePointer, device: String, stream: Stream, rate: Int, period: Int, buffer: Int, wakeUp: Int? = nil
  ) throws(ALSAError) -> (Format, Int, Int, Int) {
    var hardware: OpaquePointer?
    try check(snd_pcm_hw_params_malloc(&hardware), "allocate its parameters", device, "out of memory?")
    defer { snd_pcm_hw_params_free(hardware) }
    let hint = "try another --device, --rate, --period or --buffer"
    try check(snd_pcm_hw_params_any(handle, hardware), "report its parameters", device, hint)
    try check(
      snd_pcm_hw_params_set_access(handle, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "take interleaved writes",
      device, hint)
    let format: Format
    if snd_pcm_hw_params_set_format(handle, hardware, SND_PCM_FORMAT_FLOAT_LE) == 0 {
      format = .float32
    } else {
      try check(
        snd_pcm_hw_params_set_format(handle, hardware, SND_PCM_FORMAT_S16_LE), "take 16-bit samples", device, hint)
      format = .int16
    }
    var channels: UInt32 = 1
    try check(snd_pcm_hw_params_set_channels_near(handle, hardware, &channels), "set the channels", device, hint)
    var actualRate = UInt32(rate)
    try check(snd_pcm_hw_params_set_rate_near(handle, hardware, &actualRate, nil), "set the sample rate", device, hint)
    guard actualRate == UInt32(rate) else {
      throw ALSAError(
        operation: "\(stream == .playback ? "play" : "capture") at \(rate) Hz", device: device, code: -EINVAL,
        message: "it offers \(actualRate) Hz",
        hint: "use --rate \(actualRate), or a 'plug:' device that converts")
    }
    var periodSize = snd_pcm_uframes_t(period)
    try check(
      snd_pcm_hw_params_set_period_size_near(handle, hardware, &periodSize, nil), "set the period size", device, hint)
    var bufferSize = snd_pcm_uframes_t(max(buffer, 2 * Int(periodSize)))
    try check(
      snd_pcm_hw_params_set_buffer_size_near(handle, hardware, &bufferSize), "set the buffer size", device, hint)
    try check(snd_pcm_hw_params(handle, hardware), "apply its parameters", device, hint)

    var software: OpaquePointer?
    try check(snd_pcm_sw_params_malloc(&software), "allocate its parameters", device, "out of memory?")
    defer { snd_pcm_sw_params_free(software) }
    try check(snd_pcm_sw_params_current(handle, software), "report its parameters", device, hint)
    guard stream == .playback else {
      // A capture is started when its reader starts, and wakes it each period.
      try check(snd_pcm_sw_params_set_avail_min(handle, software, periodSize), "set the wake-up size", device, hint)
      try check(snd_pcm_sw_params(handle, software), "apply its parameters", device, hint)
      return (format, Int(channels), Int(periodSize), Int(bufferSize))
    }
    // Start only once the buffer is full, so the first periods cannot run dry.
    try check(
      snd_pcm_sw_params_set_start_threshold(handle, software, bufferSize), "set the start threshold", device, hint)
    // `write` sleeps on its own clock instead of polling, so the device need signal only when
    // the whole buffer has drained (an underrun; the first buffer's worth, once it has grown), not
    // every time some room frees up.
    try check(
      snd_pcm_sw_params_set_avail_min(handle, software, wakeUp.map { snd_pcm_uframes_t($0) } ?? bufferSize),
      "set the wake-up size", device, hint)
    try check(snd_pcm_sw_params(handle, software), "apply its parameters", device, hint)
    return (format, Int(channels), Int(periodSize), Int(bufferSize))
  }

  /// Writes `frames` interleaved frames, sleeping until the device has room for them; recovers
  /// from an underrun (and counts it) and goes on writing.
  ///
  /// It sleeps for as long as the device needs to play the missing room, a period at most, then
  /// asks again, rather than blocking in `snd_pcm_writei`: a blocking write is woken through the
  /// PCM's poll descriptor, which for a plugin such as ALSA's JACK bridge costs a socket write on
  /// the audio thread and several system calls here on every wake-up. The device's clock still
  /// paces the loop, since only what it reports room for is written.
  ///
  /// A period at most, because a sound server may free its room all at once: PipeWire's plugin
  /// takes the whole buffer each cycle, and a sleep through the whole shortfall (a write) could
  /// wake up to half a cycle after it, leaving the other half to refill the buffer in; a stall of
  /// the machine shorter than the buffer then ran it dry.
  ///
  /// A running device that makes no room for two seconds (or four periods, if longer) has stopped
  /// playing without saying so, as ALSA's JACK bridge does when its server goes away: that is an
  /// error rather than a wait without end.
  public func write(_ interleaved: UnsafeRawPointer, frames: Int) throws(ALSAError) {
    let frameBytes = channels * (format == .float32 ? 4 : 2)
    let patience = max(2 * sampleRate, 4 * periodFrames)
    var waited = 0
    var lastRoom = -1
    var done = 0
    while done < frames {
      let room = snd_pcm_avail(handle)
      if room < 0 {
        try recover(Int32(room))
        continue
      }
      let missing = frames - done - Int(room)
      if missing > 0, snd_pcm_state(handle) == SND_PCM_STATE_RUNNING {
        waited = Int(room) > lastRoom ? 0 : waited
        lastRoom = Int(room)
        guard waited < patience else {
          throw ALSAError(
            operation: "keep playing", device: device, code: -EIO,
            message: "it has taken no audio for \(waited / sampleRate) s",
            hint: "is it still connected, and its sound server (JACK, PulseAudio) still running?")
        }
        let slept = min(missing, periodFrames)
        sleep(frames: slept)
        waited += slept
        continue
      }
      let result = snd_pcm_writei(
        handle, interleaved + done * frameBytes, snd_pcm_uframes_t(min(frames - done, max(Int(room), 1))))
      if result >= 0 {
        done += Int(result)
        writtenFrames += Int64(result)
        lastWriteNanoseconds = MonotonicClock.nanoseconds
      } else if result != -EAGAIN {
        try recover(Int32(result))
      }
    }
  }

  private func recover(_ code: Int32) throws(ALSAError) {
    if code == -EPIPE || code == -ESTRPIPE { underruns += 1 }
    if code == -EPIPE { ranDryAt = writtenFrames }
    if code == -EPIPE, bufferFrames < maximumBufferFrames, largestBufferWouldHaveLasted(), growBuffer() { return }
    try Self.check(snd_pcm_recover(handle, code, 1), "write", device, "the device stopped; is it still connected?")
  }

  /// Whether a buffer of the largest size would have lasted since the last write.
  ///
  /// If so, the device ran dry because the path to it needs more room. When this process was kept
  /// from writing for longer (stopped, or starved for a third of a second), no buffer it may grow
  /// to would have helped, and a larger one would only make keys slower for the rest of the run.
  private func largestBufferWouldHaveLasted() -> Bool {
    let lasts = Int64(maximumBufferFrames) * 1_000_000_000 / Int64(sampleRate)
    return MonotonicClock.nanoseconds - lastWriteNanoseconds < lasts
  }

  /// After an underrun, sets the device up again with twice the buffer, up to the maximum.
  ///
  /// PulseAudio's own clients adapt so. Writes keep their size, so the margin grows by all that
  /// was added. Returns whether the device took a buffer (the new one, else the old); if not,
  /// recovery goes on as usual.
  private func growBuffer() -> Bool {
    // Only a device that is set up but not playing takes new parameters; an underrun left
    // nothing queued to drop.
    snd_pcm_drop(handle)
    let wanted = min(2 * bufferFrames, maximumBufferFrames)
    for size in [wanted, bufferFrames] {
      if let negotiated = try? Self.configure(
        handle, device: device, stream: stream, rate: sampleRate, period: periodFrames, buffer: size,
        wakeUp: wakeUpFrames),
        negotiated.0 == format, negotiated.1 == channels, negotiated.2 == periodFrames
      {
        bufferFrames = negotiated.3
        return true
      }
    }
    return false
  }

  /// Sleeps for as long as `frames` take to play.
  private func sleep(frames: Int) {
    let nanoseconds = frames * 1_000_000_000 / sampleRate
    var remaining = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    var request = remaining
    while clock_nanosleep(CLOCK_MONOTONIC, 0, &request, &remaining) == EINTR { request = remaining }
  }

  /// What the device says of what was written (or captured), read once.
  public struct DelayReading: Sendable {
    /// Frames written but not yet heard, or heard but not yet read (`snd_pcm_delay`); 0 when the
    /// device cannot tell.
    public let frames: Int64
    /// How much of the stream has been heard (played, or taken in by a capture device), and when;
    /// nil while the device is not running, or when the machine kept this thread from asking (a
    /// millisecond or more between the clock's readings around it), which would make the time wrong.
    public let position: PlaybackPosition?
  }

  /// Reads the device's delay, and with it the position heard and the time it was read.
  public func readDelay() -> DelayReading {
    let isRunning = snd_pcm_state(handle) == SND_PCM_STATE_RUNNING
    let before = MonotonicClock.nanoseconds
    var delay: snd_pcm_sframes_t = 0
    guard snd_pcm_delay(handle, &delay) == 0 else { return DelayReading(frames: 0, position: nil) }
    let after = MonotonicClock.nanoseconds
    let isPrompt = after - before < 1_000_000
    return DelayReading(
      frames: Int64(delay),
      position: isRunning && isPrompt
        ? PlaybackPosition(
          heardFrames: writtenFrames + (stream == .playback ? -1 : 1) * Int64(delay), nanoseconds: after) : nil)
  }

  /// Reads how much of the stream has been heard, and when, from a thread other than the writer's.
  ///
  /// What an input on a clock of its own is placed against, read as the input's own thread wakes.
  /// alsa-lib locks the device for each call; the count of frames written is read before and
  /// after, and a reading that a write came between is let go.
  public struct PositionReader: @unchecked Sendable {
    fileprivate let pcm: ALSAPCM

    /// The position heard, and when; nil while the device is not playing, or when the reading
    /// could not be trusted (see `readDelay`).
    public func position() -> PlaybackPosition? { pcm.positionFromAnotherThread() }
  }

  /// A reader of this device's position for another thread.
  public var positionReader: PositionReader { PositionReader(pcm: self) }

  private func positionFromAnotherThread() -> PlaybackPosition? {
    guard snd_pcm_state(handle) == SND_PCM_STATE_RUNNING else { return nil }
    let before = MonotonicClock.nanoseconds
    let written = sharedWrittenFrames.load(ordering: .acquiring)
    var delay: snd_pcm_sframes_t = 0
    guard snd_pcm_delay(handle, &delay) == 0 else { return nil }
    let after = MonotonicClock.nanoseconds
    guard after - before < 1_000_000, sharedWrittenFrames.load(ordering: .acquiring) == written else { return nil }
    return PlaybackPosition(heardFrames: written - Int64(delay), nanoseconds: after)
  }

  /// Reads `frames` interleaved frames of a capture into `interleaved`, waiting for them.
  ///
  /// Starts the capture on the first read. Returns whether frames were lost on the way (an
  /// overrun, recovered from and counted), which moves what follows against what came before.
  ///
  /// A device that brings nothing for two seconds (or four periods, if longer) has stopped, as a
  /// microphone unplugged or ALSA's JACK bridge without its server does: that is an error rather
  /// than a wait without end.
  public func read(into interleaved: UnsafeMutableRawPointer, frames: Int) throws(ALSAError) -> Bool {
    let frameBytes = channels * (format == .float32 ? 4 : 2)
    let patience = Int32(max(2_000, 4 * periodFrames * 1_000 / sampleRate))
    if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED {
      try Self.check(snd_pcm_start(handle), "start capturing", device, "is it still connected?")
    }
    var lost = false
    var done = 0
    while done < frames {
      let ready = snd_pcm_wait(handle, patience)
      if ready == 0 {
        throw ALSAError(
          operation: "keep capturing", device: device, code: -EIO,
          message: "it has brought no audio for \(patience / 1_000) s",
          hint: "is it still connected, and its sound server (JACK, PulseAudio) still running?")
      }
      let result =
        ready < 0
        ? snd_pcm_sframes_t(ready)
        : snd_pcm_readi(handle, interleaved + done * frameBytes, snd_pcm_uframes_t(frames - done))
      if result >= 0 {
        done += Int(result)
        writtenFrames += Int64(result)
      } else if result != -EAGAIN {
        lost = true
        underruns += 1
        try Self.check(
          snd_pcm_recover(handle, Int32(result), 1), "capture", device, "the device stopped; is it still connected?")
        if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED {
          try Self.check(snd_pcm_start(handle), "start capturing", device, "is it still connected?")
        }
      }
    }
    return lost
  }

  /// Starts playback of what is queued even if the buffer is not full, and waits until it is heard.
  public func drain() throws(ALSAError) {
    if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED { snd_pcm_start(handle) }
    try Self.check(snd_pcm_drain(handle), "finish playing", device, "the device stopped; is it still connected?")
  }

  /// The devices ALSA's configuration and the sound cards offer for `stream`: those that name
  /// no direction go both ways.
  public static func devices(_ stream: Stream) -> [Device] {
    metronome_alsa_silence_errors()
    var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
    defer { snd_device_name_free_hint(hints) }
    func text(_ hint: UnsafeMutableRawPointer, _ field: String) -> String? {
      guard let value = snd_device_name_get_hint(hint, field) else { return nil }
      defer { free(value) }
      return String(cString: value)
    }
    var devices: [Device] = []
    var index = 0
    while let hint = hints[index] {
      index += 1
      let direction = stream == .playback ? "Output" : "Input"
      guard let name = text(hint, "NAME"), text(hint, "IOID").map({ $0 == direction }) ?? true else { continue }
      let description = (text(hint, "DESC") ?? "").split(separator: "\n").joined(separator: " — ")
      devices.append(Device(name: name, description: description))
    }
    return devices
  }

  private static func check(_ result: Int32, _ operation: String, _ device: String, _ hint: String) throws(ALSAError) {
    guard result < 0 else { return }
    throw ALSAError(
      operation: operation, device: device, code: result, message: String(cString: snd_strerror(result)), hint: hint)
  }
}
