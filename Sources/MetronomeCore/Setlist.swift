/// The songs of a set, played in order: each a tempo map, counted in before it starts.
public struct Setlist: Hashable, Sendable {
  /// One song: its title and what it plays.
  public struct Song: Hashable, Sendable {
    /// How the display and the lines name it.
    public let title: String
    /// Its sections; a song of one line has one that plays until the player moves on.
    public let map: TempoMap

    /// A song as given.
    public init(title: String, map: TempoMap) {
      self.title = title
      self.map = map
    }
  }

  /// The songs, in playing order; never empty.
  public let songs: [Song]
  /// Whether the end of a song stops on the next one, waiting for play, rather than counting it in.
  public let waitsBetweenSongs: Bool

  /// A set of `songs` (at least one), waiting between them if `waitsBetweenSongs`.
  public init(songs: [Song], waitsBetweenSongs: Bool = false) {
    precondition(!songs.isEmpty, "a setlist has a song")
    self.songs = songs
    self.waitsBetweenSongs = waitsBetweenSongs
  }

  /// The same songs, waiting between them or not.
  public func waiting(_ waits: Bool) -> Setlist { Setlist(songs: songs, waitsBetweenSongs: waits) }
}
