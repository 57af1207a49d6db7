import AudioListening

/// How a listener heard a `RoomTake`: each stroke matched to the attack found nearest it, within
/// 25 ms (the detector's spacing), and the attacks no stroke was matched to.
public struct HeardTake: Sendable {
  /// For each stroke, the frame its attack was found on and its offset from its click as placed;
  /// nil where it was missed.
  public let strokes: [(frame: Int, offset: Int)?]
  /// The attacks matched to no stroke: clicks taken for strokes, or something else heard.
  public let strays: [Int]
  private let take: RoomTake

  /// What `heard` makes of `take`.
  public init(_ take: RoomTake, heard: [(Attack, Placement)]) {
    self.take = take
    var unmatched = Array(heard.indices)
    strokes = take.attacks.indices.map { stroke in
      let attack = take.attacks[stroke]
      guard
        let nearest = unmatched.min(by: { abs(Int(heard[$0].0.frame) - attack) < abs(Int(heard[$1].0.frame) - attack) }
        ),
        abs(Int(heard[nearest].0.frame) - attack) <= RoomTake.sampleRate / 40
      else { return nil }
      unmatched.removeAll { $0 == nearest }
      let (found, placement) = heard[nearest]
      return (Int(found.frame), Int(placement.frame(ofAttackAt: found.frame, offset: 0)) - take.strokeClicks[stroke])
    }
    strays = unmatched.map { Int(heard[$0].0.frame) }
  }

  /// The strokes from the input's frame `from` on that were missed, or found or placed more than
  /// a millisecond off: their indices.
  public func wrong(from: Int = 0) -> [Int] {
    take.attacks.indices.filter { stroke in
      guard take.attacks[stroke] >= from else { return false }
      guard let heard = strokes[stroke] else { return true }
      let millisecond = RoomTake.sampleRate / 1_000
      return abs(heard.frame - take.attacks[stroke]) > millisecond
        || abs(heard.offset - take.offsets[stroke]) > millisecond
    }
  }

  /// The attacks matched to no stroke from the input's frame `from` on.
  public func strays(from: Int) -> [Int] { strays.filter { $0 >= from } }

  /// How far each stroke found from the input's frame `from` on is from where its sound starts,
  /// in frames.
  public func errors(from: Int = 0) -> [Int] {
    take.attacks.indices.compactMap { stroke in
      guard take.attacks[stroke] >= from, let heard = strokes[stroke] else { return nil }
      return abs(heard.frame - take.attacks[stroke])
    }
  }
}
