/// A row the journal reads, its columns typed as its schema has them: a value of another kind (or
/// none where the schema has one) is a journal damaged past reading.
struct JournalRow {
  private let values: [SQLiteValue]
  private let path: String

  /// `values`, read from the journal at `path`.
  init(_ values: [SQLiteValue], path: String) {
    self.values = values
    self.path = path
  }

  /// Column `index`, as its kind, or the error it is damaged.
  private func value<Value>(_ index: Int, _ kind: String, _ read: (SQLiteValue) -> Value?) throws(JournalError)
    -> Value
  {
    guard values.indices.contains(index), let value = read(values[index]) else {
      throw JournalError(path: path, .damaged("column \(index + 1) of a row is no \(kind)"))
    }
    return value
  }

  /// Column `index`, a whole number.
  func integer(_ index: Int) throws(JournalError) -> Int64 { try value(index, "whole number") { $0.integer } }

  /// Column `index`, a whole number the size of an `Int`.
  func int(_ index: Int) throws(JournalError) -> Int { Int(truncatingIfNeeded: try integer(index)) }

  /// Column `index`, a number.
  func double(_ index: Int) throws(JournalError) -> Double { try value(index, "number") { $0.double } }

  /// Column `index`, text.
  func text(_ index: Int) throws(JournalError) -> String { try value(index, "text") { $0.text } }

  /// Column `index`, a number or none.
  func optionalDouble(_ index: Int) throws(JournalError) -> Double? {
    try value(index, "number or null") { $0 == .null ? .some(nil) : $0.double.map { .some($0) } }
  }

  /// Column `index`, text or none.
  func optionalText(_ index: Int) throws(JournalError) -> String? {
    try value(index, "text or null") { $0 == .null ? .some(nil) : $0.text.map { .some($0) } }
  }
}

extension KeptTake {
  /// The take in `row` (the columns `Journal.takes` selects), with its hits and groups as read.
  init(_ row: JournalRow, hits: [TakeHit], byTempo: [Group], byNote: [Group]) throws(JournalError) {
    let first = try row.optionalDouble(6)
    let tempos = try first.map { first throws(JournalError) in
      Take.Tempos(first: first, last: try row.double(7), lowest: try row.double(8), highest: try row.double(9))
    }
    let take = Take(
      started: WallTime(seconds: try row.double(1), utcOffset: try row.int(2)), seconds: try row.double(3),
      tag: try row.optionalText(4), meters: try row.text(5).split(separator: " ").map(String.init), tempos: tempos,
      beats: try row.int(10), programme: try row.text(11), ending: try row.text(12),
      status: Int32(truncatingIfNeeded: try row.integer(13)), tolerance: try row.optionalDouble(14), hits: hits)
    let count = try row.int(15)
    let figures =
      count == 0
      ? nil
      : Figures(
        hits: count, onTime: try row.int(16), early: try row.int(17), late: try row.int(18), mean: try row.double(19),
        median: try row.double(20), deviation: try row.double(21), drift: try row.optionalDouble(22))
    self.init(id: try row.integer(0), take: take, figures: figures, byTempo: byTempo, byNote: byNote)
  }
}

extension KeptTake.Group {
  /// The group in `row` (take, kind, value, hits, on time, mean, deviation).
  init(_ row: JournalRow) throws(JournalError) {
    self.init(
      value: try row.double(2), hits: try row.int(3), onTime: try row.int(4), mean: try row.double(5),
      deviation: try row.double(6))
  }
}

extension TakeHit {
  /// The hit in `row` (take, seconds, bar, beat, subdivision, tempo, offset, note, velocity).
  init(_ row: JournalRow) throws(JournalError) {
    self.init(
      seconds: try row.double(1), bar: try row.int(2), beat: try row.int(3), subdivision: try row.int(4),
      tempo: try row.double(5), offset: try row.double(6), note: try row.int(7), velocity: try row.int(8))
  }
}
