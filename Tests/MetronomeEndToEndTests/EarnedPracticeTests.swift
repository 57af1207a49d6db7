import Foundation
import MetronomeTesting
import XCTest

/// Earned practice through a JACK dummy server: `scripts/hit-player.c` plays on a steady 200 BPM
/// grid from the second click it hears, as a player who does not follow a tempo change would.
final class EarnedPracticeTests: FolderTestCase {
  /// Five takes of each of a test's runs, which a loaded machine may need, fit in it.
  override class var timeLimit: Double { 360 }

  /// What a run printed: its status, standard error and the beats' ndjson lines.
  private typealias Take = (status: Int32, errors: String, beats: [[String: Any]], recording: [Float])

  /// `metronome 200 OPTIONS --listen` for 8 s through a JACK dummy server, the player hitting 40
  /// beats 14 400 frames apart; with the click recorded where `records`.
  private func take(_ options: [String], records: Bool = false) throws -> Take? {
    let player = try HitPlayer(in: folder)
    let notes = (0..<40).map { HitPlayer.Note(click: $0, offset: 0, note: 38, velocity: 100) }
    let check = { (take: Take) -> [String] in take.status == 0 ? [] : ["status \(take.status): \(take.errors)"] }
    let before = JournalFiles(of: folder.appendingPathComponent("j.sqlite3").path)
    return try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Take, [String]) in
      try before.restore()
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let recorder =
        try records
        ? JACKRecorder(server: server, seconds: 9, file: folder.appendingPathComponent("click.wav")) : nil
      let metronome = try BackgroundRun(
        [
          "200", "--jack", "--connect", records ? "jackrec:input1" : "system:playback_1", "--listen", "--headless",
          "--events", "ndjson", "--duration", "8", "--journal", folder.appendingPathComponent("j.sqlite3").path,
        ]
          + options, environment: environment)
      try server.waitForPorts { $0.contains("metronome:hits") }
      let (hits, _) = try player.start(
        notes, clickPort: "metronome:click", hitsPort: "metronome:hits", spacing: 14_400, seconds: 8,
        environment: environment)
      let printed = metronome.finish()
      _ = hits.finish()
      let trouble = recorder?.finishTake() ?? server.brokenCycles()
      let beats = String(decoding: printed.output, as: UTF8.self).split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["hit"] == nil && $0["sub"] as? Int == 0 }
      let recording = try recorder.map { try WAVFile(contentsOf: $0.file).samples } ?? []
      return ((metronome.process.terminationStatus, printed.errors, beats, recording), trouble)
    }
  }

  /// `--step 5/1 --to 215 --earn 90 --earn-back 5`: bar 1 misses its first beat (75 %), so it
  /// plays again; bar 2 is whole and earns 205 from bar 3's first beat, on the 200 grid's frame;
  /// the player, still at 200, falls behind (75 %, then none), and two blocks below bring it back
  /// to 200, which it never goes below; the journal keeps how far it got.
  func testAnEarnedTrainerStepsWhereEarnedAndFallsBackAfterTwoBlocksBelow() throws {
    guard let take = try take(["--step", "5/1", "--to", "215", "--earn", "90", "--earn-back", "5"]) else { return }
    let tempos = (1...7).map { bar in take.beats.first { $0["bar"] as? Int == bar }?["tempo"] as? Double ?? 0 }
    XCTAssertEqual(tempos, [200, 200, 205, 205, 200, 200, 200], take.errors)
    let bar3 = take.beats.filter { $0["bar"] as? Int == 3 }.compactMap { $0["frame"] as? Int }
    XCTAssertEqual(bar3.prefix(2), [115_200, 129_249])
    let sqlite = try XCTUnwrap(ChildProcess.which("sqlite3"))
    let kept = try ChildProcess.run(
      sqlite,
      [folder.appendingPathComponent("j.sqlite3").path, "SELECT programme, tempo_highest, tempo_last FROM take"])
    XCTAssertEqual(kept.standardOutput, "step 5/1 to 215, earned at 90%|205.0|200.0\n")
  }

  /// `--earn-silence`, heard as the speaker plays it: bar 1 misses its first beat and keeps bar 2
  /// whole; each bar on time after takes a quarter off the next (the accent's peak 1, 0.75, 0.5,
  /// 0.25), and bar 6 is silent; the summary says the hits played without it.
  func testTheClickIsEarnedAwayAQuarterABar() throws {
    guard let take = try take(["--earn-silence"], records: true) else { return }
    let first = try XCTUnwrap(take.recording.firstIndex { abs($0) > 0.01 }, "no click recorded")
    let bar1 = try XCTUnwrap(take.beats.first?["frame"] as? Int)
    // Each accent's peak, by bar: beat one of bar n falls (n - 1) × 4 beats after the first click.
    let accents = (2...6).map { bar -> Float in
      let start = first + (bar - 1) * 4 * 14_400 - bar1 - 100
      return take.recording[max(start, 0)..<min(start + 2_000, take.recording.count)].map(abs).max() ?? -1
    }
    let whole = accents[0]
    XCTAssertGreaterThan(whole, 0.5)
    for (accent, level) in zip(accents, [1, 0.75, 0.5, 0.25, 0] as [Float]) {
      XCTAssertEqual(accent / whole, level, accuracy: 0.02, "\(accents)")
    }
    XCTAssertTrue(take.errors.contains("; without the click: "), take.errors)
  }
}
