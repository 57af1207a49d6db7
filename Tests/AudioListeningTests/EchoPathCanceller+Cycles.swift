import AudioListening

extension EchoPathCanceller {
  /// Plays `output` to a room canceller given no round trip and cancels `input` in cycles of 128
  /// frames; calls `segment` with each segment given back (its first frame, its frames cancelled
  /// and bounds) and the canceller.
  static func run(
    _ output: [Float], hearing input: [Float],
    segment: (
      _ first: Int, _ cancelled: UnsafeBufferPointer<Float>, _ bound: UnsafeBufferPointer<Float>,
      _ canceller: EchoPathCanceller
    ) -> Void
  ) {
    let canceller = EchoPathCanceller(roundTrip: 0)
    output.withUnsafeBufferPointer { output in
      input.withUnsafeBufferPointer { input in
        for start in stride(from: 0, to: input.count, by: 128) {
          let end = min(start + 128, input.count)
          canceller.played(UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start))
          canceller.cancel(UnsafeBufferPointer(rebasing: input[start..<end]), from: Int64(start)) {
            segment(Int($2), $0, $1, canceller)
          }
        }
      }
    }
  }
}
