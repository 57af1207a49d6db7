import Foundation
import MetronomeTesting
import XCTest

/// Plays through real ALSA, in real time, into a JACK dummy server, and finds the clicks in what
/// was captured. ALSA's `jack` PCM is defined in an `.asoundrc` under a HOME of the test's own.
final class LiveALSAPlaybackTests: XCTestCase {
  private var home: URL!

  override func setUpWithError() throws {
    home = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-alsa-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try """
    pcm.metrojack {
      type plug
      slave.pcm { type jack; playback_ports { 0 "jackrec:input1" } }
    }
    pcm.metrosystem {
      type plug
      slave.pcm { type jack; playback_ports { 0 "system:playback_1" } }
    }
    """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
  }

  override func tearDownWithError() throws { try FileManager.default.removeItem(at: home) }

  /// Eleven seconds at 137 BPM: every click lands where the beat grid put it, to the frame, with
  /// no underrun and nothing after the last; a tempo change sent from the main thread at 6 s is
  /// heard at the next beat.
  func testLivePlaybackLandsOnTheExactGridAndAppliesATempoChangeAtTheNextBeat() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let capture = home.appendingPathComponent("capture.wav")
    let recorder = try JACKRecorder(server: server, seconds: 14, file: capture)
    let keys = home.appendingPathComponent("keys.txt")
    try "6.0 up\n".write(to: keys, atomically: true, encoding: .utf8)

    let run = try MetronomeProcess.run(
      ["137", "--device", "metrojack", "--duration", "11", "--headless", "--events", "ndjson", "--keys", keys.path],
      environment: server.environment.merging(["HOME": home.path]) { $1 }
    )
    recorder.finish()

    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains("metronome: 0 underruns"), run.standardError)
    let printed = try run.standardOutput.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    let frames = printed.map { $0["frame"] as! Int }
    let tempos = printed.map { $0["tempo"] as! Double }
    XCTAssertGreaterThanOrEqual(frames.count, 24)

    // The scheduled frames: the exact 137 BPM grid, then 147 BPM from the first beat after 6 s.
    let oldGrid = { (n: Int) in Int((Double(n) * 48_000 * 60 / 137).rounded()) }
    guard let change = tempos.firstIndex(of: 147) else { return XCTFail("the tempo change was not applied: \(tempos)") }
    XCTAssertEqual(change, (0...).first { oldGrid($0) > 6 * 48_000 })
    XCTAssertEqual(Array(frames[..<change]), (0..<change).map(oldGrid))
    for n in change..<frames.count {
      XCTAssertEqual(frames[n], frames[change - 1] + Int((Double(n - change + 1) * 48_000 * 60 / 147).rounded()))
    }

    // What was heard: one click per printed beat, each within one frame of its scheduled frame.
    let onsets = Onset.detect(in: try WAVFile(contentsOf: capture).samples, sampleRate: 48_000)
    // Nothing after the last beat: ALSA's JACK bridge repeats its last period until the device is
    // closed, so the run must end on silence or its final click would sound again every period.
    XCTAssertEqual(onsets.count, frames.count, "onsets \(onsets.map(\.frame)), beats \(frames)")
    let heard = onsets.prefix(frames.count).map { $0.frame - onsets[0].frame }
    for (heardFrame, scheduled) in zip(heard, frames) {
      XCTAssertLessThanOrEqual(abs(heardFrame - scheduled), 1, "heard \(heard), scheduled \(frames)")
    }
    XCTAssertEqual(onsets.prefix(frames.count).map { $0.peak > 0.8 }, frames.indices.map { $0 % 4 == 0 })
  }

  /// ALSA's JACK bridge reports no error when its server goes away: it just stops taking audio.
  /// The run must notice, say so in one line and exit 1 rather than wait for ever (a `timeout`
  /// wrapper ends a hang with SIGTERM, then SIGKILL, so this test fails instead of hanging).
  func testAServerThatGoesAwayMidRunEndsItWithAnErrorInsteadOfAHang() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = Process()
    run.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    run.arguments = [
      "--kill-after", "5", "20", MetronomeProcess.binary.path, "120", "--device", "metrosystem", "--duration", "15",
      "--headless",
    ]
    run.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
      .merging(["HOME": home.path]) { $1 }
    let errors = Pipe()
    run.standardOutput = FileHandle.nullDevice
    run.standardError = errors
    try run.run()
    // Wait for metronome's JACK client to appear, then take the server away under it.
    var polls = 0
    while try !server.ports().contains(where: { $0.hasPrefix("metronome") }) {
      polls += 1
      guard polls < 100 else { return XCTFail("metronome did not connect to the JACK server within 5 s") }
      usleep(50_000)
    }
    server.stop()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    run.waitUntilExit()

    XCTAssertEqual(run.terminationStatus, 1, message)
    XCTAssertTrue(
      message.contains(
        "Error: ALSA device 'metrosystem' could not keep playing (it has taken no audio for 2 s): is it still"
          + " connected, and its sound server (JACK, PulseAudio) still running?\n"), message)
  }

  func testAMissingDeviceIsOneLineAndExitStatusOne() throws {
    let run = try MetronomeProcess.run(
      ["--device", "no-such-device", "--beats", "1", "--headless"], environment: ["HOME": home.path])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.standardError,
      "Error: no ALSA playback device 'no-such-device' (No such file or directory): no sound card? try --device NAME,"
        + " `metronome devices`, or --silent\n")
  }
}
