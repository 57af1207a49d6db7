/// The exact frames of one constant-tempo stretch: beat `n` sits at
/// `anchorFrame + round(n × framesPerBeat)`, computed from the anchor each time, so rounding never
/// accumulates however long the stretch plays.
public struct BeatGrid: Hashable, Sendable {
  /// The frame of beat 0.
  public let anchorFrame: Int64
  /// The tempo of the stretch.
  public let tempo: Tempo
  /// The denominator of the meter, which sets the note value of a beat.
  public let denominator: Int
  /// The rate frames are counted at.
  public let sampleRate: SampleRate

  /// A grid whose beat 0 falls on `anchorFrame`.
  public init(anchorFrame: Int64, tempo: Tempo, denominator: Int, sampleRate: SampleRate) {
    self.anchorFrame = anchorFrame
    self.tempo = tempo
    self.denominator = denominator
    self.sampleRate = sampleRate
  }

  /// The exact, unrounded length of a beat in frames.
  public var framesPerBeat: Double {
    Double(sampleRate.hz) * 240 / (tempo.bpm * Double(denominator))
  }

  /// The frame of beat `n`.
  ///
  /// The numerator `n × rate × 240` is an exact integer in a Double for
  /// any run shorter than a century, so the one division is the only rounding before the last.
  public func frame(ofBeat n: Int) -> Int64 {
    let offset = Double(n) * Double(sampleRate.hz) * 240 / (tempo.bpm * Double(denominator))
    // Runs end long before 64 bits run out (`PlayLength.longestSeconds`); past that, hold the
    // last frame rather than trap.
    let (frame, overflow) = anchorFrame.addingReportingOverflow(Int64(clamping: offset))
    return overflow ? .max : frame
  }

  /// Whether two grids space their beats the same way (only the anchor may differ).
  public func hasSameSpacing(as other: BeatGrid) -> Bool {
    tempo == other.tempo && denominator == other.denominator && sampleRate == other.sampleRate
  }
}
