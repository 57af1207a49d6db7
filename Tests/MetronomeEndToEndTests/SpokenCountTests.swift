import AudioFiles
import Foundation
import MetronomeCore
import MetronomeTesting
import XCTest

/// The spoken count, listened back to in exports: each word's attack on its beat's frame, said by
/// flite or by recordings of one's own.
final class SpokenCountTests: FolderTestCase {
  /// The samples of an export of `arguments` (at 48 kHz, as 32-bit float), and how it ended.
  private func export(_ arguments: [String], to name: String = "count.wav") throws -> (ProcessResult, [Float]) {
    let file = folder.appendingPathComponent(name)
    let run = try MetronomeProcess.run(["export"] + arguments + ["--format", "float", "-o", file.path])
    let samples = run.status == 0 ? try WAVFile(contentsOf: file).samples : []
    return (run, samples)
  }

  /// Where each beat's word starts in `samples`, beats `spacing` frames apart, as far from the
  /// beat's frame as it is.
  private func attackOffsets(_ samples: [Float], spacing: Int) -> [Int] {
    stride(from: 0, to: samples.count - spacing + 1, by: spacing).map { start in
      Self.attack(in: samples[start..<(start + spacing)]) ?? spacing
    }
  }

  /// Where a word's attack is in `part`, counted from its start: in the first millisecond (48
  /// frames) whose loudness is a tenth of the part's loudest millisecond's, the first frame at
  /// that tenth.
  static func attack(in part: ArraySlice<Float>) -> Int? {
    let part = Array(part)
    guard part.count >= 48 else { return nil }
    let loudness = (0...(part.count - 48)).map { from in
      (part[from..<(from + 48)].reduce(Float(0)) { $0 + $1 * $1 } / 48).squareRoot()
    }
    let loudest = loudness.max() ?? 0
    guard loudest > 0, let window = loudness.firstIndex(where: { $0 >= loudest / 10 }) else { return nil }
    return (part[window..<(window + 48)].firstIndex { abs($0) >= loudest / 10 } ?? window)
  }

  /// The acceptance's figure: 8 bars of 4/4 at 120, each word's attack within 1 ms (48 frames) of
  /// its beat; the same word on every bar's same beat, another on each beat of the bar; no click.
  func testEachWordsAttackIsOnItsBeat() throws {
    let (run, samples) = try export(["4/4", "120", "--bars", "8", "--voice"])
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(samples.count, 8 * 4 * 24_000)
    let offsets = attackOffsets(samples, spacing: 24_000)
    XCTAssertEqual(offsets.count, 32)
    XCTAssertTrue(offsets.allSatisfy { (0...48).contains($0) }, "attacks, frames after their beats: \(offsets)")
    let beats = (0..<8).map { Array(samples[($0 * 24_000)..<(($0 + 1) * 24_000)]) }
    XCTAssertEqual(beats[0], beats[4], "bar two's one is bar one's")
    XCTAssertEqual(Set(beats[0..<4].map { $0 }).count, 4, "one, two, three, four: four words")
    let (_, clicks) = try export(["4/4", "120", "--bars", "8"], to: "click.wav")
    XCTAssertNotEqual(Array(samples[0..<480]), Array(clicks[0..<480]), "the word is said in place of the click")
    // The accent's word is said louder than the others would be said.
    let (_, regular) = try export(["4/4", "120", "--bars", "1", "--voice", "--pattern", "xxxx"], to: "regular.wav")
    let peak = { (part: ArraySlice<Float>) in part.reduce(Float(0)) { max($0, abs($1)) } }
    XCTAssertEqual(peak(regular[0..<24_000]) / peak(samples[0..<24_000]), ClickSound.regularLevel, accuracy: 0.01)
  }

  /// `--with-click` keeps the click under the count, the words at half their level and rising as
  /// the click dies away: at full volume the export is the clicks' plus the words', never clipped.
  func testWithClickTheClickSoundsUnderTheWords() throws {
    let common = ["4/4", "120", "--bars", "2"]
    let (run, both) = try export(common + ["--voice", "--with-click"])
    XCTAssertEqual(run.status, 0, run.standardError)
    let (_, words) = try export(common + ["--voice"], to: "words.wav")
    let (_, clicks) = try export(common, to: "clicks.wav")
    XCTAssertEqual(both.count, clicks.count)
    let difference = zip(both, clicks).map { abs($0 - $1) }
    XCTAssertEqual(difference[0..<96].max(), 0, "the click alone while it peaks")
    XCTAssertLessThanOrEqual(both.map(abs).max() ?? 2, 1, "within full scale: nothing clipped")
    // Once each click has gone (30 ms after its beat) the words sound at half the level of the
    // count alone.
    for beat in 0..<8 {
      let from = beat * 24_000 + 1_440
      let halves = zip(difference[from..<(from + 10_000)], words[from..<(from + 10_000)]).map { abs($0 - abs($1) / 2) }
      XCTAssertLessThan(halves.max() ?? 1, 1e-6, "beat \(beat + 1)")
    }
  }

  /// Subdivisions say "one and", "one trip let", "one e and a": every click's word on its frame.
  func testSubdivisionsAreSaidOnTheirClicks() throws {
    for (clicks, bpm) in [(2, 120.0), (3, 80), (4, 60)] {
      let (run, samples) = try export([
        "4/4", Tempo.format(bpm), "--bars", "1", "--voice", "--subdivide", "\(clicks)",
      ])
      XCTAssertEqual(run.status, 0, run.standardError)
      let spacing = Int(60 / bpm * 48_000) / clicks
      let offsets = attackOffsets(samples, spacing: spacing)
      XCTAssertEqual(offsets.count, 4 * clicks)
      XCTAssertTrue(offsets.allSatisfy { (0...48).contains($0) }, "\(clicks) a beat: \(offsets)")
    }
  }

  /// A folder of one's own: four numbers said by flite's other voice, at 8 kHz, each after its
  /// silence, counted on their beats; a folder that lacks what the music needs, or holds a file
  /// that is not sound, is one line and status 64, and nothing is written.
  func testAVoiceFolderOfOnesOwnRecordings() throws {
    let voice = folder.appendingPathComponent("my voice")
    try FileManager.default.createDirectory(at: voice, withIntermediateDirectories: true)
    for (number, word) in ["one", "two", "three", "four"].enumerated() {
      let said = try ChildProcess.run(
        try XCTUnwrap(ChildProcess.which("flite")),
        ["-voice", "kal", "-t", word, "-o", voice.appendingPathComponent("\(number + 1).wav").path])
      XCTAssertEqual(said.status, 0, said.standardError)
    }
    let (run, clean) = try export(["4/4", "120", "--bars", "2", "--voice-dir", voice.path])
    let samples = clean
    XCTAssertEqual(run.status, 0, run.standardError)
    let offsets = attackOffsets(samples, spacing: 24_000)
    XCTAssertEqual(offsets.count, 8)
    XCTAssertTrue(offsets.allSatisfy { (0...48).contains($0) }, "\(offsets)")

    // Recorded in a room as a user records: a hiss under everything (about -46 dB) and a breath
    // before each word, a few samples at a third of the word's peak; every attack still on its beat.
    var random = SeededGenerator(seed: 38)
    for number in 1...4 {
      let file = voice.appendingPathComponent("\(number).wav")
      var samples = try WAVFile(contentsOf: file).samples
      let peak = samples.map(abs).max() ?? 1
      for index in samples.indices { samples[index] += Float.random(in: -0.005...0.005, using: &random) }
      for index in 800..<805 { samples[index] = peak / 3 }
      try Data(WAVFile.bytes(of: samples.map { Int16(max(-1, min(1, $0)) * 32_767) }, rate: 8_000)).write(to: file)
    }
    let (noisyRun, noisy) = try export(["4/4", "120", "--bars", "2", "--voice-dir", voice.path], to: "noisy.wav")
    XCTAssertEqual(noisyRun.status, 0, noisyRun.standardError)
    let noisyOffsets = attackOffsets(noisy, spacing: 24_000)
    XCTAssertEqual(noisyOffsets.count, 8)
    XCTAssertTrue(noisyOffsets.allSatisfy { (0...48).contains($0) }, "\(noisyOffsets)")
    // The word, not the breath, is what starts on the beat: the clean take's first 20 ms are found
    // in the noisy one within a millisecond of where they are (a breath taken for the attack would
    // put the word some 100 ms late).
    for beat in 0..<8 {
      let start = beat * 24_000
      let lag = (-48...480).min { lagA, lagB in
        let apart = { (lag: Int) in
          (0..<960).reduce(Float(0)) { $0 + abs(noisy[max(0, start + lag + $1)] - clean[start + $1]) }
        }
        return apart(lagA) < apart(lagB)
      }
      XCTAssertLessThanOrEqual(abs(lag ?? 480), 48, "beat \(beat + 1): the word \(lag ?? 480) frames late")
    }

    let (sevenEight, _) = try export(["7/8", "120", "--bars", "2", "--voice-dir", voice.path], to: "seven.wav")
    XCTAssertEqual(sevenEight.status, 64)
    XCTAssertEqual(
      sevenEight.standardError.split(separator: "\n").first,
      "Error: --voice-dir \(voice.path): no 5.wav, 6.wav, 7.wav; the music needs 1.wav to 7.wav")
    let (eighths, _) = try export(["4/4", "--bars", "1", "--subdivide", "2", "--voice-dir", voice.path], to: "and.wav")
    XCTAssertTrue(
      eighths.standardError.hasPrefix("Error: --voice-dir \(voice.path): no and.wav; "), eighths.standardError)

    let (noFolder, _) = try export(["4/4", "--bars", "1", "--voice-dir", voice.path + "/none"], to: "none.wav")
    XCTAssertEqual(noFolder.status, 64)
    XCTAssertEqual(
      noFolder.standardError.split(separator: "\n").first,
      "Error: --voice-dir \(voice.path)/none: no such folder (it holds 1.wav, 2.wav… and.wav, each word said once)")

    try Data("not a sound".utf8).write(to: voice.appendingPathComponent("2.wav"))
    let (damaged, _) = try export(["4/4", "120", "--bars", "2", "--voice-dir", voice.path], to: "damaged.wav")
    XCTAssertEqual(damaged.status, 64)
    XCTAssertTrue(damaged.standardError.hasPrefix("Error: --voice-dir: "), damaged.standardError)
    XCTAssertEqual(damaged.standardError.split(separator: "\n").count, 3, "the error and the usage")
    for name in ["seven.wav", "and.wav", "none.wav", "damaged.wav"] {
      XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), name)
    }
  }
}
