import MetronomeCore

/// The optional `[METER] [TEMPO] [PATTERN]` words of the command line.
///
/// Meter and tempo come in either order, the accent pattern as klick takes it: `metronome`,
/// `metronome 132`, `metronome 7/8 200`, `metronome 6/8 120 X..x..`. The tempo may be klick's
/// speed trainer, `START-TARGET/BARS`: from START evenly to TARGET over BARS bars per BPM, then
/// holding TARGET.
public struct MeterAndTempo: Sendable {
  /// The meter given; 4/4 without one.
  public let meter: Meter
  /// The tempo given (a trainer's starting one); 120 without one.
  public let tempo: Tempo
  /// The accent pattern given, if any.
  public let pattern: AccentPattern?
  /// The speed trainer's target tempo and bars per BPM, if the tempo was written as one.
  public let trainer: (target: Tempo, barsPerBPM: Double)?

  /// The words read; throws a usage error for words that are none of these, or two of one kind.
  ///
  /// A meter is taken as written, up to 64 beats a bar whatever its note value.
  public init(words: [String]) throws(RunError) {
    guard words.count <= 3 else {
      throw RunError.usage(
        "expected at most a meter, a tempo and a pattern, got '\(words.joined(separator: " "))'")
    }
    var meter: Meter?
    var tempo: Tempo?
    var pattern: AccentPattern?
    var trainer: (target: Tempo, barsPerBPM: Double)?
    for word in words {
      if let ramp = Self.trainer(word) {
        guard tempo == nil else { throw RunError.usage("two tempos given: write one, such as 120") }
        do {
          tempo = try Tempo(bpm: ramp.start)
          trainer = (try Tempo(bpm: ramp.target), ramp.barsPerBPM)
        } catch {
          throw RunError.usage("\(error)")
        }
        guard
          TempoMap.klickTrainer(
            from: ramp.start, to: ramp.target, barsPerBPM: ramp.barsPerBPM, meter: .fourFour, pattern: nil) != nil
        else {
          throw RunError.usage(
            "'\(word)': the bars per BPM after '/' must be more than 0, such as 80-120/10 (1 BPM every 10 bars)")
        }
      } else if word.contains("/") {
        guard meter == nil else { throw RunError.usage("two meters given: write one, such as 7/8") }
        do { meter = try Meter(parsing: word, cap: .widest) } catch { throw RunError.usage("\(error)") }
      } else if let bpm = Double(word) {
        guard tempo == nil else { throw RunError.usage("two tempos given: write one, such as 120") }
        do { tempo = try Tempo(bpm: bpm) } catch { throw RunError.usage("\(error)") }
      } else if let first = word.first, AccentLevel(rawValue: first) != nil {
        guard pattern == nil else { throw RunError.usage("two patterns given: write one, such as X..x..") }
        do { pattern = try AccentPattern(parsing: word) } catch { throw RunError.usage("\(error)") }
      } else {
        throw RunError.usage(
          "'\(word)' is neither a meter (such as 7/8), a tempo (such as 120 or the trainer 80-120/10) nor an"
            + " accent pattern (such as Xxxx)")
      }
    }
    self.meter = meter ?? .fourFour
    self.tempo = tempo ?? .standard
    self.pattern = pattern
    self.trainer = trainer
  }

  /// `80-120/10` as its start, target and bars per BPM; nil for any other word.
  private static func trainer(_ word: String) -> (start: Double, target: Double, barsPerBPM: Double)? {
    let slash = word.split(separator: "/", omittingEmptySubsequences: false)
    guard slash.count == 2, let barsPerBPM = Double(slash[1]) else { return nil }
    let dash = slash[0].split(separator: "-", omittingEmptySubsequences: false)
    guard dash.count == 2, let start = Double(dash[0]), let target = Double(dash[1]) else { return nil }
    return (start, target, barsPerBPM)
  }

  /// The speed trainer as klick plays it, in `pattern`: a ramp from the tempo to the target over
  /// ceil(bars per BPM × the change) bars, then the target for ever; nil without a trainer.
  public func trainerMap(pattern: AccentPattern?) -> TempoMap? {
    trainer.flatMap {
      TempoMap.klickTrainer(
        from: tempo.bpm, to: $0.target.bpm, barsPerBPM: $0.barsPerBPM, meter: meter, pattern: pattern)
    }
  }
}
