/// A take as the journal gives it back: its row, what was saved of it, and the figures of its
/// hits, whole and by tempo and by note, as they were when it was saved.
public struct KeptTake: Equatable, Sendable {
  /// The figures of a take's hits, in ms (negative early).
  public struct Figures: Equatable, Sendable {
    /// How many hits.
    public let hits: Int
    /// Within the tolerance either way.
    public let onTime: Int
    /// Earlier than the tolerance.
    public let early: Int
    /// Later than the tolerance.
    public let late: Int
    /// The mean offset.
    public let mean: Double
    /// The median offset.
    public let median: Double
    /// The population standard deviation of the offsets.
    public let deviation: Double
    /// The drift, in ms a minute (positive dragging); nil where the hits span no time.
    public let drift: Double?

    /// Figures as given.
    public init(
      hits: Int, onTime: Int, early: Int, late: Int, mean: Double, median: Double, deviation: Double, drift: Double?
    ) {
      self.hits = hits
      self.onTime = onTime
      self.early = early
      self.late = late
      self.mean = mean
      self.median = median
      self.deviation = deviation
      self.drift = drift
    }

    /// The share of hits on time, 0 to 1.
    public var onTimeShare: Double { Double(onTime) / Double(hits) }
  }

  /// The hits at one tempo, or of one note: the value, and their count, on time, mean and spread.
  public struct Group: Equatable, Sendable {
    /// The tempo in BPM (to a tenth), or the note.
    public let value: Double
    /// How many hits.
    public let hits: Int
    /// Within the tolerance either way.
    public let onTime: Int
    /// The mean offset, in ms.
    public let mean: Double
    /// The population standard deviation of the offsets, in ms.
    public let deviation: Double

    /// A group as given.
    public init(value: Double, hits: Int, onTime: Int, mean: Double, deviation: Double) {
      self.value = value
      self.hits = hits
      self.onTime = onTime
      self.mean = mean
      self.deviation = deviation
    }
  }

  /// Its row in the journal.
  public let id: Int64
  /// What was saved; its hits only where they were asked for.
  public let take: Take
  /// Its hits' figures; nil for a take with none.
  public let figures: Figures?
  /// Its hits at each tempo, slowest first.
  public let byTempo: [Group]
  /// Its hits of each note, lowest first.
  public let byNote: [Group]

  /// A kept take as given.
  public init(id: Int64, take: Take, figures: Figures?, byTempo: [Group], byNote: [Group]) {
    self.id = id
    self.take = take
    self.figures = figures
    self.byTempo = byTempo
    self.byNote = byNote
  }
}
