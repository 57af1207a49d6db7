/// Which takes a reading of the journal (or a forgetting) is about: a tag, days, the last few.
public struct JournalFilter: Equatable, Sendable {
  /// Only takes with this tag; nil for any.
  public var tag: String?
  /// Only takes played on this day or later ("2026-11-01"); nil for any.
  public var since: String?
  /// Only takes played on this day; nil for any.
  public var day: String?
  /// Only the last this many of those; nil for all.
  public var last: Int?

  /// A filter as given: by default every take.
  public init(tag: String? = nil, since: String? = nil, day: String? = nil, last: Int? = nil) {
    self.tag = tag
    self.since = since
    self.day = day
    self.last = last
  }

  /// The SQL condition on the take table, and its values.
  var condition: (sql: String, values: [SQLiteValue]) {
    let optional = { (value: String?) in value.map(SQLiteValue.text) ?? .null }
    return (
      "(?1 IS NULL OR tag = ?1) AND (?2 IS NULL OR day >= ?2) AND (?3 IS NULL OR day = ?3)",
      [optional(tag), optional(since), optional(day)]
    )
  }
}
