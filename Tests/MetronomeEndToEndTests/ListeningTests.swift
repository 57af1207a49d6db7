import Foundation
import MetronomeTesting
import XCTest

/// Listening through a JACK dummy server: a player of known offsets plays into metronome's `hits`
/// port, and each offset comes back to the frame, with the statistics those offsets have.
final class ListeningTests: FolderTestCase {
  /// Five takes of each of a test's runs, which a loaded machine may need, fit in it.
  override class var timeLimit: Double { 360 }

  /// Chosen offsets and a seeded jitter come back exactly, with their statistics.
  ///
  /// At 240 BPM (12 000 frames apart), 40 hits from the third click heard: eight chosen offsets
  /// (on the click, 10 ms early, 20 ms late, a frame either way, 50 ms either way) and 32 of a
  /// seeded jitter up to 10 ms either way, on kick and snare. Every hit line gives back its offset
  /// in frames; the report's mean, median and deviation are those of the offsets played, within
  /// 0.01 ms; the hits count on the output's playback latency (the player hears each click that
  /// long after it is written).
  func testEveryHitComesBackWithTheOffsetItWasPlayedAt() throws {
    var generator = SeededGenerator(seed: 25)
    let chosen =
      [0, -480, 960, -48, 1, -1, 2_400, -2_400] + (0..<32).map { _ in Int.random(in: -480...480, using: &generator) }
    let notes = chosen.enumerated().map {
      HitPlayer.Note(
        click: $0.offset + 2, offset: $0.element, note: $0.offset.isMultiple(of: 2) ? 36 : 38, velocity: 100)
    }
    let player = try HitPlayer(in: folder)
    let report = folder.appendingPathComponent("take.ndjson")
    typealias Capture = (
      status: Int32, errors: String, lines: [[String: Any]], played: HitPlayer.Played, report: String
    )
    let check = { (capture: Capture) -> [String] in
      var problems: [String] = []
      if capture.status != 0 { problems.append("status \(capture.status): \(capture.errors)") }
      if capture.played.missed != 0 || capture.played.sent.count != chosen.count {
        problems.append("the player sent \(capture.played.sent.count) and missed \(capture.played.missed)")
      }
      let offsets = capture.lines.compactMap { $0["offsetFrames"] as? Int }
      if offsets != chosen { problems.append("offsets \(offsets), played \(chosen)") }
      if capture.played.latency <= 0 {
        problems.append("the player heard no playback latency: \(capture.played.latency)")
      }
      return problems
    }
    let capture = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Capture, [String]) in
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let metronome = try BackgroundRun(
        [
          "240", "--jack", "--connect", "system:playback_1", "--listen", "--report", report.path, "--headless",
          "--events", "ndjson", "--duration", "12",
        ], environment: environment)
      try server.waitForPorts { $0.contains("metronome:hits") }
      let (hits, _) = try player.start(
        notes, clickPort: "metronome:click", hitsPort: "metronome:hits", spacing: 12_000, seconds: 13,
        environment: environment)
      let printed = metronome.finish()
      let played = HitPlayer.played(String(decoding: hits.finish().output, as: UTF8.self))
      let lines = String(decoding: printed.output, as: UTF8.self).split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      let hitLines = lines.filter { $0["hit"] as? Bool == true }
      let capture: Capture = (
        metronome.process.terminationStatus, printed.errors, hitLines, played,
        (try? String(contentsOf: report, encoding: .utf8)) ?? ""
      )
      // The player starts on the first click it hears: one that joined the server late (seen in a
      // loaded run: its last 8 notes lost) plays its last notes after the run's 48 beats.
      let joined = (hitLines.first?["clickFrame"] as? Int).map { $0 / 12_000 }
      let late =
        joined.map { $0 + chosen.count > 48 } == true ? ["the player joined \(joined ?? 0) beats into the run"] : []
      return (capture, server.brokenCycles() + late)
    }
    guard let capture else { return }
    // The report's summary against the offsets played, in ms.
    let milliseconds = chosen.map { Double($0) / 48 }
    let mean = milliseconds.reduce(0, +) / Double(milliseconds.count)
    let sorted = milliseconds.sorted()
    let median = (sorted[19] + sorted[20]) / 2
    let deviation = (milliseconds.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(milliseconds.count))
      .squareRoot()
    let summary = try XCTUnwrap(
      capture.report.split(separator: "\n").last.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      })
    XCTAssertEqual(summary["hits"] as? Int, 40)
    XCTAssertEqual(try XCTUnwrap(summary["mean"] as? Double), mean, accuracy: 0.01)
    XCTAssertEqual(try XCTUnwrap(summary["median"] as? Double), median, accuracy: 0.01)
    XCTAssertEqual(try XCTUnwrap(summary["standardDeviation"] as? Double), deviation, accuracy: 0.01)
    XCTAssertEqual(capture.report.split(separator: "\n").count, 41)
    XCTAssertTrue(capture.errors.contains("metronome: listening: 40 hits: mean "), capture.errors)
  }

  /// `metronome calibrate --jack`: 32 hits about 10 ms late are saved as their median, and a later
  /// run takes it off every note; hits spread wider than 30 ms are refused and nothing is saved.
  func testACalibrationSavesTheMedianAndLaterRunsTakeItOff() throws {
    let player = try HitPlayer(in: folder)
    var generator = SeededGenerator(seed: 26)
    // As many as a calibration takes: a player with notes left after it ends waits out its time.
    let steady = (0..<32).map { _ in 480 + Int.random(in: -96...96, using: &generator) }
    let spread = (0..<32).map { _ in Int.random(in: -2_880...2_880, using: &generator) }
    let calibration = folder.appendingPathComponent(".config/metronome/calibration")
    typealias Capture = (status: Int32, errors: String, offsets: [Int])
    /// Runs metronome with `arguments` while the player plays `offsets` from the sixth click it
    /// hears (past the bar of count-in at 240 BPM); the offsets scored, in frames.
    let run = { (arguments: [String], offsets: [Int]) throws -> (Capture, [String]) in
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": self.folder.path]) { $1 }
      // A calibration ends after its 32 hits, so one the harness kept some from (a cycle the
      // server broke, a player that joined late) would wait for them for ever: a loaded run's
      // lane was stopped at the test's time limit so. `timeout` ends it after 30 s (status 124).
      let metronome = try BackgroundRun(
        ["--kill-after", "5", "30", MetronomeProcess.binary.path] + arguments
          + ["--jack", "--connect", "system:playback_1", "--headless", "--events", "ndjson"],
        executable: URL(fileURLWithPath: "/usr/bin/timeout"), environment: environment)
      try server.waitForPorts { $0.contains("metronome:hits") }
      // The tap-along hears MIDI alone: what it saves is MIDI's offset.
      XCTAssertEqual(try server.ports().contains("metronome:mic"), arguments.first != "calibrate")
      let notes = offsets.enumerated().map {
        HitPlayer.Note(click: $0.offset + 6, offset: $0.element, note: 38, velocity: 100)
      }
      let (hits, _) = try player.start(
        notes, clickPort: "metronome:click", hitsPort: "metronome:hits", spacing: 12_000, seconds: 14,
        environment: environment)
      let printed = metronome.finish()
      let played = HitPlayer.played(String(decoding: hits.finish().output, as: UTF8.self))
      let scored = HitPlayer.scoredOffsets(in: String(decoding: printed.output, as: UTF8.self))
      let joinedLate = played.missed > 0 ? ["the player missed \(played.missed) notes"] : []
      return ((metronome.process.terminationStatus, printed.errors, scored), server.brokenCycles() + joinedLate)
    }
    // Each take's offsets are checked against those played, so that one the harness moved (a
    // cycle the server broke moves the player's notes by a cycle) is taken again.
    let endsWith = { (status: Int32, offsets: [Int]) in
      { (capture: Capture) -> [String] in
        capture.status == status && capture.offsets == offsets
          ? [] : ["status \(capture.status), offsets \(capture.offsets), played \(offsets): \(capture.errors)"]
      }
    }
    let calibrated = try retakenWhileTheHarnessGlitches(check: endsWith(0, steady)) {
      try run(["calibrate", "240"], steady)
    }
    let saved = try String(contentsOf: calibration, encoding: .utf8)
    let sorted = steady.map { Double($0) / 48 }.sorted()
    let median = (sorted[15] + sorted[16]) / 2
    // The median, and the day it was made.
    let line = saved.split(separator: "\n").last?.split(separator: " ") ?? []
    XCTAssertEqual(line.prefix(2).joined(separator: " "), "midi " + String(format: "%.3f", median), saved)
    XCTAssertEqual(line.count == 3 ? line[2].count : 0, 10, saved)
    XCTAssertTrue(calibrated?.errors.contains("metronome: calibrated: your notes came ") == true)

    // A run after it: every note 480 frames after its click comes back with the median taken off.
    let less = Array(repeating: 480 - Int((median * 48).rounded()), count: 8)
    _ = try retakenWhileTheHarnessGlitches(check: endsWith(0, less)) {
      try run(["240", "--listen", "--duration", "6"], Array(repeating: 480, count: 8))
    }

    // Hits spread ±60 ms: refused in one line, status 1, the calibration saved before kept.
    let refused = try retakenWhileTheHarnessGlitches(check: endsWith(1, spread)) {
      try run(["calibrate", "240"], spread)
    }
    XCTAssertTrue(refused?.errors.contains("\nError: the hits spread ") == true, refused?.errors ?? "")
    XCTAssertEqual(try String(contentsOf: calibration, encoding: .utf8), saved)
  }

  /// `calibrate --loopback --jack --connect none` takes `none` as `play` does (the output
  /// connected nowhere) and, with `mic` fed from metronome's own output, measures that loop: one
  /// cycle (1,024 frames), where JACK reports none, since the client copies its inputs as its
  /// cycle starts, before it plays; saved as such, in `~/.config`, or in `XDG_CONFIG_HOME` where
  /// that is set.
  func testALoopbackCalibrationConnectedNowhereMeasuresItsOwnLoop() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let config = folder.appendingPathComponent("config")
    for (variables, saved) in [
      (["HOME": folder.path], folder.appendingPathComponent(".config/metronome/calibration")),
      (["HOME": folder.path, "XDG_CONFIG_HOME": config.path], config.appendingPathComponent("metronome/calibration")),
    ] {
      let run = try MetronomeProcess.run(
        ["calibrate", "--loopback", "--jack", "--connect", "none", "--listen-from", "metronome:click"],
        environment: server.environment.merging(variables) { $1 })
      XCTAssertEqual(run.status, 0, run.standardError)
      XCTAssertTrue(
        run.standardError.hasPrefix(
          "metronome: round trip 1024 frames (21.333 ms at 48000 Hz), back at 0.0 dB: JACK reports 0 (output 0, input 0),"
            + " the path adds 1024"),
        run.standardError)
      let text = try String(contentsOf: saved, encoding: .utf8)
      XCTAssertTrue(text.contains("\njack-round-trip 21.333 "), text)
    }
  }

  /// In a terminal the display's meter moves with each hit: 10 ms early, then 20 ms late (on the
  /// tolerance's edge), in turn; q ends the run and leaves the terminal as it was.
  func testTheDisplaysMeterMovesWithEachHit() throws {
    let player = try HitPlayer(in: folder)
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
    let display = try TmuxSession(
      command: "'\(MetronomeProcess.binary.path)' 240 --jack --connect system:playback_1 --listen",
      environment: environment)
    try server.waitForPorts { $0.contains("metronome:hits") }
    let notes = (2..<60).map {
      HitPlayer.Note(click: $0, offset: $0.isMultiple(of: 2) ? -480 : 960, note: 38, velocity: 90)
    }
    let (hits, _) = try player.start(
      notes, clickPort: "metronome:click", hitsPort: "metronome:hits", spacing: 12_000, seconds: 16,
      environment: environment)
    defer { hits.process.terminate() }
    // On a meter of ±40 ms in 21 cells, with the tolerance's edges marked.
    _ = try display.waitForScreen(seconds: 10) {
      $0.contains(" last -10.0 ms on time  early ·····:··●·|····:····· late\n")
    }
    let late = try display.waitForScreen(seconds: 10) {
      $0.contains(" last +20.0 ms on time  early ·····:····|····●····· late\n")
    }
    // The statistics below it (a cycle the dummy server breaks may move a hit out of tolerance,
    // so their counts are not asserted here; the other tests check them).
    XCTAssertTrue(late.contains(" mean ") && late.contains("% in ±20.0 ms  "), late)
    try display.send("q")
    let outcome = try XCTUnwrap(try display.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }
}
