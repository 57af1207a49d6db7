/// The journal's tables, versioned: each version's statements take a journal from the one before
/// it to it, so a journal of any earlier version is brought forward in one transaction, and one of
/// a later version is never touched.
///
/// The version is the file's `user_version`; the file is told from other programs' databases by
/// its `application_id`.
public enum JournalSchema {
  /// The version this metronome writes.
  public static var version: Int { steps.count }

  /// The `application_id` every journal carries: "MTNM".
  public static let applicationID: Int32 = 0x4D54_4E4D

  /// The statements that make version n + 1 from version n.
  static let steps: [String] = [
    """
    CREATE TABLE take (
      id INTEGER PRIMARY KEY,
      started REAL NOT NULL,
      utc_offset INTEGER NOT NULL,
      day TEXT NOT NULL,
      seconds REAL NOT NULL,
      tag TEXT,
      meters TEXT NOT NULL,
      tempo_first REAL,
      tempo_last REAL,
      tempo_lowest REAL,
      tempo_highest REAL,
      beats INTEGER NOT NULL,
      programme TEXT NOT NULL,
      ending TEXT NOT NULL,
      status INTEGER NOT NULL,
      tolerance REAL,
      hits INTEGER NOT NULL,
      on_time INTEGER,
      early INTEGER,
      late INTEGER,
      mean REAL,
      median REAL,
      deviation REAL,
      drift REAL
    );
    CREATE INDEX take_day ON take (day);
    CREATE INDEX take_tag ON take (tag, day);
    CREATE TABLE hit (
      take INTEGER NOT NULL REFERENCES take (id) ON DELETE CASCADE,
      seconds REAL NOT NULL,
      bar INTEGER NOT NULL,
      beat INTEGER NOT NULL,
      subdivision INTEGER NOT NULL,
      tempo REAL NOT NULL,
      offset REAL NOT NULL,
      note INTEGER NOT NULL,
      velocity INTEGER NOT NULL
    );
    CREATE INDEX hit_take ON hit (take);
    CREATE TABLE hit_group (
      take INTEGER NOT NULL REFERENCES take (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('tempo', 'note')),
      value REAL NOT NULL,
      hits INTEGER NOT NULL,
      on_time INTEGER NOT NULL,
      mean REAL NOT NULL,
      deviation REAL NOT NULL
    );
    CREATE INDEX hit_group_take ON hit_group (take);
    """
  ]
}
