import Dispatch
import MetronomeAudio
import MetronomeCore
import Synchronization

/// An ALSA capture device read on a thread of its own, its first channel handed on as floats a
/// period at a time, each with where the device says it is.
public final class ALSACapture: @unchecked Sendable {
  /// The open device.
  public let pcm: ALSAPCM
  /// What one period read holds, as the device gives it.
  private let interleaved: UnsafeMutableRawPointer
  /// Its first channel, as floats.
  private var mono: [Float]
  private let stopping = Atomic<Bool>(false)
  /// Signalled when the reader has stopped.
  private let stopped = DispatchSemaphore(value: 0)

  /// What was read: the first channel's samples, the stream's frame the first was taken in on,
  /// where the device was when they were read (nil when it could not say in time), and whether
  /// frames were lost just before them.
  public typealias Delivery =
    @Sendable (
      _ samples: UnsafeBufferPointer<Float>, _ firstFrame: Int64, _ position: PlaybackPosition?, _ lostFrames: Bool
    ) -> Void

  /// Opens `device` for capture at `sampleRate`, read `periodFrames` at a time from a buffer of
  /// `bufferFrames` (see `ALSAPCM.init` for the negotiation and the errors: a rate the device
  /// does not take is one).
  public init(device: String, sampleRate: SampleRate, periodFrames: Int, bufferFrames: Int) throws(ALSAError) {
    pcm = try ALSAPCM(
      device: device, stream: .capture, sampleRate: sampleRate, periodFrames: periodFrames, bufferFrames: bufferFrames)
    interleaved = .allocate(
      byteCount: pcm.periodFrames * pcm.channels * (pcm.format == .float32 ? 4 : 2), alignment: 8)
    mono = [Float](repeating: 0, count: pcm.periodFrames)
  }

  deinit { interleaved.deallocate() }

  /// Starts reading on a thread of its own (at real-time priority where allowed), giving each
  /// period to `deliver`, until `stop`; `failed` is called once, on that thread, if the device
  /// stops or fails.
  public func start(deliver: @escaping Delivery, failed: @escaping @Sendable (ALSAError) -> Void) {
    DispatchQueue(label: "metronome.capture", qos: .userInteractive).async { [self] in
      ThreadName.set("capture")
      RealtimePriority.whileRaised {
        do throws(ALSAError) {
          while !stopping.load(ordering: .relaxed) { try readPeriod(deliver) }
        } catch {
          if !stopping.load(ordering: .relaxed) { failed(error) }
        }
      }
      stopped.signal()
    }
  }

  /// Stops reading after the period being read, waiting up to a second for it, and closes the
  /// device: a sound server's client then leaves the server before the process goes, rather than
  /// vanishing in the middle of a cycle.
  public func stop() {
    guard !stopping.exchange(true, ordering: .relaxed) else { return }
    if stopped.wait(timeout: .now() + 1) == .success { pcm.close() }
  }

  private func readPeriod(_ deliver: Delivery) throws(ALSAError) {
    let first = pcm.writtenFrames
    let frames = pcm.periodFrames
    let lost = try pcm.read(into: interleaved, frames: frames)
    let position = pcm.readDelay().position
    let channels = pcm.channels
    for index in 0..<frames {
      mono[index] =
        pcm.format == .float32
        ? interleaved.loadUnaligned(fromByteOffset: index * channels * 4, as: Float.self)
        : Float(interleaved.loadUnaligned(fromByteOffset: index * channels * 2, as: Int16.self)) / 32_768
    }
    mono.withUnsafeBufferPointer { deliver($0, first, position, lost) }
  }
}
