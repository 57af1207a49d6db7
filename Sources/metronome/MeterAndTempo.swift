import ArgumentParser
import MetronomeCore

/// The optional `[METER] [TEMPO]` words of the command line, read in either order:
/// `metronome`, `metronome 132`, `metronome 7/8 200`.
struct MeterAndTempo {
  let meter: Meter
  let tempo: Tempo

  init(words: [String], cap: NumeratorCap) throws {
    guard words.count <= 2 else {
      throw ValidationError("expected at most a meter and a tempo, got '\(words.joined(separator: " "))'")
    }
    var meter: Meter?
    var tempo: Tempo?
    for word in words {
      if word.contains("/") {
        guard meter == nil else { throw ValidationError("two meters given: write one, such as 7/8") }
        do { meter = try Meter(parsing: word, cap: cap) } catch { throw ValidationError("\(error)") }
      } else {
        guard tempo == nil else { throw ValidationError("two tempos given: write one, such as 120") }
        guard let bpm = Double(word) else {
          throw ValidationError("'\(word)' is neither a meter (such as 7/8) nor a tempo (such as 120)")
        }
        do { tempo = try Tempo(bpm: bpm) } catch { throw ValidationError("\(error)") }
      }
    }
    self.meter = meter ?? .fourFour
    self.tempo = tempo ?? .standard
  }
}
