/// Tap tempo: the tempo of the recent taps, averaged; a pause longer than `resetAfter` seconds
/// starts a new measurement.
public struct TapTempo: Hashable, Sendable {
  /// How many intervals the average spans at most.
  public let maxIntervals: Int
  /// Seconds of silence after which the next tap starts over.
  public let resetAfter: Double
  private var taps: [Double] = []

  /// An estimator averaging up to `maxIntervals` intervals, reset by a pause of `resetAfter` seconds.
  public init(maxIntervals: Int = 4, resetAfter: Double = 2) {
    self.maxIntervals = max(1, maxIntervals)
    self.resetAfter = resetAfter
  }

  /// Records a tap at `seconds` and returns the tempo it implies for beats of the given
  /// denominator, to one decimal, or nil while there is only one tap to go on.
  public mutating func tap(atSeconds seconds: Double, denominator: Int) -> Tempo? {
    if let previous = taps.last, seconds - previous > resetAfter || seconds <= previous {
      taps.removeAll(keepingCapacity: true)
    }
    taps.append(seconds)
    if taps.count > maxIntervals + 1 { taps.removeFirst() }
    guard let first = taps.first, let last = taps.last, taps.count >= 2 else { return nil }
    let secondsPerBeat = (last - first) / Double(taps.count - 1)
    let bpm = 240 / (secondsPerBeat * Double(denominator))
    return Tempo(clamping: (bpm * 10).rounded() / 10)
  }
}
