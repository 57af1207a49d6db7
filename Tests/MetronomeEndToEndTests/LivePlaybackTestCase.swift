import Foundation
import MetronomeTesting
import XCTest

/// Live playback in real time into a JACK dummy server of the test's own, the clicks found in
/// what `jack_rec` captured: the set-up the ALSA and native JACK tests share.
///
/// ALSA's `jack` PCM is defined in an `.asoundrc` in the test's folder, its HOME.
class LivePlaybackTestCase: FolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try """
    pcm.metrojack {
      type plug
      slave.pcm { type jack; playback_ports { 0 "jackrec:input1" } }
    }
    pcm.metrosystem {
      type plug
      slave.pcm { type jack; playback_ports { 0 "system:playback_1" } }
    }
    """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
  }

  /// One take: metronome playing into a JACK dummy server while `jack_rec` records its port.
  struct Take {
    let run: TimedRun
    /// The beats metronome printed, as their ndjson objects.
    let printed: [[String: Any]]
    /// The clicks found in the recording.
    let onsets: [Onset]
    /// What went wrong in the harness itself (the server's broken cycles, the recorder's
    /// dropped periods), which moves the capture by whole periods whatever metronome did.
    let harnessTrouble: [String]
    /// What the stall watch saw while metronome ran.
    let stall: StallReport

    /// How far each beat's line came from when it was heard, at worst (`TimedRun.worstLateness`).
    var worstLineLateness: Double {
      TimedRun.worstLateness(arrivals: run.lines.map(\.seconds), times: printed.compactMap { $0["time"] as? Double })
    }
  }

  func take(
    _ arguments: [String], output: [String], keys: String, recordSeconds: Int, during: (Int32) -> Void = { _ in }
  ) throws -> Take {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let capture = folder.appendingPathComponent("capture.wav")
    let recording = DispatchTime.now().uptimeNanoseconds
    let recorder = try JACKRecorder(server: server, seconds: recordSeconds, file: capture)
    let script = folder.appendingPathComponent("keys.txt")
    try keys.write(to: script, atomically: true, encoding: .utf8)
    let watch = StallWatch()
    let run = try TimedRun.run(
      output + ["--headless", "--events", "ndjson", "--keys", script.path] + arguments,
      environment: server.environment.merging(["HOME": folder.path]) { $1 })
    let stall = watch.stop()
    // A run that ended after the recording did was cut short by the harness, whose recording
    // has a fixed length: on a loaded machine a run's start (the process, joining the server)
    // took seconds, and its last beat fell past the end (seen once in the spoken count's take).
    let ran = Double(DispatchTime.now().uptimeNanoseconds - recording) / 1e9
    let cut = ran > Double(recordSeconds) ? ["the run ended \(ran) s into a recording of \(recordSeconds) s"] : []
    let harnessTrouble = recorder.finishTake() + cut
    let printed = try run.lines.map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any])
    }
    return Take(
      run: run, printed: printed,
      onsets: Onset.detect(in: try WAVFile(contentsOf: capture).samples, sampleRate: 48_000),
      harnessTrouble: harnessTrouble, stall: stall)
  }

  /// A take whose capture passes `checkCapture`, which lists what is off in it, taken again while
  /// the harness glitches (see `retakenWhileTheHarnessGlitches`).
  ///
  /// With `lineAllowance`, each line must also come within that many seconds of when its beat was
  /// heard; a line later than that beside a machine that held threads at the priority of
  /// metronome's main thread, which prints it, as long is the machine's (`StallReport.lineHeld`).
  func take(
    _ arguments: [String], output: [String] = ["--device", "metrojack"], keys: String = "", recordSeconds: Int,
    lineAllowance: Double? = nil, checkCapture: (Take) -> [String]
  ) throws -> Take? {
    let check = { (take: Take) -> [String] in
      let late = lineAllowance.map { take.worstLineLateness >= $0 } ?? false
      return checkCapture(take) + (late ? ["a line \(take.worstLineLateness) s late; \(take.stall.described)"] : [])
    }
    return try retakenWhileTheHarnessGlitches(check: check) {
      let take = try take(arguments, output: output, keys: keys, recordSeconds: recordSeconds)
      let held = lineAllowance.map { take.stall.lineHeld(late: take.worstLineLateness, allowed: $0) } ?? []
      return (take, take.harnessTrouble + held)
    }
  }

  /// The underruns metronome reported in `message`, 0 if it did not say.
  static func underruns(in message: String) -> Int {
    let count = message.split(separator: "\n").first { $0.hasSuffix(" underruns") || $0.hasSuffix(" underrun") }
    return count.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
  }

  /// Each clicked beat a take printed, heard within one frame of its frame (from the first
  /// heard); a description of each that was not.
  static func heardOnTheirFrames(_ take: Take) -> [String] {
    let frames = take.printed.filter { $0["level"] as? String != "silent" }.compactMap { $0["frame"] as? Int }
    guard take.onsets.count == frames.count, let first = take.onsets.first else {
      return ["\(take.onsets.count) clicks heard for \(frames.count) sounding: \(take.onsets.map(\.frame))"]
    }
    return zip(take.onsets, frames).filter { abs(($0.frame - first.frame) - $1) > 1 }
      .map { "heard at \($0.frame - first.frame), scheduled at \($1)" }
  }

  /// How a run through `output` ends when its JACK server goes away: its status and what it said.
  ///
  /// It plays 120 BPM into a JACK dummy server, which is stopped once metronome's client has
  /// joined it; nil (the test failed) when it never joined. A `timeout` wrapper ends a hang with
  /// SIGTERM, then SIGKILL, so a run that does not notice fails instead of hanging.
  func playUntilTheServerGoesAway(_ output: [String]) throws -> (status: Int32, message: String)? {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = try BackgroundRun(
      ["--kill-after", "5", "20", MetronomeProcess.binary.path, "120"] + output + ["--duration", "15", "--headless"],
      executable: URL(fileURLWithPath: "/usr/bin/timeout"),
      environment: server.environment.merging(["HOME": folder.path]) { $1 })
    try server.waitForPorts { $0.contains { $0.hasPrefix("metronome") } }
    server.stop()
    let message = run.finish().errors
    return (run.process.terminationStatus, message)
  }
}
