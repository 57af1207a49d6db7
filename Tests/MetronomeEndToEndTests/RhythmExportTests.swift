import Foundation
import MetronomeTesting
import XCTest

/// Rhythms as exported: each level and each subdivision's click heard at its own peak on its exact
/// frame, silent beats silent, and klick's own patterns giving the onsets klick's export gives.
final class RhythmExportTests: FolderTestCase {
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

  /// Sixteenths at 97 BPM, whose beat lasts 29690.72 frames: every click within half a frame of
  /// its exact place (its beat's frame plus k quarters of the exact beat), the beats at their
  /// levels' peaks and the subdivision's clicks at their own.
  func testSubdivisionClicksSitWithinHalfAFrameOfTheirExactPlace() throws {
    let onsets = try export(["4/4", "97", "--subdivide", "4", "--bars", "2"])

    let length = 48_000.0 * 60 / 97
    let exact = (0..<32).map { click in (Double(click / 4) * length).rounded() + Double(click % 4) * length / 4 }
    XCTAssertEqual(onsets.count, exact.count, "\(onsets.map(\.frame))")
    for (onset, place) in zip(onsets, exact) {
      XCTAssertLessThanOrEqual(abs(Double(onset.frame) - place), 0.5, "\(onset) against \(place)")
    }
    let peaks = onsets.map { ($0.peak * 100).rounded() / 100 }
    XCTAssertEqual(peaks, (0..<32).map { $0 % 16 == 0 ? 1 : $0 % 4 == 0 ? 0.6 : 0.45 })
  }

  func testTwoThirdsSwingPutsEighthPairsOnTheTripletGrid() throws {
    let onsets = try export(["120", "--swing", "66.7", "--bars", "1"])

    XCTAssertEqual(onsets.map(\.frame), [0, 16_000, 24_000, 40_000, 48_000, 64_000, 72_000, 88_000])
  }

  /// Three against four: the second voice at 0, 32000 and 64000 of each 96000-frame bar, an
  /// octave below at half scale, mixed with the beats (on beat one both sound at once).
  func testThreeAgainstFourMixesTheSecondVoiceWithTheBeats() throws {
    for format in ["16", "24", "float"] {
      let file = folder.appendingPathComponent("poly-\(format).wav")
      let run = try MetronomeProcess.run(
        ["export", "4/4", "120", "--poly", "3", "--bars", "2", "--format", format, "-o", file.path])
      XCTAssertEqual(run.status, 0, run.standardError)
      let samples = try WAVFile(contentsOf: file).samples
      let onsets = Onset.detect(in: samples, sampleRate: 48_000)

      let beats = [0, 24_000, 48_000, 72_000]
      let voice = [0, 32_000, 64_000]
      let expected = Set((beats + voice).flatMap { [$0, $0 + 96_000] }).sorted()
      XCTAssertEqual(onsets.map(\.frame), expected, format)
      for onset in onsets where voice.contains(onset.frame % 96_000) && onset.frame % 96_000 != 0 {
        XCTAssertEqual(onset.peak, 0.5, accuracy: 0.01, "\(format): the voice alone at \(onset.frame)")
      }
      // On beat one the voice adds to the accent: louder than the accent alone somewhere in the click.
      let alone = try export(["4/4", "120", "--bars", "1"])
      XCTAssertEqual(alone.first?.peak ?? 0, 1, accuracy: 0.01)
      let together = samples[0..<480].map { abs($0) }
      XCTAssertEqual(together.max() ?? 0, 1, accuracy: 0.01, "\(format): mixed, clipped at full scale")
    }
  }

  /// A file of metronome's own, written at 44.1 kHz in 24 bits, serves as the strong beat's sound:
  /// read, converted to 48 kHz, it is the beep's accent again; the normal and weak beats play it
  /// at their levels, the subdivision keeps its built-in click.
  func testOwnSamplesAtAnyRateAndDepthReplaceTheirVoices() throws {
    let strong = folder.appendingPathComponent("strong.wav")
    let made = try MetronomeProcess.run(
      ["export", "120", "--beats", "1", "--sound", "beep", "--rate", "44100", "--format", "24", "-o", strong.path])
    XCTAssertEqual(made.status, 0, made.standardError)

    let onsets = try export(["3/4", "120", "Xxo", "--samples", strong.path, "--subdivide", "2", "--bars", "1"])

    XCTAssertEqual(onsets.map(\.frame), [0, 12_000, 24_000, 36_000, 48_000, 60_000])
    let peaks = onsets.map { ($0.peak * 100).rounded() / 100 }
    XCTAssertEqual(peaks[0], 1, accuracy: 0.02)
    XCTAssertEqual(peaks[2], 0.6, accuracy: 0.02)
    XCTAssertEqual(peaks[4], 0.3, accuracy: 0.02)
    XCTAssertEqual(peaks[1], 0.45, accuracy: 0.01, "the subdivision keeps its own click")
    // The beep's accent itself, as metronome renders it at 48 kHz, within what conversion changes.
    let own = try WAVFile(contentsOf: folder.appendingPathComponent("metronome.wav")).samples
    let reference = folder.appendingPathComponent("reference.wav")
    let run = try MetronomeProcess.run(["export", "120", "--beats", "1", "--sound", "beep", "-o", reference.path])
    XCTAssertEqual(run.status, 0, run.standardError)
    let beep = try WAVFile(contentsOf: reference).samples
    let difference = zip(own.prefix(2_000), beep.prefix(2_000)).map { abs($0 - $1) }.max() ?? 1
    XCTAssertLessThan(difference, 0.05)
  }

  /// A silent file and one hours long (here 11 s, past the 10 s a click may last) are refused in
  /// one line before anything starts.
  func testSoundsThatCannotServeAsAClickAreRefused() throws {
    let silent = folder.appendingPathComponent("silent.wav")
    let long = folder.appendingPathComponent("long.wav")
    for (file, arguments) in [(silent, ["--volume", "0", "--beats", "1"]), (long, ["--duration", "11"])] {
      let made = try MetronomeProcess.run(["export"] + arguments + ["-o", file.path])
      XCTAssertEqual(made.status, 0, made.standardError)
    }
    let cases = [
      (silent, "Error: the sound '\(silent.path)' is silent or empty: give a file with a click in it"),
      (long, "Error: the sound '\(long.path)' lasts 11 s: a click may last at most 10 s; trim it"),
    ]
    for (file, message) in cases {
      let run = try MetronomeProcess.run(["--samples", file.path, "--virtual", "--bars", "1"])
      XCTAssertEqual(run.status, 64)
      XCTAssertEqual(run.standardError.split(separator: "\n").first.map(String.init), message)
      XCTAssertEqual(run.standardOutput, "")
    }
  }
}
