import Foundation
import Glibc
import MetronomeAudio
import MetronomeRun
import MetronomeTesting
import TerminalUI
import Testing

/// The rules of an export, checked on the request, and exports written as a user asks for them.
@Suite(.timeLimit(.minutes(1)))
final class ExportRequestTests {
  private let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-export-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  // Each test has an instance and a folder of its own, removed when it ends.
  deinit { try? FileManager.default.removeItem(at: folder) }

  /// The request to export `options` to `path`.
  private func request(
    _ options: PlayLine, to path: String = "click.wav", encoding: SampleEncoding = .pcm16,
    standardOutput: TextOutput = .standardOutput
  ) throws(RunError) -> ExportRequest {
    let given = options.options
    let music = try MusicRequest(options.words, given.rhythm, given.length, given.sound, given.programme)
    return try ExportRequest(
      music: music, loopsBars: options.options.programme.loopBars != nil, path: path, encoding: encoding,
      standardOutput: standardOutput)
  }

  /// The usage error an export of `options` to `path` throws, or nil when it is accepted.
  private func exportError(
    _ options: PlayLine, to path: String = "click.wav", encoding: SampleEncoding = .pcm16,
    standardOutput: TextOutput = .standardOutput
  ) -> String? {
    do {
      _ = try request(options, to: path, encoding: encoding, standardOutput: standardOutput)
      return nil
    } catch {
      #expect(error.status == 64)
      return error.message
    }
  }

  /// The error checking the size of an export of `options` to `path` throws, or nil when it fits.
  private func sizeError(_ options: PlayLine, to path: String, encoding: SampleEncoding = .pcm16) throws
    -> String?
  {
    let export = try request(options, to: path, encoding: encoding)
    do {
      try export.checkSize(of: export.music.load())
      return nil
    } catch {
      #expect(error.status == 64)
      return error.message
    }
  }

  /// A file in the test's folder, its path.
  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// What `body` wrote to the notes it was given, a file here.
  private func notes(_ body: (TextOutput) throws -> Void) throws -> String {
    let notesPath = path("notes.txt")
    let descriptor = open(notesPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    try body(TextOutput(descriptor: descriptor))
    return try String(contentsOfFile: notesPath, encoding: .utf8)
  }

  @Test func anExportEnds() {
    #expect(
      exportError(PlayLine.none)
        == "an export needs --bars, --beats or --duration, or a map that ends (--map, --setlist)")
    #expect(exportError(options { $0.options.length.bars = 2 }) == nil)
    #expect(exportError(options { $0.options.programme.map = "song.map" }) == nil)
  }

  @Test func loopedBarsAreNotExported() {
    #expect(
      exportError(
        options {
          $0.options.programme.map = "song.map"
          $0.options.programme.loopBars = 1...2
        })
        == "--loop-bars loops until l releases it: export those bars as a map of their own")
  }

  @Test func flacHoldsNoFloats() {
    #expect(
      exportError(options { $0.options.length.bars = 1 }, to: "click.flac", encoding: .float32)
        == "FLAC holds 16 or 24 bits, not floats: use --format 16 or 24, or a .wav or .aiff name")
    #expect(exportError(options { $0.options.length.bars = 1 }, to: "click.wav", encoding: .float32) == nil)
  }

  @Test(arguments: [
    "click.wav", "CLICK.WAV", "click.wave", "click.flac", "click.oga", "click.opus", "click.mp3", "click.AIF",
    "click", ".click", "songs.d/click", "/dev/null", "-",
  ])
  func aNameWithoutAnExtensionOrWithOneOfTheFormatsIsTaken(_ name: String) {
    #expect(exportError(options { $0.options.length.bars = 1 }, to: name) == nil)
  }

  @Test(arguments: ["click.xyz", "click.MP4", "songs.d/click.m4a", "click.wav.bak"])
  func anExtensionOfNoFormatWrittenIsRefusedRatherThanWrittenAsWAV(_ name: String) throws {
    let named = try #require(name.split(separator: ".").last).lowercased()
    #expect(
      exportError(options { $0.options.length.bars = 1 }, to: name)
        == "metronome writes no '.\(named)' files: name it .wav, .flac, .ogg, .opus, .mp3 or .aiff")
  }

  @Test func opusAndMP3AreWrittenOnlyAtTheRatesTheyHold() throws {
    func at(_ rate: Int) -> PlayLine {
      options {
        $0.options.length.bars = 1
        $0.options.sound.rate = rate
      }
    }
    for rate in [8_000, 12_000, 16_000, 24_000, 48_000] { #expect(try sizeError(at(rate), to: "click.opus") == nil) }
    #expect(
      try sizeError(at(44_100), to: "click.opus")
        == "Opus holds 8000, 12000, 16000, 24000, 48000 Hz, not 44100: give --rate 48000")
    for rate in [8_000, 11_025, 22_050, 32_000, 44_100, 48_000] {
      #expect(try sizeError(at(rate), to: "click.mp3") == nil)
    }
    #expect(
      try sizeError(at(96_000), to: "click.mp3")
        == "MP3 holds 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 Hz, not 96000: give --rate 48000")
    #expect(try sizeError(at(96_000), to: "click.flac") == nil)
  }

  @Test func aDashIsStandardOutputUnlessThatIsATerminal() throws {
    let window = try PseudoTerminal()
    let terminal = TextOutput(descriptor: window.terminal)
    let oneBar = options { $0.options.length.bars = 1 }
    #expect(
      exportError(oneBar, to: "-", standardOutput: terminal)
        == "standard output is a terminal: pipe it ('-o - | aplay') or name a file with --output")
    #expect(exportError(oneBar, to: "click.wav", standardOutput: terminal) == nil)
    let nowhere = open("/dev/null", O_WRONLY)
    defer { close(nowhere) }
    #expect(exportError(oneBar, to: "-", standardOutput: TextOutput(descriptor: nowhere)) == nil)
  }

  @Test func anExportWritesEveryFrameAndSaysSo() throws {
    let file = path("click.wav")
    let said = try notes { try request(options { $0.options.length.bars = 1 }, to: file).export(notes: $0) }
    // One bar of 4/4 at 120 BPM: two seconds.
    #expect(try WAVFile(contentsOf: URL(fileURLWithPath: file)).samples.count == 96_000)
    #expect(said == "metronome: wrote \(file): 96000 frames, 2 s\n")
  }

  @Test func onATerminalTheProgressIsShownAndClearedBeforeTheNote() throws {
    let window = try PseudoTerminal()
    let file = path("click.wav")
    try request(options { $0.options.length.bars = 1 }, to: file).export(notes: TextOutput(descriptor: window.terminal))
    let shown = window.read(through: " s\r\n")
    #expect(shown.hasPrefix("\r\u{1B}[Kexporting: "))
    #expect(shown.hasSuffix("\r\u{1B}[Kmetronome: wrote \(file): 96000 frames, 2 s\r\n"))
  }

  /// A signal stops an export where it is: the progress line is cleared, nothing of the file is
  /// left, and the run ends with the status a shell expects (128 and the signal's number).
  @Test func aSignalStopsAnExportAndLeavesNothing() throws {
    let window = try PseudoTerminal()
    let file = path("click.wav")
    let export = try request(options { $0.options.length.bars = 3 }, to: file)
    // Asked before each period of 65 536 frames: the signal comes after two.
    var asked = 0
    do {
      try export.export(notes: TextOutput(descriptor: window.terminal)) {
        asked += 1
        return asked > 2 ? SIGTERM : nil
      }
      Issue.record("an export went on through a signal")
    } catch {
      #expect(error == RunError(.interrupted(status: 143), "export interrupted; no file was written"))
    }
    // Drawn once, as the first period was written (the next within a fifth of a second is not).
    #expect(window.read(through: "\r\u{1B}[K") == "\r\u{1B}[Kexporting: 22% (1.37 of 6 s)\r\u{1B}[K")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aFileThatCannotBeWrittenIsOneLineAndNothingIsLeft() throws {
    let file = path("missing/click.wav")
    do {
      try request(options { $0.options.length.bars = 1 }, to: file).export()
      Issue.record("an export into a missing folder was written")
    } catch {
      #expect(error.status == 1)
      #expect(error.message.hasPrefix("cannot write '\(file)': "))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aSetlistWhoseSongPlaysForEverNeedsALength() throws {
    let endless = path("set.txt")
    try Data("A: 120\n".utf8).write(to: URL(fileURLWithPath: endless))
    #expect(
      try sizeError(options { $0.options.programme.setlist = endless }, to: "click.wav")
        == "a song of the setlist plays until you move on: give it bars (a map line), or --duration")
    #expect(
      try sizeError(
        options {
          $0.options.programme.setlist = endless
          $0.options.length.duration = 30
        }, to: "click.wav") == nil)
    let song = path("song.map")
    try Data("2 4/4 120\n".utf8).write(to: URL(fileURLWithPath: song))
    let ending = path("ending.txt")
    try Data("A: \(song)\n".utf8).write(to: URL(fileURLWithPath: ending))
    #expect(try sizeError(options { $0.options.programme.setlist = ending }, to: "click.wav") == nil)
    #expect(try sizeError(options { $0.options.programme.map = song }, to: "click.wav") == nil)
  }

  @Test func wavAndAiffHoldAboutThreeHoursOfSixteenBitsAtTheHighestRateAndFlacMore() throws {
    // 2 147 483 629 frames of 16 bits fill a WAV file's 32-bit size: 11 184.8 s at 192 kHz.
    let longest = options {
      $0.options.sound.rate = 192_000
      $0.options.length.duration = 11_184
    }
    let longer = options {
      $0.options.sound.rate = 192_000
      $0.options.length.duration = 11_185
    }
    let tooLong =
      "the export is longer than a WAV or AIFF file can hold (4 GiB); export fewer bars or a lower rate,"
      + " or write .flac or .ogg"
    for name in ["click.wav", "click.aiff"] {
      #expect(try sizeError(longest, to: name) == nil)
      #expect(try sizeError(longer, to: name) == tooLong)
    }
    // To the frame: the most frames a WAV file's size can say are exported, one more are not.
    let fullest = options {
      $0.options.sound.rate = 192_000
      $0.options.length.duration = 2_147_483_629 / 192_000
    }
    let oneMore = options {
      $0.options.sound.rate = 192_000
      $0.options.length.duration = 2_147_483_630 / 192_000
    }
    #expect(try sizeError(fullest, to: "click.wav") == nil)
    #expect(try sizeError(oneMore, to: "click.wav") == tooLong)
    #expect(try sizeError(longer, to: "click.flac") == nil)
    #expect(try sizeError(longer, to: "click.ogg") == nil)
    // Floats take twice the room.
    let floats = options {
      $0.options.sound.rate = 192_000
      $0.options.length.duration = 5_593
    }
    #expect(try sizeError(floats, to: "click.wav", encoding: .float32) == tooLong)
  }

  @Test func anExportTooLongIsAUsageErrorBeforeAnythingIsWritten() throws {
    let file = path("click.wav")
    do {
      let longer = options {
        $0.options.sound.rate = 192_000
        $0.options.length.duration = 11_185
      }
      try request(longer, to: file).export()
      Issue.record("a WAV file longer than its size can say was written")
    } catch {
      #expect(error.status == 64)
    }
    #expect(!FileManager.default.fileExists(atPath: file))
  }
}
