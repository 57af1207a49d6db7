import Glibc

/// One period of audio as the renderer describes it: silence, except for the spans where a click
/// sounds.
///
/// Each sink turns it into samples of its own format; silence (all zero bits in every
/// format) is one `memset`, and only the click samples are converted.
public struct RenderedPeriod {
  /// Where part of a click sounds in the period.
  public struct Span: Equatable, Sendable {
    /// The first frame of the span within the period.
    public let offset: Int
    /// Which of the period's `sounds` it plays.
    public let sound: Int
    /// The index of the span's first sample within the click.
    public let clickPosition: Int
    /// How many frames the span lasts.
    public let count: Int
    /// Whether it is added to what sounds there already (a second voice) rather than written.
    public let mixes: Bool
    /// How loud the click plays, 1 as it is (a tempo map's section may play it softer or louder).
    public let gain: Float

    /// A span of `count` frames from `offset`, playing click `sound` from `clickPosition` at
    /// `gain`, added to what sounds there if it `mixes`.
    public init(offset: Int, sound: Int, clickPosition: Int, count: Int, mixes: Bool = false, gain: Float = 1) {
      self.offset = offset
      self.sound = sound
      self.mixes = mixes
      self.clickPosition = clickPosition
      self.count = count
      self.gain = gain
    }
  }

  /// Frames in the period.
  public let frames: Int
  /// The click spans: first the beats', in order and not overlapping, then the second voice's,
  /// which mix into them.
  public let spans: ArraySlice<Span>
  /// The clicks the spans play, each as samples.
  public let sounds: [[Float]]

  /// A period of `frames` frames in which `spans` sound `sounds`.
  public init(frames: Int, spans: ArraySlice<Span>, sounds: [[Float]]) {
    self.frames = frames
    self.spans = spans
    self.sounds = sounds
  }

  /// A period of `frames` frames of silence.
  public init(silence frames: Int) {
    self.init(frames: frames, spans: [][...], sounds: [])
  }

  /// Writes the period into `buffer` as `encoding`, each frame repeated over `channels`;
  /// `buffer` must hold `frames × channels` samples.
  public func encode(into buffer: UnsafeMutableRawBufferPointer, as encoding: SampleEncoding, channels: Int = 1) {
    let frameBytes = encoding.bytesPerSample * channels
    precondition(buffer.count >= frames * frameBytes, "buffer too small for the period")
    guard let base = buffer.baseAddress else { return }
    memset(base, 0, frames * frameBytes)
    for span in spans {
      sounds[span.sound].withUnsafeBufferPointer { samples in
        guard let source = samples.baseAddress.map({ $0 + span.clickPosition }) else { return }
        let target = base + span.offset * frameBytes
        #if _endian(little)
        if encoding == .float32, channels == 1 {
          Self.encodeMonoFloat(source, into: target, count: span.count, mixing: span.mixes, gain: span.gain)
          return
        }
        #endif
        for index in 0..<span.count {
          let frame = target + index * frameBytes
          var sample = source[index] * span.gain
          // What the beats left here, from the first channel (every channel holds the same).
          if span.mixes { sample += encoding.load(from: frame) }
          sample = min(max(sample, -1), 1)
          for channel in 0..<channels { encoding.store(sample, at: frame + channel * encoding.bytesPerSample) }
        }
      }
    }
  }

  /// The common case of a sound server's device and a float file, on a machine that stores
  /// floats as they are written (little-endian): a copy, or a loop over whole floats the compiler
  /// can vectorise, scaled and clamped, summed for a second voice.
  private static func encodeMonoFloat(
    _ source: UnsafePointer<Float>, into target: UnsafeMutableRawPointer, count: Int, mixing: Bool, gain: Float
  ) {
    guard mixing || gain != 1 else {
      target.copyMemory(from: source, byteCount: count * MemoryLayout<Float>.size)
      return
    }
    // Raw loads and stores: the buffer's memory may be bound to bytes.
    let size = MemoryLayout<Float>.size
    if mixing {
      for index in 0..<count {
        let mixed = target.loadUnaligned(fromByteOffset: index * size, as: Float.self) + source[index] * gain
        target.storeBytes(of: min(max(mixed, -1), 1), toByteOffset: index * size, as: Float.self)
      }
    } else {
      for index in 0..<count {
        target.storeBytes(of: min(max(source[index] * gain, -1), 1), toByteOffset: index * size, as: Float.self)
      }
    }
  }

  /// The period as mono float samples (allocates: for checks, not for the render path).
  public var samples: [Float] {
    var samples = [Float](repeating: 0, count: frames)
    samples.withUnsafeMutableBytes { encode(into: $0, as: .float32) }
    return samples
  }
}
