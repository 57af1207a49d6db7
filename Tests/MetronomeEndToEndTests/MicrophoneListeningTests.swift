import Foundation
import MetronomeTesting
import PracticeListening
import XCTest

/// Listening through a microphone on a JACK dummy server: a drummer of kit samples plays into
/// metronome's `mic` port with the clicks mixed in as a microphone beside the speaker hears them.
final class MicrophoneListeningTests: FolderTestCase {
  /// Five takes of each of a test's runs, which a loaded machine may need, fit in it.
  override class var timeLimit: Double { 360 }

  /// Frames between the clicks: eighths at 100 BPM at 44.1 kHz.
  private let spacing = 13_230

  /// Every stroke of a kit comes back once, within a millisecond of where its sound starts, and no
  /// click is taken for a hit.
  func testEveryStrokeIsHeardWithinAMillisecondAndNoClickIs() throws {
    let capture = try listen(micDelay: 0)
    XCTAssertTrue(capture?.errors.contains("metronome: listening: 35 hits: mean ") == true, capture?.errors ?? "")
  }

  /// `calibrate --loopback` through a path 300 frames longer than JACK reports gives that round
  /// trip to the frame; a run after it, with everything the microphone hears 300 frames late,
  /// still gives back each stroke's own offset.
  func testALoopbackCalibrationMeasuresTheRoundTripAndLaterOffsetsAreThePlayers() throws {
    let player = try DrumPlayer(in: folder)
    typealias Capture = (status: Int32, errors: String, saved: String, latency: Int)
    let calibration = folder.appendingPathComponent(".config/metronome/calibration")
    let check = { (capture: Capture) -> [String] in
      let frames = Double(capture.latency + 300)
      return capture.status == 0 && capture.saved.hasSuffix("\njack-round-trip \(HitLine.thousandths(frames / 44.1))\n")
        ? [] : ["status \(capture.status), saved \(capture.saved), latency \(capture.latency): \(capture.errors)"]
    }
    let measured = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Capture, [String]) in
      let server = try JACKDummyServer(sampleRate: 44_100, periodFrames: 1_024)
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let metronome = try BackgroundRun(
        ["calibrate", "--loopback", "--jack", "--connect", "system:playback_1", "--listen-from", ""],
        environment: environment)
      try server.waitForPorts { $0.contains("metronome:mic") }
      let drums = try player.start(
        [], clickPort: "metronome:click", micPort: "metronome:mic", spacing: 0, seconds: 6, clickGain: 0.7,
        micDelay: 300, environment: environment)
      let printed = metronome.finish()
      let played = DrumPlayer.played(String(decoding: drums.finish().output, as: UTF8.self))
      let saved = (try? String(contentsOf: calibration, encoding: .utf8)) ?? ""
      return ((metronome.process.terminationStatus, printed.errors, saved, played.latency), server.brokenCycles())
    }
    guard let measured else { return }
    XCTAssertTrue(measured.errors.contains("), the path adds 300\n"), measured.errors)
    XCTAssertTrue(measured.errors.contains("frames (") && measured.errors.contains(" ms at 44100 Hz), back at -3.1 dB"))
    _ = try listen(micDelay: 300)
  }

  /// A take of 18 beats played into `mic` with everything `micDelay` frames late, checked stroke by
  /// stroke (retaken when the harness glitches); what metronome said.
  ///
  /// Eighths at 100 BPM, from the fifth beat heard (the clicks alone before, as in a count-in,
  /// teach metronome how loud they come back): kick and snare on the beats, hats between, at four
  /// strengths (the softest at 0.3 of it), a third of the beats on the click and the other strokes
  /// up to 20 ms either way (seeded).
  private func listen(micDelay: Int) throws -> (status: Int32, errors: String, offsets: [Int])? {
    let take = try DrumTake(clicks: 22, spacing: 2 * spacing, spread: 882, skipped: 4, seed: 26)
    // The player counts every click it hears, the eighths' too: beat N is its click 2N.
    let strokes = take.strokes.map {
      DrumTake.Stroke(click: 2 * $0.click, offset: $0.offset, sample: $0.sample, gain: $0.gain)
    }
    let player = try DrumPlayer(in: folder)
    // What each stroke's offset from its own click (the beat's, or the eighth's for a hat) should
    // read, from when its sound starts.
    let expected = take.strokes.map {
      ($0.offset > spacing / 2 ? $0.offset - spacing : $0.offset) + take.attack(of: $0.sample)
    }
    typealias Capture = (status: Int32, errors: String, offsets: [Int])
    let check = { (capture: Capture) -> [String] in
      capture.status == 0 && !capture.errors.hasPrefix("the player sent") && capture.offsets.count == expected.count
        && zip(capture.offsets, expected).allSatisfy({ abs($0 - $1) <= 44 })
        ? [] : ["status \(capture.status), offsets \(capture.offsets), played \(expected): \(capture.errors)"]
    }
    let capture = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Capture, [String]) in
      let server = try JACKDummyServer(sampleRate: 44_100, periodFrames: 1_024)
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let metronome = try BackgroundRun(
        [
          "100", "--subdivide", "2", "--rate", "44100", "--jack", "--connect", "system:playback_1", "--listen",
          "--headless", "--events", "ndjson", "--duration", "17",
        ], environment: environment)
      try server.waitForPorts { $0.contains("metronome:mic") }
      let drums = try player.start(
        strokes, clickPort: "metronome:click", micPort: "metronome:mic", spacing: spacing, seconds: 16,
        micDelay: micDelay, environment: environment)
      let printed = metronome.finish()
      let played = DrumPlayer.played(String(decoding: drums.finish().output, as: UTF8.self))
      let offsets = String(decoding: printed.output, as: UTF8.self).split(separator: "\n").compactMap {
        let line = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        return line?["audio"] as? Bool == true ? line?["offsetFrames"] as? Int : nil
      }
      let errors =
        played.missed == 0 && played.sent.count == strokes.count
        ? printed.errors : "the player sent \(played.sent.count) and missed \(played.missed); \(printed.errors)"
      return ((metronome.process.terminationStatus, errors, offsets), server.brokenCycles())
    }
    if let capture {
      print(
        "offsets against the strokes' starts, in frames at 44.1 kHz: \(zip(capture.offsets, expected).map { $0 - $1 })")
    }
    return capture
  }
}
