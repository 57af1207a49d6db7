import MetronomeCore
import Testing

/// What a programme decides before the beats: where a map starts, the count-in to play, which
/// song of a setlist plays, and whether and where the run ends.
@Suite(.timeLimit(.minutes(1)))
struct ProgrammeTests {
  private func map(bars: Int?, bpm: Double = 100, countIn: CountIn? = nil) -> TempoMap {
    TempoMap(
      sections: [TempoMap.Section(bars: bars, meter: .fourFour, tempo: .ramp(from: bpm, to: 150))], countIn: countIn)
  }

  private func setlist(_ maps: [TempoMap]) -> Setlist {
    Setlist(songs: maps.enumerated().map { Setlist.Song(title: "song \($0.offset + 1)", map: $0.element) })
  }

  private func mapEnd(song: Int?) -> Beat {
    Beat(
      count: 8, bar: 3, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: 0, sampleRate: .standard,
      isMapEnd: true, song: song)
  }

  /// A map starts at its first beat's tempo, before any multiplier; no map, no start.
  @Test func aMapStartsAtItsFirstBeatsTempo() {
    #expect(Programme(map: map(bars: 2, bpm: 90), multiplier: 2).mapStartBPM == 90)
    #expect(Programme().mapStartBPM == nil)
  }

  /// The count-in asked for comes first, then the map's own, then a setlist's bar; else none.
  @Test func theCountInIsThePlayersThenTheMapsThenASetlistsBar() {
    let counted = map(bars: 2, countIn: .beats(3))
    #expect(Programme(map: counted, countIn: .bars(2)).countInToPlay == .bars(2))
    #expect(Programme(map: counted).countInToPlay == .beats(3))
    #expect(Programme(setlist: setlist([map(bars: 2)])).countInToPlay == .bars(1))
    #expect(Programme(map: map(bars: 2)).countInToPlay == nil)
    #expect(Programme().countInToPlay == nil)
  }

  /// A song is chosen within the setlist's songs, with its map and no loop left from the one
  /// before; choosing the song playing, or choosing without a setlist, changes nothing.
  @Test func aSongIsChosenWithinTheSetlist() {
    let maps = [map(bars: 1, bpm: 80), map(bars: 2, bpm: 90), map(bars: 3, bpm: 100)]
    var programme = Programme(setlist: setlist(maps))
    #expect(programme.song == 0 && programme.map == maps[0])
    let (same, below) = (programme.select(song: 0), programme.select(song: -4))
    #expect(!same && !below)
    programme.loopsSection = true
    programme.loopBars = 1...1
    let beyond = programme.select(song: 9)
    #expect(beyond)
    #expect(programme.song == 2 && programme.map == maps[2])
    #expect(!programme.loopsSection && programme.loopBars == nil)
    let back = programme.select(song: 1)
    #expect(back && programme.map == maps[1])
    var alone = Programme(map: maps[0])
    let chosen = alone.select(song: 1)
    #expect(!chosen && alone.map == maps[0])
  }

  /// A run ends by itself when its map does, or every song of its setlist; a loop of bars or a
  /// song that plays for ever keeps it going.
  @Test func aRunEndsWhenItsMapOrEverySongDoes() {
    #expect(Programme(map: map(bars: 2)).ends)
    #expect(!Programme(map: map(bars: nil)).ends)
    #expect(!Programme().ends)
    #expect(!Programme(map: map(bars: 2), loopBars: 1...2).ends)
    #expect(Programme(setlist: setlist([map(bars: 1), map(bars: 2)])).ends)
    #expect(!Programme(setlist: setlist([map(bars: 1), map(bars: nil)])).ends)
  }

  /// A song's map by its number; with none, or one the setlist does not have, the map playing.
  @Test func aSongsMapByItsNumber() {
    let maps = [map(bars: 1, bpm: 80), map(bars: 2, bpm: 90)]
    let programme = Programme(setlist: setlist(maps))
    #expect(programme.map(ofSong: 1) == maps[1])
    #expect(programme.map(ofSong: nil) == maps[0] && programme.map(ofSong: 2) == maps[0])
    #expect(programme.map(ofSong: -1) == maps[0])
    let single = Programme(map: maps[1])
    #expect(single.map(ofSong: 0) == maps[1])
  }

  /// The run ends at its map's end, or at the last song's of a setlist, not at another song's.
  @Test func theRunEndsAtTheLastSongsEnd() {
    #expect(Programme(map: map(bars: 2)).endsRun(at: mapEnd(song: nil)))
    let songs = Programme(setlist: setlist([map(bars: 1), map(bars: 2)]))
    #expect(!songs.endsRun(at: mapEnd(song: 0)))
    #expect(songs.endsRun(at: mapEnd(song: 1)))
    let beat = Beat(count: 8, bar: 3, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: 0, sampleRate: .standard)
    #expect(!Programme(map: map(bars: 2)).endsRun(at: beat))
  }
}
