import MetronomeAudio
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SampleEncodingTests {
  /// What `store` writes, `load` reads back to within the format's step: mixing a second voice
  /// reads what the first wrote.
  @Test(arguments: SampleEncoding.allCases)
  func loadReadsBackWhatStoreWrote(encoding: SampleEncoding) {
    let step: Float =
      switch encoding {
      case .pcm16: 1 / 32_767
      case .pcm24: 1 / 8_388_607
      case .float32: 0
      }
    var bytes = [UInt8](repeating: 0, count: 4)
    for sample: Float in [0, 0.5, -0.5, 1, -1, 0.123_456, -0.000_1] {
      bytes.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        encoding.store(sample, at: base)
        #expect(abs(encoding.load(from: base) - sample) <= step, "\(encoding) \(sample)")
      }
    }
  }
}
