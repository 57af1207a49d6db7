import AudioFiles
import MetronomeCore
import MetronomeEngine

extension MusicRequest {
  /// What to play, with the files it names read once: the map, the setlist and the maps it
  /// names, the player's own sounds.
  ///
  /// A map or setlist that cannot be read or parsed throws one line, as a compiler reports an
  /// error (`FILE:LINE:COLUMN: error: what was expected`): `.data`, or `.input` for a file that
  /// cannot be opened. A sound file that cannot serve is a usage error.
  public func load() throws(RunError) -> PlaybackSettings {
    let map = try loadMap()
    let setlist = try loadSetlist()
    return try settings(map: map, setlist: setlist, samples: try loadSamples())
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
