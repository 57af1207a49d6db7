import Foundation
import MetronomeTesting
import XCTest

/// Accent patterns as exported: each level heard at its own peak on its exact frame, silent beats
/// silent, and klick's own patterns giving the onsets klick's export gives.
final class AccentExportTests: TimeLimitedTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-accents-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

  /// The onsets of what `metronome export ARGUMENTS` wrote.
  private func export(_ arguments: [String]) throws -> [Onset] {
    let file = folder.appendingPathComponent("metronome.wav")
    let run = try MetronomeProcess.run(["export"] + arguments + ["-o", file.path])
    XCTAssertEqual(run.status, 0, run.standardError)
    return Onset.detect(in: try WAVFile(contentsOf: file).samples, sampleRate: 48_000)
  }

  /// The onsets of what `klick -W FILE ARGUMENTS` wrote, at 48 kHz.
  private func klickExport(_ arguments: [String]) throws -> [Onset] {
    let klick = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let file = folder.appendingPathComponent("klick.wav")
    let run = try ChildProcess.run(klick, ["-W", file.path, "-r", "48000"] + arguments)
    XCTAssertEqual(run.status, 0, run.standardError)
    return Onset.detect(in: try WAVFile(contentsOf: file).samples, sampleRate: 48_000)
  }

  func testEachLevelSoundsAtItsOwnPeakOnItsFrameAndSilentBeatsAreSilent() throws {
    let pattern = Array("Xox.xoo")
    let onsets = try export(["7/8", "200", String(pattern), "--bars", "2"])

    // 7/8 at 200: a beat every 7200 frames exactly.
    let heard = (0..<14).filter { pattern[$0 % 7] != "." }
    XCTAssertEqual(onsets.map(\.frame), heard.map { $0 * 7_200 })
    let expectedPeaks: [Character: Float] = ["X": 1, "x": 0.6, "o": 0.3]
    for (onset, beat) in zip(onsets, heard) {
      XCTAssertEqual(onset.peak, try XCTUnwrap(expectedPeaks[pattern[beat % 7]]), accuracy: 0.02, "beat \(beat)")
    }
  }

  func testAGroupingAccentsTheFirstBeatOfEachGroup() throws {
    let onsets = try export(["7/8", "200", "--group", "2+2+3", "--bars", "1"])

    XCTAssertEqual(onsets.map(\.frame), (0..<7).map { $0 * 7_200 })
    XCTAssertEqual(onsets.map { ($0.peak * 10).rounded() / 10 }, [1, 0.3, 0.6, 0.3, 0.6, 0.3, 0.3])
  }

  /// klick's `6/8 120 X..x..` and `4/4 100 X.xx`, exported by klick and by metronome: the same
  /// onsets to within a frame, so the same beats are silent.
  func testKlicksPatternsGiveTheOnsetsKlicksExportGives() throws {
    for words in [["6/8", "120", "X..x.."], ["4/4", "100", "X.xx"]] {
      let ours = try export(words + ["--bars", "4"])
      let theirs = try klickExport(["4"] + words)

      XCTAssertEqual(ours.count, theirs.count, "\(words): \(ours.map(\.frame)) against \(theirs.map(\.frame))")
      for (mine, klicks) in zip(ours, theirs) {
        XCTAssertLessThanOrEqual(abs(mine.frame - klicks.frame), 1, "\(words): \(mine) against \(klicks)")
      }
      XCTAssertGreaterThan(ours.count, 0)
    }
  }
}
