import MetronomeAudio
import MetronomeCore

/// Plays rendered audio through an ALSA PCM, in the device's format and channels, from a buffer
/// allocated once.
public final class ALSASink: AudioSink {
  /// The rate it plays at.
  public let sampleRate: SampleRate
  /// The open device.
  public let pcm: ALSAPCM
  private let encoding: SampleEncoding
  private var bytes: [UInt8]
  private var detector: GlitchDetector
  /// The position read with the last delay, for `takeLostFrames`, which the player calls after
  /// it: one reading of the device per write serves both.
  private var positionWithLastDelay: PlaybackPosition?
  /// What is given each period written, as mono floats with its first frame; nil for nothing.
  private var tap: ((UnsafeBufferPointer<Float>, Int64) -> Void)?
  private var tapped: [Float] = []

  /// Opens `device`; see `ALSAPCM.init` for the negotiation, the buffer's growth and the errors.
  public init(
    device: String, sampleRate: SampleRate, periodFrames: Int, bufferFrames: Int, maximumBufferFrames: Int? = nil
  ) throws(ALSAError) {
    self.sampleRate = sampleRate
    pcm = try ALSAPCM(
      device: device, sampleRate: sampleRate, periodFrames: periodFrames, bufferFrames: bufferFrames,
      maximumBufferFrames: maximumBufferFrames)
    encoding = pcm.format == .float32 ? .float32 : .pcm16
    // The largest buffer it may grow to bounds what a glitch can have dropped.
    detector = GlitchDetector(
      sampleRate: sampleRate.hz, cycleFrames: pcm.periodFrames, bufferFrames: pcm.maximumBufferFrames,
      mayBeStale: pcm.isSoundCard)
    // Sized for the writes the player makes, so the render path never grows it.
    bytes = [UInt8](repeating: 0, count: pcm.writeFrames * pcm.channels * encoding.bytesPerSample)
  }

  /// Frames written but not yet heard.
  public var outputDelayFrames: Int64 { readDelay().frames }

  /// Frames written but not yet heard, read now, and when; nil until the device plays.
  public func timedOutputDelay() -> (frames: Int64, nanoseconds: Int64)? {
    let reading = readDelay()
    return reading.position.map { (reading.frames, $0.nanoseconds) }
  }

  /// Reads the device's delay, keeping the position read with it for `takeLostFrames`.
  private func readDelay() -> ALSAPCM.DelayReading {
    let reading = pcm.readDelay()
    positionWithLastDelay = reading.position
    return reading
  }

  /// Underruns recovered from so far.
  public var underrunCount: Int { pcm.underruns }

  /// The device's buffer now, grown after underruns.
  public var bufferFrames: Int { pcm.bufferFrames }

  /// What a glitch cost since last asked, from the position read with the last delay and the
  /// time it was read.
  public func takeLostFrames() -> Int64 {
    defer { positionWithLastDelay = nil }
    guard let position = positionWithLastDelay else { return 0 }
    return detector.lostFrames(at: position)
  }

  /// Gives `body` each period before it is written, as mono samples with the stream's frame it
  /// starts on (on the render thread): what a listener takes out of what its input hears.
  public func beforeEachWrite(_ body: @escaping (UnsafeBufferPointer<Float>, Int64) -> Void) {
    tapped = [Float](repeating: 0, count: pcm.writeFrames)
    tap = body
  }

  /// Silence played before the stream, in seconds, so that the device's position has settled
  /// (`GlitchDetector`) before the first click sounds; longer on a sound card used without a
  /// sound server, whose positions take more readings (0.9 s through dmix).
  ///
  /// A sound server's first positions of a stream are stale, and a machine may stall a process
  /// just as it starts: a cycle lost then could not be found, and every click after the first
  /// would be off its grid without a word (as in one loaded run of the suite in five, a PipeWire
  /// cycle late). Lost during the lead-in, a cycle only delays the first click.
  private static let leadInSeconds = 0.25
  private var hasLedIn = false

  /// Plays `period` on the device, waiting until it has room for it.
  public func write(_ period: RenderedPeriod) throws {
    if !hasLedIn { try leadIn() }
    if let tap {
      if tapped.count < period.frames { tapped = [Float](repeating: 0, count: period.frames) }
      tapped.withUnsafeMutableBytes { period.encode(into: $0, as: .float32) }
      tapped.withUnsafeBufferPointer { tap(UnsafeBufferPointer(rebasing: $0[0..<period.frames]), pcm.writtenFrames) }
    }
    let count = period.frames * pcm.channels * encoding.bytesPerSample
    if bytes.count < count { bytes = [UInt8](repeating: 0, count: count) }
    try bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      period.encode(into: buffer, as: encoding, channels: pcm.channels)
      try pcm.write(base, frames: period.frames)
    }
  }

  /// Plays the lead-in, reading the device's position as it goes, so that the detector has
  /// settled by the stream's first frame; what it finds lost before then moves no click against
  /// another, so the grid is set after it.
  private func leadIn() throws {
    hasLedIn = true
    // In whole writes, as the stream's own come: a server that takes the whole buffer each cycle
    // (PipeWire's plugin, whose buffer is one cycle) finds it full only if writes fill it exactly.
    // A sound card's positions take more readings to settle (`GlitchDetector`): one a write, from
    // when the buffer is full and the device starts.
    let writes = max(
      Int((Double(sampleRate.hz) * Self.leadInSeconds / Double(pcm.writeFrames)).rounded(.up)),
      detector.readingsToSettle + pcm.bufferFrames / pcm.writeFrames)
    let frames = writes * pcm.writeFrames
    pcm.beginWithLeadIn(of: frames)
    var left = frames
    while left > 0 {
      let chunk = min(left, pcm.writeFrames)
      try writeSilence(frames: chunk)
      left -= chunk
      if let position = pcm.readDelay().position { _ = detector.lostFrames(at: position) }
    }
    detector.setGrid()
  }

  /// Writes `frames` of silence, a write's worth at a time.
  private func writeSilence(frames: Int) throws {
    let frameBytes = pcm.channels * encoding.bytesPerSample
    try bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      buffer.initializeMemory(as: UInt8.self, repeating: 0)
      var left = frames
      while left > 0 {
        let written = min(left, buffer.count / frameBytes)
        try pcm.write(base, frames: written)
        left -= written
      }
    }
  }

  /// Plays out what is queued, followed by a buffer of silence: ALSA's JACK bridge repeats the
  /// last period it played until the device is closed, which would sound a final click as a buzz.
  public func finish() throws {
    try writeSilence(frames: pcm.bufferFrames)
    try pcm.drain()
  }
}
