/// klick's speed trainer on a steady tempo, as its OSC remote control sets it: from the start,
/// each beat after the first adds `increment` spread over the bar's beats, up to `limit`, or up to
/// the tempo the player set when the trainer starts below it.
public struct SpeedTrainer: Hashable, Sendable {
  /// BPM added each bar (negative slows down); 0 for no trainer.
  public var increment: Double
  /// The tempo it starts from; 0 to start from the tempo the player set.
  public var start: Double
  /// The tempo it stops at; 0 for none (then the player's tempo, when it starts elsewhere).
  public var limit: Double

  /// No trainer, as klick starts.
  public static let off = SpeedTrainer(increment: 0, start: 0, limit: 0)

  /// A trainer as given; a value that is not a finite number is taken as 0.
  public init(increment: Double, start: Double, limit: Double) {
    let finite = { (value: Double) in value.isFinite ? value : 0 }
    self.increment = finite(increment)
    self.start = finite(start)
    self.limit = finite(limit)
  }

  /// Whether it changes the tempo at all.
  public var isOn: Bool { increment != 0 }

  /// The tempo to start playing at, with `chosen` the tempo the player set.
  public func startingTempo(chosen: Double) -> Double { isOn && start != 0 ? start : chosen }

  /// The tempo after one more beat of a bar of `beats`, from `current`, with `chosen` the tempo
  /// the player set.
  public func tempo(after current: Double, beats: Int, chosen: Double) -> Double {
    guard isOn else { return current }
    let next = current + increment / Double(max(beats, 1))
    let bound = limit != 0 ? limit : start != 0 ? chosen : nil
    guard let bound else { return next }
    return increment > 0 ? min(next, bound) : max(next, bound)
  }
}
