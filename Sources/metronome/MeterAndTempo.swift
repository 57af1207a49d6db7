import ArgumentParser
import MetronomeCore

/// The optional `[METER] [TEMPO] [PATTERN]` words of the command line, meter and tempo in either
/// order, the accent pattern as klick takes it: `metronome`, `metronome 132`, `metronome 7/8 200`,
/// `metronome 6/8 120 X..x..`.
struct MeterAndTempo {
  let meter: Meter
  let tempo: Tempo
  let pattern: AccentPattern?

  init(words: [String], cap: NumeratorCap) throws {
    guard words.count <= 3 else {
      throw ValidationError(
        "expected at most a meter, a tempo and a pattern, got '\(words.joined(separator: " "))'")
    }
    var meter: Meter?
    var tempo: Tempo?
    var pattern: AccentPattern?
    for word in words {
      if word.contains("/") {
        guard meter == nil else { throw ValidationError("two meters given: write one, such as 7/8") }
        do { meter = try Meter(parsing: word, cap: cap) } catch { throw ValidationError("\(error)") }
      } else if let bpm = Double(word) {
        guard tempo == nil else { throw ValidationError("two tempos given: write one, such as 120") }
        do { tempo = try Tempo(bpm: bpm) } catch { throw ValidationError("\(error)") }
      } else if let first = word.first, AccentLevel(rawValue: first) != nil {
        guard pattern == nil else { throw ValidationError("two patterns given: write one, such as X..x..") }
        do { pattern = try AccentPattern(parsing: word) } catch { throw ValidationError("\(error)") }
      } else {
        throw ValidationError(
          "'\(word)' is neither a meter (such as 7/8), a tempo (such as 120) nor an accent pattern (such as Xxxx)")
      }
    }
    self.meter = meter ?? .fourFour
    self.tempo = tempo ?? .standard
    self.pattern = pattern
  }
}
