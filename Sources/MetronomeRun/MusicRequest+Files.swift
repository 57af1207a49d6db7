import AudioFiles
import Glibc
import MetronomeCore
import MetronomeEngine
import SpokenWords

extension MusicRequest {
  /// What to play, with the files it names read once: the map, the setlist and the maps it
  /// names, the player's own sounds; and the spoken count said.
  ///
  /// A map or setlist that cannot be read or parsed throws one line, as a compiler reports an
  /// error (`FILE:LINE:COLUMN: error: what was expected`): `.data`, or `.input` for a file that
  /// cannot be opened. A sound file that cannot serve, or a voice folder without a word the
  /// music needs, is a usage error.
  public func load() throws(RunError) -> PlaybackSettings {
    let map = try loadMap()
    let setlist = try loadSetlist()
    var settings = try settings(map: map, setlist: setlist, samples: try loadSamples())
    if let voice {
      settings.counting = try counting(voice, saying: Self.words(for: settings))
    }
    return settings
  }

  /// The words the music of `settings` needs said: its meters' numbers and its divisions' syllables.
  private static func words(for settings: PlaybackSettings) -> [CountingVoice.Word] {
    let maps = (settings.programme.setlist?.songs.map(\.map) ?? []) + (settings.programme.map.map { [$0] } ?? [])
    let sections = maps.flatMap(\.sections)
    return CountingVoice.words(
      for: [settings.meter] + sections.map(\.meter),
      subdivisions: [settings.subdivision] + sections.compactMap(\.subdivision))
  }

  /// The spoken count `voice` says, with `needed` words at least: flite's, or the recordings in a
  /// folder (every file there that names a word, converted to the sample rate).
  private func counting(_ voice: Voice, saying needed: [CountingVoice.Word]) throws(RunError) -> CountingVoice {
    switch voice {
    case .flite(let withClick):
      do {
        return try FliteVoice.count(sampleRate: sampleRate, volume: volume, withClick: withClick)
      } catch {
        throw .runtime("\(error)")
      }
    case .folder(let folder, let withClick):
      var info = stat()
      guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        throw .usage("--voice-dir \(folder): no such folder (it holds 1.wav, 2.wav… and.wav, each word said once)")
      }
      let missing = needed.filter { !Self.isFile(Self.recording(of: $0, in: folder)) }
      if !missing.isEmpty {
        let numbers = needed.filter { if case .number = $0 { true } else { false } }
        let needs =
          [numbers.count == 1 ? "1.wav" : "1.wav to \(numbers.count).wav"]
          + needed.dropFirst(numbers.count).map { "\($0).wav" }
        throw .usage(
          "--voice-dir \(folder): no \(missing.map { "\($0).wav" }.joined(separator: ", ")); the music needs "
            + needs.joined(separator: ", "))
      }
      var recordings: [CountingVoice.Word: [Float]] = [:]
      for word in CountingVoice.Word.all where Self.isFile(Self.recording(of: word, in: folder)) {
        do {
          // Speech, as flite's own words: the medium converter keeps it, in a third of the time.
          recordings[word] = try SampleFile.load(
            path: Self.recording(of: word, in: folder), sampleRate: sampleRate, quality: .medium)
        } catch {
          throw .usage("--voice-dir: \(error)")
        }
      }
      return CountingVoice(recordings: recordings, sampleRate: sampleRate, volume: volume, withClick: withClick)
    }
  }

  /// Whether `path` names something that is there, a file or not (what is not a sound file says so when read).
  private static func isFile(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Where a voice folder keeps `word`: `3.wav`, `and.wav`.
  private static func recording(of word: CountingVoice.Word, in folder: String) -> String {
    (folder.hasSuffix("/") ? folder : folder + "/") + "\(word).wav"
  }

  /// The map `--map` names, from `--start-label` on; nil without one.
  private func loadMap() throws(RunError) -> TempoMap? {
    guard let path = programme.mapPath else { return nil }
    let source = TextFile.source(path)
    let parsed = try Self.tempoMap(at: path, seed: programme.seed)
    guard let startLabel = programme.startLabel else { return parsed }
    guard let started = parsed.starting(at: startLabel) else {
      let labels = parsed.sections.compactMap(\.label)
      throw RunError(
        .data,
        "\(source): error: no section is labelled '\(startLabel)'; "
          + (labels.isEmpty ? "the map has no labels" : "its labels are \(labels.joined(separator: ", "))"))
    }
    return started
  }

  /// The map in the file at `path`, its random gaps drawn with `seed`.
  static func tempoMap(at path: String, seed: UInt64) throws(RunError) -> TempoMap {
    do {
      return try TempoMapParser.parse(try TextFile.tempoMap.read(path), source: TextFile.source(path), seed: seed)
    } catch let error as RunError {
      throw error
    } catch {
      throw RunError(.data, "\(error)")
    }
  }

  /// The setlist `--setlist` names, with the maps it names (beside it); nil without one.
  private func loadSetlist() throws(RunError) -> Setlist? {
    guard let path = programme.setlistPath else { return nil }
    let source = TextFile.source(path)
    let folder =
      path == "-" ? "" : String(path[..<(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)])
    let text = try TextFile.setlist.read(path)
    var kind = RunError.Kind.data
    let seed = programme.seed
    do {
      return try SetlistParser.parse(text, source: source, seed: seed) { song, line, column throws(TempoMapError) in
        let file = song.hasPrefix("/") ? song : folder + song
        switch song == "-" ? nil : TextFile.tempoMap.text(of: file) {
        case .success(let text)?:
          return try TempoMapParser.parse(text, source: file, seed: seed)
        case .failure(let unreadable)?:
          kind = unreadable.kind
          throw TempoMapError(source: source, line: line, column: column, message: "\(file): \(unreadable.message)")
        case nil:
          throw TempoMapError(
            source: source, line: line, column: column, message: "a song's map is read from a file, not standard input")
        }
      }
    } catch {
      throw RunError(kind, "\(error)")
    }
  }

  /// The sounds `--samples` names, read and converted to the sample rate.
  private func loadSamples() throws(RunError) -> [SoundKit.Voice: [Float]] {
    var sounds: [SoundKit.Voice: [Float]] = [:]
    for (voice, path) in samplePaths {
      do {
        sounds[voice] = try SampleFile.load(path: path, sampleRate: sampleRate)
      } catch {
        throw .usage("\(error)")
      }
    }
    return sounds
  }
}
