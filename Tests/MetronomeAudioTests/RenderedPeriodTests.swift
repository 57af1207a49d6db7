import MetronomeAudio
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RenderedPeriodTests {
  /// Three clicks, one played twice as loud, and a second voice mixed over them, softer and then
  /// as it is, in a period of twelve frames: some of it past full scale either way, alone and
  /// mixed.
  private static var period: RenderedPeriod {
    RenderedPeriod(
      frames: 12,
      spans: [
        RenderedPeriod.Span(offset: 1, sound: 0, clickPosition: 0, count: 2),
        RenderedPeriod.Span(offset: 4, sound: 0, clickPosition: 1, count: 3, gain: 0.5),
        RenderedPeriod.Span(offset: 9, sound: 1, clickPosition: 1, count: 3, gain: 2),
        RenderedPeriod.Span(offset: 1, sound: 1, clickPosition: 1, count: 2, mixes: true, gain: 0.5),
        RenderedPeriod.Span(offset: 5, sound: 1, clickPosition: 0, count: 4, mixes: true),
        RenderedPeriod.Span(offset: 0, sound: 0, clickPosition: 2, count: 1, gain: 0.9),
        RenderedPeriod.Span(offset: 7, sound: 1, clickPosition: 2, count: 1, mixes: true),
        RenderedPeriod.Span(offset: 9, sound: 0, clickPosition: 0, count: 1, mixes: true),
      ][...],
      sounds: [[0.5, -0.25, 1.5, -0.75], [0.25, 0.75, -0.75, 0.125]])
  }

  /// What the period should sound, worked out span by span: scaled, added where a span mixes,
  /// and held to full scale.
  private static let expected: [Float] = {
    var out = [Float](repeating: 0, count: period.frames)
    for span in period.spans {
      for index in 0..<span.count {
        var sample = period.sounds[span.sound][span.clickPosition + index] * span.gain
        if span.mixes { sample += out[span.offset + index] }
        out[span.offset + index] = min(max(sample, -1), 1)
      }
    }
    return out
  }()

  /// Every encoding, one channel or two: the clicks where their spans are (scaled, mixed, held to
  /// full scale), the same on every channel, and silence in every other frame, whatever the
  /// buffer held before.
  @Test(arguments: SampleEncoding.allCases, [1, 2])
  func eachSpanSoundsWhereItIsAndTheRestIsSilence(encoding: SampleEncoding, channels: Int) {
    let step: Float = encoding == .float32 ? 0 : encoding == .pcm16 ? 1 / 32_767 : 1 / 8_388_607
    let frameBytes = encoding.bytesPerSample * channels
    var bytes = [UInt8](repeating: 0xAB, count: Self.period.frames * frameBytes + 8)
    bytes.withUnsafeMutableBytes { buffer in
      Self.period.encode(into: buffer, as: encoding, channels: channels)
      guard let base = buffer.baseAddress else { return }
      for frame in 0..<Self.period.frames {
        for channel in 0..<channels {
          let heard = encoding.load(from: base + frame * frameBytes + channel * encoding.bytesPerSample)
          #expect(abs(heard - Self.expected[frame]) <= step, "\(encoding) frame \(frame) channel \(channel)")
        }
      }
    }
    #expect(bytes[(Self.period.frames * frameBytes)...].allSatisfy { $0 == 0xAB }, "wrote past the period")
  }

  /// A buffer too small for the period is refused before anything is written.
  @Test func aBufferTooSmallStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      var bytes = [UInt8](repeating: 0, count: 12 * 4 - 1)
      bytes.withUnsafeMutableBytes { RenderedPeriodTests.period.encode(into: $0, as: .float32) }
    }
  }

  @Test func samplesAreThePeriodAsMonoFloats() {
    #expect(Self.period.samples == Self.expected)
    #expect(RenderedPeriod(silence: 5).samples == [0, 0, 0, 0, 0])
  }

  /// The bytes each encoding takes, which a file's header and a device's format are written from.
  @Test func eachEncodingTakesItsBytes() {
    #expect(SampleEncoding.allCases.map(\.bytesPerSample) == [2, 3, 4])
  }

  /// Integer encodings hold a sample past full scale at full scale.
  @Test(arguments: [SampleEncoding.pcm16, .pcm24])
  func integersAreHeldToFullScale(encoding: SampleEncoding) {
    var bytes = [UInt8](repeating: 0, count: 4)
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      encoding.store(1.5, at: base)
      #expect(encoding.load(from: base) == 1)
      encoding.store(-3, at: base)
      #expect(encoding.load(from: base) == -1)
    }
  }
}
