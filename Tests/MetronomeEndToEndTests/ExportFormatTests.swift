import AudioFiles
import Foundation
import MetronomeCore
import MetronomeTesting
import XCTest

/// Exports in the formats libsndfile writes, chosen by the file's extension as klick's `-W`
/// chooses them: read back, they hold the same clicks as the WAV export.
final class ExportFormatTests: FolderTestCase {
  private func export(_ name: String, _ extra: [String] = []) throws -> (ProcessResult, URL) {
    let file = folder.appendingPathComponent(name)
    let run = try MetronomeProcess.run(["export", "6/8", "120", "X..x..", "--bars", "2", "-o", file.path] + extra)
    return (run, file)
  }

  func testFlacOggOpusMP3AndAiffHoldTheClicksOfTheWAVExport() throws {
    let (wavRun, wav) = try export("click.wav")
    XCTAssertEqual(wavRun.status, 0, wavRun.standardError)
    let reference = Onset.detect(in: try WAVFile(contentsOf: wav).samples, sampleRate: 48_000).map(\.frame)
    XCTAssertEqual(reference, [0, 36_000, 72_000, 108_000])

    // Lossless formats to the frame. The lossy ones smear a little of each click ahead of it
    // (pre-echo): their onsets are found at a third of full scale, to within a few frames; MP3's
    // decoder takes the encoder's delay off by the LAME header libsndfile writes. Each file is
    // told by what its first bytes hold (Opus and Vorbis are both Ogg).
    for (name, magic, threshold, tolerance): (String, String, Float, Int) in [
      ("click.flac", "fLaC", 0.05, 0), ("click.ogg", "vorbis", 0.3, 4), ("click.opus", "OpusHead", 0.3, 4),
      ("click.mp3", "LAME", 0.3, 4), ("click.aiff", "FORM", 0.05, 0), ("click.aif", "FORM", 0.05, 0),
    ] {
      let (run, file) = try export(name, name.hasSuffix(".aiff") ? ["--format", "24"] : [])
      XCTAssertEqual(run.status, 0, run.standardError)
      let start = String(decoding: try Data(contentsOf: file).prefix(512), as: UTF8.self)
      XCTAssertTrue(start.contains(magic), "\(name) holds no \(magic) near its start")
      let samples = try SampleFile.load(path: file.path, sampleRate: .standard)
      let onsets = Onset.detect(in: samples, sampleRate: 48_000, threshold: threshold).map(\.frame)
      XCTAssertEqual(onsets.count, reference.count, "\(name): \(onsets)")
      for (heard, expected) in zip(onsets, reference) {
        XCTAssertLessThanOrEqual(abs(heard - expected), tolerance, "\(name): \(onsets)")
      }
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [],
      "no hidden file is left")
  }

  /// `--format` is the depth written, read back from each file's own header (not through
  /// libsndfile, which writes it): FLAC's STREAMINFO and AIFF's COMM chunk.
  func testFlacAndAiffAreWrittenAtTheDepthAsked() throws {
    for name in ["depth.flac", "depth.aiff"] {
      for (format, bits) in [(nil, 16), ("16", 16), ("24", 24)] {
        let (run, file) = try export(name, format.map { ["--format", $0] } ?? [])
        XCTAssertEqual(run.status, 0, run.standardError)
        let header = [UInt8](try Data(contentsOf: file).prefix(64))
        XCTAssertEqual(Self.bitsPerSample(in: header), bits, "\(name) --format \(format ?? "(default)")")
      }
    }
  }

  /// Bits per sample as a FLAC's STREAMINFO block or an AIFF's COMM chunk states it.
  private static func bitsPerSample(in header: [UInt8]) -> Int? {
    if header.starts(with: Array("fLaC".utf8)) {
      // "fLaC", a block header, then STREAMINFO: 10 bytes of sizes, 20 bits of rate, 3 of
      // channels less one, 5 of bits per sample less one.
      return (Int(header[20] & 0x01) << 4 | Int(header[21] >> 4)) + 1
    }
    let comm = Array("COMM".utf8)
    guard let start = header.indices.first(where: { header[$0...].starts(with: comm) }) else { return nil }
    // "COMM", its size (4), channels (2), frames (4), then bits per sample (2), big-endian.
    return Int(header[start + 14]) << 8 | Int(header[start + 15])
  }

  /// These formats are completed by going back to their start: a FIFO or standard output is
  /// refused in one line, and FLAC's floats before anything starts.
  func testWhatTheFormatsCannotDoIsRefusedInOneLine() throws {
    let fifo = folder.appendingPathComponent("pipe.flac")
    XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
    let toFIFO = try MetronomeProcess.run(["export", "--bars", "1", "-o", fifo.path])
    XCTAssertEqual(toFIFO.status, 1)
    XCTAssertTrue(
      toFIFO.standardError.hasPrefix("Error: cannot write '\(fifo.path)': FLAC is written to regular files only"),
      toFIFO.standardError)

    let (floats, file) = try export("floats.flac", ["--format", "float"])
    XCTAssertEqual(floats.status, 64)
    XCTAssertTrue(floats.standardError.hasPrefix("Error: FLAC holds 16 or 24 bits, not floats"), floats.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))

    let named = try export("click.m4a")
    XCTAssertEqual(named.0.status, 64)
    XCTAssertTrue(
      named.0.standardError.hasPrefix(
        "Error: metronome writes no '.m4a' files: name it .wav, .flac, .ogg, .opus, .mp3 or .aiff"),
      named.0.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: named.1.path))

    let missing = try MetronomeProcess.run(["export", "--bars", "1", "-o", folder.path + "/no/such/folder/x.ogg"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertEqual(missing.standardError.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.count, 1)
  }
}
