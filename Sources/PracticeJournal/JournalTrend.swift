import PracticeListening

/// A tag's practice day by day: the minutes played, the fastest tempo kept, and the timing of the
/// day's hits, whole and per note (a limb, on a kit) where several were played.
public struct JournalTrend: Equatable, Sendable {
  /// One day of a tag's practice.
  public struct Day: Equatable, Sendable {
    /// The player's day: "2026-11-27".
    public let day: String
    /// The takes played that day.
    public let takes: Int
    /// The minutes played that day.
    public let minutes: Double
    /// The fastest tempo at which at least `keptShare` of the day's hits (at least `leastHits`)
    /// were within tolerance; nil where none was.
    public let fastestKept: Double?
    /// The day's hits pooled: their count, mean and spread; nil for a day without hits.
    public let hits: Pooled?
    /// The same per note, lowest first, where the day's hits had more than one.
    public let byNote: [NoteHits]
  }

  /// The hits of one note (a limb, on a kit), pooled.
  public struct NoteHits: Equatable, Sendable {
    /// The MIDI note, `Hit.keyNote` or `Hit.audioNote`.
    public let note: Int
    /// Its hits.
    public let hits: Pooled
  }

  /// Hits of several takes taken together.
  public struct Pooled: Equatable, Sendable {
    /// How many.
    public let hits: Int
    /// Within tolerance either way.
    public let onTime: Int
    /// Their mean offset, in ms.
    public let mean: Double
    /// The population standard deviation of all their offsets, in ms.
    public let deviation: Double

    /// `parts` taken together, each some hits with how many were on time, their mean and
    /// spread: the mean of all their hits and the spread of all of them about it.
    init?(_ parts: [(hits: Int, onTime: Int, mean: Double, deviation: Double)]) {
      let count = parts.reduce(0) { $0 + $1.hits }
      guard count > 0 else { return nil }
      let total = Double(count)
      let mean = parts.reduce(0) { $0 + Double($1.hits) * $1.mean } / total
      let square = parts.reduce(0) { $0 + Double($1.hits) * ($1.deviation * $1.deviation + $1.mean * $1.mean) } / total
      hits = count
      onTime = parts.reduce(0) { $0 + $1.onTime }
      self.mean = mean
      deviation = max(square - mean * mean, 0).squareRoot()
    }

    /// `groups` taken together.
    init?(_ groups: [KeptTake.Group]) { self.init(groups.map { ($0.hits, $0.onTime, $0.mean, $0.deviation) }) }

    /// The share of hits on time, 0 to 1.
    public var onTimeShare: Double { Double(onTime) / Double(hits) }
  }

  /// The share of a tempo's hits within tolerance at which the tempo counts as kept.
  public static let keptShare = 0.9
  /// The fewest hits at a tempo for it to count as kept: two bars of 4/4.
  public static let leastHits = 8

  /// The tag; nil for takes without one.
  public let tag: String?
  /// Its days, oldest first.
  public let days: [Day]

  /// The trend of each tag among `takes` (untagged takes under nil), in the order the tags were
  /// first played.
  public static func of(_ takes: [KeptTake]) -> [JournalTrend] {
    var tags: [String?] = []
    for kept in takes where !tags.contains(kept.take.tag) { tags.append(kept.take.tag) }
    return tags.map { tag in
      let tagged = takes.filter { $0.take.tag == tag }
      var days: [String] = []
      for kept in tagged where !days.contains(kept.take.started.day) { days.append(kept.take.started.day) }
      return JournalTrend(
        tag: tag, days: days.map { day in Self.day(day, tagged.filter { $0.take.started.day == day }) })
    }
  }

  private static func day(_ day: String, _ takes: [KeptTake]) -> Day {
    let tempos = Dictionary(grouping: takes.flatMap(\.byTempo), by: \.value)
    let kept = tempos.compactMap { tempo, groups in
      Pooled(groups).flatMap { $0.hits >= leastHits && $0.onTimeShare >= keptShare ? tempo : nil }
    }
    let notes = Dictionary(grouping: takes.flatMap(\.byNote)) { Int($0.value) }.sorted { $0.key < $1.key }
      .compactMap { note, groups in Pooled(groups).map { NoteHits(note: note, hits: $0) } }
    let whole = takes.compactMap { $0.figures.map { ($0.hits, $0.onTime, $0.mean, $0.deviation) } }
    return Day(
      day: day, takes: takes.count, minutes: takes.reduce(0) { $0 + $1.take.seconds } / 60, fastestKept: kept.max(),
      hits: Pooled(whole), byNote: notes.count > 1 ? notes : [])
  }
}
