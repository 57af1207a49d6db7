/// What a run plays beyond one steady tempo: a tempo map, how much faster than written it plays
/// (klick's `-x`), and a count-in before the music (klick's `-c`).
public struct Program: Hashable, Sendable {
  /// The map setting every beat's tempo, meter and level; nil for the steady tempo.
  public var map: TempoMap?
  /// How much faster than written the map plays: 1 as written, 2 twice as fast.
  public var multiplier: Double
  /// Bars of count-in before bar one, at the starting tempo in the starting meter; 0 counts two
  /// beats; nil for none.
  public var countInBars: Int?
  /// Bars (or beats) muted to test the player's inner clock, from bar one; nil for none.
  public var gap: Gap?
  /// The last jump asked for between a map's sections; each new one has a new `id`.
  public var jump: SectionJump?
  /// Whether the section playing repeats, seamlessly, until this is turned off.
  public var loopsSection = false

  /// A move to another section of a map, from the next beat: `offset` 1 the next section, -1 the
  /// previous, 0 the start of the one playing.
  public struct SectionJump: Hashable, Sendable {
    /// Which jump this is: a new one has a new id.
    public let id: Int
    /// How many sections on (or back).
    public let offset: Int

    /// A jump as given.
    public init(id: Int, offset: Int) {
      self.id = id
      self.offset = offset
    }
  }

  /// The most bars a count-in may last.
  public static let longestCountIn = 64

  /// A program as given; by default a steady tempo straight away.
  public init(map: TempoMap? = nil, multiplier: Double = 1, countInBars: Int? = nil, gap: Gap? = nil) {
    self.map = map
    self.multiplier = multiplier
    self.countInBars = countInBars
    self.gap = gap
  }

  /// The tempo a map starts at, before the multiplier; nil without a map.
  public var mapStartBPM: Double? { map.map { $0.sections[0].bpm(ofBeat: 0) } }
}
