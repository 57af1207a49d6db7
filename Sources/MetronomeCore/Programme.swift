/// What a run plays beyond one steady tempo: a tempo map (or a setlist of them), how much faster
/// than written it plays (klick's `-x`), a count-in before the music (klick's `-c`) and a gap.
public struct Programme: Hashable, Sendable {
  /// The map setting every beat's tempo, meter and level (with a setlist, the song's); nil for
  /// the steady tempo.
  public var map: TempoMap?
  /// The songs played one after another; nil for one map or none.
  public var setlist: Setlist?
  /// The song of the setlist playing, counted from 0.
  public private(set) var song = 0
  /// How much faster than written the map plays: 1 as written, 2 twice as fast.
  public var multiplier: Double
  /// The count-in before bar one, at the starting tempo in the starting meter, as the player
  /// asked for it; nil for none asked for.
  public var countIn: CountIn?
  /// Whether the count-in plays as the music's bars will, rather than apart from them.
  ///
  /// As the bars: each beat in its level's sound, divided as the rhythm divides it after the first
  /// two beats, with the second voice; a microphone listening learns from it the echo of every
  /// click the music plays.
  /// Apart: a sound of its own, undivided, told from the music.
  public var countInPlaysTheBar = false
  /// Bars (or beats) muted to test the player's inner clock, from bar one; nil for none.
  public var gap: Gap?
  /// Whether the section playing (or `loopBars`, while it plays them) repeats, seamlessly, until
  /// this is turned off: what a map starts with; while it plays, `LiveControl.loop` turns it on
  /// and off.
  public var loopsSection = false
  /// The bars of the map (counted from 1) it starts at and repeats while `loopsSection`; nil for
  /// the section playing.
  public var loopBars: ClosedRange<Int>?
  /// The outside clock's anchor the beats follow; nil for the metronome's own clock.
  public var transport: TransportAnchor?
  /// The tempo a speed trainer leads to, before the multiplier; nil for a map that is not one.
  public var trainerTarget: Double?
  /// Whether each section of the map plays again until the player earns the next (a step
  /// trainer's step, `--earn`): when one ends, it repeats unless `LiveControl.moveAtSectionEnd`
  /// said where to go.
  public var holdsSections = false
  /// klick's speed trainer, which ramps the player's steady tempo (not a map's, nor an outside
  /// clock's) while it plays; off by default.
  public var speedTrainer = SpeedTrainer.off

  /// A programme as given, a setlist starting with its first song; by default a steady tempo
  /// straight away.
  public init(
    map: TempoMap? = nil, setlist: Setlist? = nil, multiplier: Double = 1, countIn: CountIn? = nil, gap: Gap? = nil,
    trainerTarget: Double? = nil, loopBars: ClosedRange<Int>? = nil
  ) {
    self.trainerTarget = trainerTarget
    self.loopBars = loopBars
    loopsSection = loopBars != nil
    self.map = setlist?.songs[0].map ?? map
    self.setlist = setlist
    self.multiplier = multiplier
    self.countIn = countIn
    self.gap = gap
  }

  /// The tempo a map starts at, before the multiplier; nil without a map.
  public var mapStartBPM: Double? { map.map { $0.sections[0].bpm(ofBeat: 0) } }

  /// The count before the music: as the player asked, else as the map (or the song) asks; a
  /// setlist's songs are counted in by a bar unless one of them says otherwise.
  public var countInToPlay: CountIn? { countIn ?? map?.countIn ?? (setlist == nil ? nil : .bars(1)) }

  /// Moves to song `index` of the setlist (clamped to its songs); false when it is the song
  /// already playing, or there is no setlist.
  public mutating func select(song index: Int) -> Bool {
    guard let setlist else { return false }
    let clamped = min(max(index, 0), setlist.songs.count - 1)
    guard clamped != song else { return false }
    song = clamped
    map = setlist.songs[clamped].map
    loopsSection = false
    loopBars = nil
    return true
  }

  /// Whether it ends by itself: its map does, or every song of its setlist.
  public var ends: Bool {
    guard loopBars == nil else { return false }
    return setlist.map { $0.songs.allSatisfy { $0.map.beatCount != nil } } ?? (map?.beatCount != nil)
  }

  /// The map of song `index` of the setlist; without a setlist (or an index), the map.
  public func map(ofSong index: Int?) -> TempoMap? {
    guard let setlist, let index, setlist.songs.indices.contains(index) else { return map }
    return setlist.songs[index].map
  }

  /// Whether the end of `beat`'s map is where the run ends: the map's, or the setlist's last song's.
  public func endsRun(at beat: Beat) -> Bool {
    beat.isMapEnd && (setlist.map { beat.song == $0.songs.count - 1 } ?? true)
  }
}
