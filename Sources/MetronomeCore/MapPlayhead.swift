/// Where the beats of a tempo map fall in frames as it plays, scaled by a multiplier (klick's `-x`).
///
/// Beat `n` sits at the anchor's frame plus the map's time from the anchor's beat to `n`, divided
/// by the multiplier. A new multiplier re-anchors at a beat, so the phase is kept.
public struct MapPlayhead: Hashable, Sendable {
  /// The map playing.
  public let map: TempoMap
  /// How much faster than written it plays.
  public private(set) var multiplier: Double
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  private var anchorBeat = 0
  private var anchorFrame: Int64

  /// The map's beat 0 on `startFrame`, played `multiplier` times as fast as written.
  public init(map: TempoMap, multiplier: Double, startFrame: Int64, sampleRate: SampleRate) {
    self.map = map
    self.multiplier = multiplier
    self.sampleRate = sampleRate
    anchorFrame = startFrame
  }

  /// The exact, unrounded frame of beat `n`; the map's end for `n` at or past its last beat's end.
  public func exactFrame(ofBeat n: Int) -> Double {
    let seconds = map.seconds(toBeat: n) - map.seconds(toBeat: anchorBeat)
    return Double(anchorFrame) + seconds * Double(sampleRate.hz) / multiplier
  }

  /// The frame of beat `n`.
  public func frame(ofBeat n: Int) -> Int64 { Int64(clamping: exactFrame(ofBeat: n).rounded()) }

  /// Beat `n`'s exact length in frames.
  public func length(ofBeat n: Int) -> Double { exactFrame(ofBeat: n + 1) - exactFrame(ofBeat: n) }

  /// The tempo beat `n` plays at, as multiplied.
  public func tempo(ofBeat n: Int) -> Tempo {
    guard let position = map.position(ofBeat: n) else { return Tempo(clamping: 1) ?? .standard }
    let bpm = map.sections[position.section].bpm(ofBeat: position.beatInSection) * multiplier
    return Tempo(clamping: bpm) ?? .standard
  }

  /// Plays on at `multiplier` from beat `n`, which falls on `frame`.
  public mutating func rescale(to multiplier: Double, fromBeat n: Int, atFrame frame: Int64) {
    self.multiplier = multiplier
    anchorBeat = n
    anchorFrame = frame
  }
}
