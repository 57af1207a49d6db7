import Glibc

/// A song as klick's tempo maps describe it: sections played one after another, each a number of
/// bars in a meter at a steady tempo, a tempo ramp or a tempo for every beat, with an optional
/// label, accent pattern and volume.
///
/// It places every beat exactly: beat `k` of a section starts at the section's start plus the time
/// its tempo takes to reach it, a ramp's tempo changing evenly from beat to beat (so a beat lasts
/// as long as the logarithmic mean of its two ends says, as in klick); nothing is added up beat by
/// beat, so rounding never accumulates.
public struct TempoMap: Hashable, Sendable {
  /// One line of a map.
  public struct Section: Hashable, Sendable {
    /// The name a run may start from; nil for none.
    public var label: String?
    /// How many bars it lasts; nil for ever (the hold at the end of a speed trainer).
    public var bars: Int?
    /// Its meter.
    public var meter: Meter
    /// How fast it plays.
    public var tempo: SectionTempo
    /// The level of each beat; nil for beat one strong, the others normal.
    public var pattern: AccentPattern?
    /// Its loudness, 1 as given.
    public var volume: Double
    /// How its beats are divided; nil for as the run divides them.
    public var subdivision: Subdivision?
    /// The bars (counted from its first) or beats it mutes; nil for none of its own.
    public var gap: Gap?

    /// A section as given.
    public init(
      label: String? = nil, bars: Int?, meter: Meter = .fourFour, tempo: SectionTempo,
      pattern: AccentPattern? = nil, volume: Double = 1, subdivision: Subdivision? = nil, gap: Gap? = nil
    ) {
      self.label = label
      self.bars = bars
      self.meter = meter
      self.tempo = tempo
      self.pattern = pattern
      self.volume = volume
      self.subdivision = subdivision
      self.gap = gap
    }

    /// Beats in the section; nil for ever.
    public var beats: Int? { bars.map { $0 * meter.numerator } }

    /// Seconds from the section's start to its beat `k` (counted from 0); a whole section's
    /// length for `k` equal to its beats.
    ///
    /// For a tempo per beat this adds up the beats before `k`: `TempoMap` keeps those sums.
    public func seconds(toBeat k: Int) -> Double {
      let quarter = 240 / Double(meter.denominator)
      switch tempo {
      case .steady(let bpm):
        return Double(k) * quarter / bpm
      case .ramp(let first, let last):
        guard first != last, let beats, beats > 0 else { return Double(k) * quarter / first }
        let reached = first + (last - first) * Double(k) / Double(beats)
        return quarter * Double(beats) / (last - first) * log(reached / first)
      case .perBeat(let tempos):
        return tempos.prefix(k).reduce(0) { $0 + quarter / $1 }
      }
    }

    /// The tempo of its beat `k`, in quarter notes per minute.
    public func bpm(ofBeat k: Int) -> Double {
      switch tempo {
      case .steady(let bpm): return bpm
      case .ramp(let first, let last):
        guard let beats, beats > 0 else { return first }
        return first + (last - first) * Double(k) / Double(beats)
      case .perBeat(let tempos): return tempos[min(k, tempos.count - 1)]
      }
    }
  }

  /// How fast a section plays, in quarter notes per minute, whatever its meter.
  public enum SectionTempo: Hashable, Sendable {
    /// One tempo throughout.
    case steady(Double)
    /// From the first tempo at its first beat evenly to the second at the beat after its last.
    case ramp(from: Double, to: Double)
    /// A tempo for every beat.
    case perBeat([Double])
  }

  /// A beat's place in the map.
  public struct Position: Hashable, Sendable {
    /// The section it is in, counted from 0.
    public let section: Int
    /// The beat within the section, counted from 0.
    public let beatInSection: Int
  }

  /// The sections, in playing order.
  public let sections: [Section]
  /// The first beat of each section, counted over the whole map, and one past the last section.
  private let firstBeats: [Int]
  /// The first bar of each section, counted from 0 over the whole map, and one past the last.
  private let firstBars: [Int]
  /// The seconds from the map's start to each section's, and to the end of the last.
  private let startSeconds: [Double]
  /// For each section with a tempo per beat, the seconds from its start to each of its beats.
  private let perBeatSeconds: [Int: [Double]]

  /// Whether it starts again from its first section once it ends, for ever.
  public let loops: Bool
  /// The count-in the map asks for before its first section; nil for none.
  public let countIn: CountIn?

  /// A map of `sections`, played once or, if it `loops`, again and again, after `countIn`;
  /// only the last section of a map played once may last for ever.
  public init(sections: [Section], loops: Bool = false, countIn: CountIn? = nil) {
    precondition(
      !sections.isEmpty && sections.dropLast().allSatisfy { $0.bars != nil }, "only the last section may be endless")
    precondition(!loops || sections.last?.bars != nil, "a map that loops has an end to loop from")
    self.sections = sections
    self.loops = loops
    self.countIn = countIn
    var beats = [0]
    var bars = [0]
    var seconds = [0.0]
    var beat = 0
    var second = 0.0
    for section in sections {
      beat += section.beats ?? Int.max / 2
      bars.append((bars.last ?? 0) + (section.bars ?? Int.max / 4))
      second += section.beats.map { section.seconds(toBeat: $0) } ?? .infinity
      beats.append(beat)
      seconds.append(second)
    }
    firstBeats = beats
    firstBars = bars
    startSeconds = seconds
    var sums: [Int: [Double]] = [:]
    for (index, section) in sections.enumerated() {
      guard case .perBeat(let tempos) = section.tempo else { continue }
      let quarter = 240 / Double(section.meter.denominator)
      var sum = 0.0
      sums[index] =
        [0]
        + tempos.map { tempo in
          sum += quarter / tempo
          return sum
        }
    }
    perBeatSeconds = sums
  }

  /// Beats in the whole map; nil when it plays for ever.
  public var beatCount: Int? { loops || sections.last?.bars == nil ? nil : firstBeats.last }

  /// Bars in one pass through the map; nil when its last section plays for ever.
  public var barCount: Int? { sections.last?.bars == nil ? nil : firstBars.last }

  /// Seconds the whole map lasts; infinite when it plays for ever.
  public var duration: Double { loops ? .infinity : lapDuration }

  /// Beats and seconds of one pass through the sections.
  private var lapBeats: Int { firstBeats.last ?? 0 }
  private var lapDuration: Double { startSeconds.last ?? 0 }

  /// The first beat of section `index`, counted over one pass through the map.
  public func firstBeat(ofSection index: Int) -> Int { firstBeats[min(max(index, 0), sections.count)] }

  /// The first beat of bar `bar` (counted from 1 over one pass through the map); nil for a bar
  /// the map does not have.
  public func firstBeat(ofBar bar: Int) -> Int? {
    guard bar >= 1, bar <= firstBars.last ?? 0 else { return nil }
    let index = (firstBars.lastIndex { $0 < bar } ?? 0)
    let section = sections[index]
    let (beat, overflow) = (bar - 1 - firstBars[index]).multipliedReportingOverflow(by: section.meter.numerator)
    return overflow ? nil : firstBeats[index] + beat
  }

  /// Where beat `n` of the map (counted from 0) falls; nil past its end.
  public func position(ofBeat n: Int) -> Position? {
    guard n >= 0 else { return nil }
    if loops, n >= lapBeats { return position(ofBeat: n % lapBeats) }
    guard n < lapBeats else { return nil }
    // The last section whose first beat is not after `n`.
    var low = 0
    var high = sections.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if firstBeats[middle] <= n { low = middle } else { high = middle - 1 }
    }
    return Position(section: low, beatInSection: n - firstBeats[low])
  }

  /// Seconds from the map's start to beat `n`; the end of the map for `n` one past its last beat.
  public func seconds(toBeat n: Int) -> Double {
    if loops, n >= lapBeats { return Double(n / lapBeats) * lapDuration + seconds(toBeat: n % lapBeats) }
    guard let position = position(ofBeat: n) else { return duration }
    let within =
      perBeatSeconds[position.section]?[position.beatInSection]
      ?? sections[position.section].seconds(toBeat: position.beatInSection)
    return startSeconds[position.section] + within
  }

  /// The map from the section labelled `label` on.
  public func starting(at label: String) -> TempoMap? {
    sections.firstIndex { $0.label == label }.map {
      TempoMap(sections: Array(sections[$0...]), countIn: countIn)
    }
  }
}

extension TempoMap {
  /// klick's speed trainer `START-TARGET/BARS`, as klick builds it: a ramp from `start` to
  /// `target` over ceil(`barsPerBPM` × the change) bars, then `target` for ever; nil when
  /// `barsPerBPM` is not more than 0 or the ramp would be longer than a section may be.
  public static func klickTrainer(
    from start: Double, to target: Double, barsPerBPM: Double, meter: Meter, pattern: AccentPattern?
  ) -> TempoMap? {
    let length = (barsPerBPM * abs(target - start)).rounded(.up)
    guard barsPerBPM.isFinite, barsPerBPM > 0, length <= Double(TempoMapParser.maximumBars) else { return nil }
    let hold = Section(bars: nil, meter: meter, tempo: .steady(target), pattern: pattern)
    guard length > 0 else { return TempoMap(sections: [hold]) }
    let ramp = Section(bars: Int(length), meter: meter, tempo: .ramp(from: start, to: target), pattern: pattern)
    return TempoMap(sections: [ramp, hold])
  }

  /// How long a step trainer stays at each tempo.
  public enum StepLength: Hashable, Sendable {
    /// This many bars.
    case bars(Int)
    /// The whole number of bars (at least one) closest to this many seconds at that tempo.
    case seconds(Double)
  }

  /// The most tempos a step trainer may step through.
  public static let mostSteps = 10_000

  /// A step trainer as practice apps have it: from `start`, `step` BPM (negative to slow down)
  /// every `length`, to `target`, which is held for ever, or, if it `loops`, played for one step
  /// before the trainer starts again from `start`; nil when the steps cannot reach the target
  /// (a step of 0, or away from it) or would be more than `mostSteps`.
  public static func stepTrainer(
    from start: Double, to target: Double, step: Double, every length: StepLength, meter: Meter,
    pattern: AccentPattern?, loops: Bool
  ) -> TempoMap? {
    guard step.isFinite, step != 0, (target - start) * step >= 0 else { return nil }
    let steps = ((target - start) / step).rounded(.up)
    guard steps < Double(mostSteps) else { return nil }
    let count = Int(steps)
    let tempos = (0..<count).map { start + Double($0) * step } + [target]
    let sections = tempos.enumerated().map { index, bpm in
      let bars: Int
      switch length {
      case .bars(let count): bars = count
      case .seconds(let seconds):
        let bar = Double(meter.numerator) * 240 / (bpm * Double(meter.denominator))
        // Any number of seconds, 1e300 too, gives a count of bars a section can hold.
        bars = Int(min(max((seconds / bar).rounded(), 1), Double(TempoMapParser.maximumBars)))
      }
      let holds = index == tempos.count - 1 && !loops
      return Section(bars: holds ? nil : bars, meter: meter, tempo: .steady(bpm), pattern: pattern)
    }
    return TempoMap(sections: sections, loops: loops)
  }
}
