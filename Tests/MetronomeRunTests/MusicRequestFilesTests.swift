import Foundation
import MetronomeCore
import MetronomeRun
import MetronomeTesting
import Testing

/// The files a request names, read once: each problem one line, with the status that says
/// whether the file could not be read (66) or was wrong (65).
@Suite(.timeLimit(.minutes(1)))
final class MusicRequestFilesTests {
  private let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-request-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  // Each test has an instance and a folder of its own, removed when it ends.
  deinit { try? FileManager.default.removeItem(at: folder) }

  /// Writes `text` to `name` in the test's folder; returns its path.
  private func write(_ text: String, to name: String) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The error loading a request with `options` throws, or nil when it loads.
  private func loadError(_ options: PlayLine) -> RunError? {
    do {
      _ = try options.request().music.load()
      return nil
    } catch {
      return error
    }
  }

  @Test func aMapSetsTheFirstMeterAndTempoScaledByTheMultiplier() throws {
    let map = try write("intro: 2 3/4 100\nverse: 2 7/8 140\n", to: "song.map")
    let settings = try options {
      $0.options.programme.map = map
      $0.options.programme.multiplier = 0.5
    }.request().music.load()
    #expect(settings.meter == (try Meter(3, 4)))
    #expect(settings.tempo.bpm == 50)
    #expect(settings.programme.map?.sections.count == 2)
    #expect(settings.programme.ends)
  }

  @Test func aMissingMapIsInputAndABadOneIsDataAtItsLine() throws {
    let missing = folder.appendingPathComponent("missing.map").path
    let unreadable = loadError(options { $0.options.programme.map = missing })
    #expect(unreadable == RunError(.input, "\(missing): error: cannot read the tempo map: No such file or directory"))
    #expect(unreadable?.status == 66)
    let bad = try write("4 120\nfour bars\n", to: "bad.map")
    let wrong = loadError(options { $0.options.programme.map = bad })
    #expect(wrong?.kind == .data)
    #expect(wrong?.status == 65)
    #expect(wrong?.message.hasPrefix("\(bad):2:") == true)
  }

  @Test func aLabelTheMapLacksSaysWhichItHas() throws {
    let map = try write("intro: 2 120\nverse: 2 140\n", to: "song.map")
    #expect(
      loadError(
        options {
          $0.options.programme.map = map
          $0.options.programme.startLabel = "bridge"
        })
        == RunError(.data, "\(map): error: no section is labelled 'bridge'; its labels are intro, verse"))
    let started = try options {
      $0.options.programme.map = map
      $0.options.programme.startLabel = "verse"
    }.request().music.load()
    #expect(started.tempo.bpm == 140)
  }

  @Test func aMapThatEndsTakesNoLength() throws {
    let map = try write("2 120\n", to: "song.map")
    #expect(
      loadError(
        options {
          $0.options.programme.map = map
          $0.options.length.bars = 4
        })
        == .usage("a map plays to its end: drop --beats, --bars and --duration, or start with --start-label"))
  }

  @Test func theBarsLoopedLieWithinTheMap() throws {
    let map = try write("2 120\n", to: "song.map")
    #expect(
      loadError(
        options {
          $0.options.programme.map = map
          $0.options.programme.loopBars = 2...3
        })
        == .usage("--loop-bars 2-3: the map has 2 bars"))
    #expect(
      loadError(
        options {
          $0.options.programme.map = map
          $0.options.programme.loopBars = 1...2
        }) == nil)
  }

  /// What a run plays is the music made to fit it: on the display a setlist's song waits for the
  /// player at its end, printed it plays the set through; a clock followed starts the beats (a
  /// transport's master in any meter); klick's OSC may start it stopped; else it plays at once.
  @Test func theSettingsARunPlaysFitTheRun() throws {
    _ = try write("1 3/4 90\n", to: "first.map")
    let listed = options { $0.options.programme.setlist = try? write("First: first.map\n", to: "set.txt") }
    #expect(try listed.request().settings(interactive: true).programme.setlist?.waitsBetweenSongs == true)
    #expect(try listed.request().settings(interactive: false).programme.setlist?.waitsBetweenSongs == false)
    let plain = try PlayLine.none.request().settings(interactive: false)
    #expect(plain.startsPlaying && plain.cap == .denominator)
    let transport = try options {
      $0.options.client.jack = true
      $0.options.sync.followTransport = true
    }.request().settings(interactive: false)
    #expect(!transport.startsPlaying && transport.cap == NumeratorCap(atLeast: NumeratorCap.ceiling))
    let stopped = try options { $0.options.remote.osc = 9000 }.request(startsStopped: true).settings(interactive: false)
    #expect(!stopped.startsPlaying)
    #expect(try options { $0.options.remote.osc = 9000 }.request().settings(interactive: false).startsPlaying)
  }

  @Test func aSetlistsSongMapIsReadBesideIt() throws {
    _ = try write("1 3/4 90\n", to: "first.map")
    let setlist = try write("First: first.map\nSecond: missing.map\n", to: "set.txt")
    let error = loadError(options { $0.options.programme.setlist = setlist })
    #expect(error?.kind == .input)
    #expect(error?.message.hasPrefix("\(setlist):2:") == true)
  }

  /// Writes a word as a voice folder holds it: 10 ms of silence, then 50 ms of a tone, at 8 kHz.
  private func record(_ word: String, in voice: URL) throws {
    let tone = (0..<400).map { Int16(sin(Double($0) * 0.3) * 16_000) }
    try Data(WAVFile.bytes(of: [Int16](repeating: 0, count: 80) + tone, rate: 8_000))
      .write(to: voice.appendingPathComponent("\(word).wav"))
  }

  /// A voice folder serves every word it holds, and must hold those the music says: a folder
  /// that is not one, or lacks a word, is one usage line naming what the music needs.
  @Test func aVoiceFolderHoldsTheWordsTheMusicSays() throws {
    let voice = folder.appendingPathComponent("my voice")
    try FileManager.default.createDirectory(at: voice, withIntermediateDirectories: true)
    for word in ["1", "2", "and"] { try record(word, in: voice) }
    let inMeter = { (meter: String, subdivide: Int?) in
      options {
        $0.words.words = [meter]
        $0.options.rhythm.subdivide = subdivide
        $0.options.sound.voiceDir = voice.path
      }
    }
    let counting = try inMeter("2/4", 2).request().music.load().counting
    #expect(counting?.words == [.number(1), .number(2), .syllable(.and)])
    #expect(counting?.withClick == false)
    // One number needed is named alone; more, as a span.
    try FileManager.default.removeItem(at: voice.appendingPathComponent("1.wav"))
    #expect(loadError(inMeter("1/4", nil)) == .usage("--voice-dir \(voice.path): no 1.wav; the music needs 1.wav"))
    #expect(
      loadError(inMeter("3/4", 2))
        == .usage("--voice-dir \(voice.path): no 1.wav, 3.wav; the music needs 1.wav to 3.wav, and.wav"))
    let file = voice.appendingPathComponent("2.wav").path
    let notAFolder = "no such folder (it holds 1.wav, 2.wav… and.wav, each word said once)"
    for path in [file, voice.appendingPathComponent("none").path] {
      let given = options { $0.options.sound.voiceDir = path }
      #expect(loadError(given) == .usage("--voice-dir \(path): \(notAFolder)"))
    }
  }

  @Test func ownSoundsThatCannotServeAreAUsageError() {
    let error = loadError(
      options { $0.options.sound.samples = NameList(names: [folder.appendingPathComponent("none.wav").path]) })
    #expect(error?.kind == .usage)
  }
}
