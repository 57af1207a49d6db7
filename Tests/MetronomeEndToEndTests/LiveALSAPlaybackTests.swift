import Foundation
import MetronomeTesting
import XCTest

/// Plays through real ALSA, in real time, into a JACK dummy server, and finds the clicks in what
/// was captured.
///
/// ALSA's `jack` PCM is defined in an `.asoundrc` under a HOME of the test's own.
final class LiveALSAPlaybackTests: TimeLimitedTestCase {
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

  /// One take: metronome playing into a JACK dummy server while `jack_rec` records its port.
  private struct Take {
    let run: TimedRun
    /// The beats metronome printed, as their ndjson objects.
    let printed: [[String: Any]]
    /// The clicks found in the recording.
    let onsets: [Onset]
    /// What went wrong in the harness itself (the server's broken cycles, the recorder's
    /// dropped periods), which moves the capture by whole periods whatever metronome did.
    let harnessTrouble: [String]
  }

  private func take(
    _ arguments: [String], output: [String], keys: String, recordSeconds: Int, during: (Int32) -> Void = { _ in }
  ) throws -> Take {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let capture = home.appendingPathComponent("capture.wav")
    let recorder = try JACKRecorder(server: server, seconds: recordSeconds, file: capture)
    let script = home.appendingPathComponent("keys.txt")
    try keys.write(to: script, atomically: true, encoding: .utf8)
    let run = try TimedRun.run(
      output + ["--headless", "--events", "ndjson", "--keys", script.path] + arguments,
      environment: server.environment.merging(["HOME": home.path]) { $1 })
    let dropped = recorder.finish()
    let printed = try run.lines.map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any])
    }
    return Take(
      run: run, printed: printed,
      onsets: Onset.detect(in: try WAVFile(contentsOf: capture).samples, sampleRate: 48_000),
      harnessTrouble: server.brokenCycles() + (dropped.isEmpty ? [] : [dropped]))
  }

  /// A take whose capture passes `checkCapture`, which lists what is off in it, taken again while
  /// the harness glitches (see `retakenWhileTheHarnessGlitches`).
  private func take(
    _ arguments: [String], output: [String] = ["--device", "metrojack"], keys: String = "", recordSeconds: Int,
    checkCapture: (Take) -> [String]
  ) throws -> Take? {
    try retakenWhileTheHarnessGlitches(check: checkCapture) {
      let take = try take(arguments, output: output, keys: keys, recordSeconds: recordSeconds)
      return (take, take.harnessTrouble)
    }
  }

  /// What `attempt` captured, once `check` finds nothing off in it.
  ///
  /// An attempt is made again, up to three times, while what was off came with a glitch of the
  /// harness itself (what `attempt` gives beside its capture): the server's broken cycles and the
  /// recorder's dropped periods move the capture by whole periods whatever metronome did. What is
  /// off in an attempt whose harness was whole fails the test at once.
  private func retakenWhileTheHarnessGlitches<Capture>(
    check: (Capture) -> [String], _ attempt: () throws -> (capture: Capture, harnessTrouble: [String])
  ) throws -> Capture? {
    var troubles: [[String]] = []
    for _ in 1...3 {
      let (capture, harnessTrouble) = try attempt()
      let problems = check(capture)
      if problems.isEmpty {
        if !harnessTrouble.isEmpty {
          print("the JACK harness glitched, away from what was checked: \(harnessTrouble)")
        }
        return capture
      }
      guard !harnessTrouble.isEmpty else {
        XCTFail(problems.joined(separator: "\n"))
        return capture
      }
      print("the capture is off (\(problems)) and the JACK harness glitched (\(harnessTrouble)): taking again")
      troubles.append(harnessTrouble)
    }
    XCTFail("the JACK harness glitched in all three takes: \(troubles)")
    return nil
  }

  /// Eleven seconds at 137 BPM: every click lands where the beat grid put it, to the frame, with
  /// no underrun and nothing after the last; a tempo key scripted at 6 s is heard at the next
  /// beat; each line is printed when its beat is heard.
  func testLivePlaybackLandsOnTheExactGridAndAppliesATempoChangeAtTheNextBeat() throws {
    let heardOnTheGrid = { (take: Take) -> [String] in
      // What was heard: one click per printed beat, each within one frame of its scheduled frame.
      // Nothing after the last beat: ALSA's JACK bridge repeats its last period until the device
      // is closed, so the run must end on silence or its final click would sound again.
      let frames = take.printed.compactMap { $0["frame"] as? Int }
      let onsets = take.onsets
      guard onsets.count == frames.count, let first = onsets.first else {
        return ["\(onsets.count) clicks heard for \(frames.count) beats: \(onsets.map(\.frame))"]
      }
      let heard = onsets.map { $0.frame - first.frame }
      var problems = zip(heard, frames).filter { abs($0 - $1) > 1 }.map { "heard at \($0), scheduled at \($1)" }
      if onsets.map({ $0.peak > 0.8 }) != frames.indices.map({ $0 % 4 == 0 }) {
        problems.append("accents heard on \(onsets.map { $0.peak > 0.8 })")
      }
      return problems
    }
    guard
      let take = try take(
        ["137", "--duration", "11"], keys: "6.0 up\n", recordSeconds: 14, checkCapture: heardOnTheGrid)
    else { return }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    XCTAssertTrue(take.run.standardError.contains("metronome: 0 underruns"), take.run.standardError)
    let frames = take.printed.compactMap { $0["frame"] as? Int }
    let tempos = take.printed.compactMap { $0["tempo"] as? Double }
    let times = take.printed.compactMap { $0["time"] as? Double }
    XCTAssertGreaterThanOrEqual(frames.count, 24)

    // The scheduled frames: the exact 137 BPM grid, then 147 BPM from the first beat after 6 s,
    // one new interval after the last beat at 137.
    let oldGrid = { (n: Int) in Int((Double(n) * 48_000 * 60 / 137).rounded()) }
    guard let change = tempos.firstIndex(of: 147) else {
      return XCTFail("the tempo change was not applied: \(tempos)")
    }
    XCTAssertEqual(change, (0...).first { oldGrid($0) > 6 * 48_000 })
    XCTAssertEqual(Array(frames[..<change]), (0..<change).map(oldGrid))
    for n in change..<frames.count {
      XCTAssertEqual(frames[n], frames[change - 1] + Int((Double(n - change + 1) * 48_000 * 60 / 147).rounded()))
    }
    // The ndjson time is the frame in seconds.
    for (time, frame) in zip(times, frames) { XCTAssertEqual(time, Double(frame) / 48_000, accuracy: 1e-9) }

    // Each line comes when its beat is heard, not when it is rendered (all at once, ahead).
    let arrivals = take.run.lines.map(\.seconds)
    for (arrival, time) in zip(arrivals, times) {
      XCTAssertEqual(arrival - arrivals[0], time - times[0], accuracy: 0.05, "arrivals \(arrivals), beats \(times)")
    }
  }

  /// Sixteenths at 240 BPM, sixteen clicks a second, played live: every click of every beat where
  /// its frame says, within one frame, and no underrun.
  func testSixteenthsAt240LandOnTheirExactFramesLive() throws {
    let everyClickOnItsFrame = { (take: Take) -> [String] in
      let frames = take.printed.compactMap { $0["frame"] as? Int }
      guard take.onsets.count == frames.count, let first = take.onsets.first else {
        return ["\(take.onsets.count) clicks heard for \(frames.count) printed: \(take.onsets.map(\.frame))"]
      }
      return zip(take.onsets, frames).filter { abs(($0.frame - first.frame) - $1) > 1 }
        .map { "heard at \($0.frame - first.frame), scheduled at \($1)" }
    }
    guard
      let take = try take(
        ["240", "--subdivide", "4", "--duration", "4"], recordSeconds: 7, checkCapture: everyClickOnItsFrame)
    else { return }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    XCTAssertTrue(take.run.standardError.contains("metronome: 0 underruns"), take.run.standardError)
    XCTAssertEqual(take.printed.count, 64)
    XCTAssertEqual(take.printed.filter { $0["sub"] as? Int != 0 }.count, 48)
  }

  /// A tempo map with meter changes, a ramp and silent beats, played live: every click heard within
  /// one frame of its printed frame (which the virtual-time and klick tests pin to the map), the
  /// silent beats not heard, and the run ending with the map.
  func testATempoMapWithAMeterChangeAndARampLandsOnItsFramesLive() throws {
    let map = home.appendingPathComponent("song.map")
    try "1 4/4 150\nramp: 1 3/4 150-100\n1 7/8 180 X.x.x.x\n".write(to: map, atomically: true, encoding: .utf8)
    guard let take = try take(["--map", map.path], recordSeconds: 7, checkCapture: Self.heardOnTheirFrames) else {
      return
    }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    XCTAssertTrue(take.run.standardError.contains("metronome: 0 underruns"), take.run.standardError)
    XCTAssertEqual(
      take.printed.compactMap { $0["meter"] as? String },
      Array(repeating: "4/4", count: 4)
        + Array(repeating: "3/4", count: 3) + Array(repeating: "7/8", count: 7))
    XCTAssertEqual(take.printed.filter { $0["level"] as? String == "silent" }.count, 3)
  }

  /// A setlist of a map file and a map line, printed, plays song after song: the second song's
  /// count-in of two beats starts on the frame the first ended, every click within a frame.
  func testASetlistPlaysItsSongsOnTheirFramesLive() throws {
    try "1 2/4 180\n1 3/4 120\n".write(
      to: home.appendingPathComponent("first.map"), atomically: true, encoding: .utf8)
    let setlist = home.appendingPathComponent("set.txt")
    try "First: first.map\nSecond: 2 5/8 200 X.x.. count-in=2b\n".write(to: setlist, atomically: true, encoding: .utf8)
    guard let take = try take(["--setlist", setlist.path], recordSeconds: 7, checkCapture: Self.heardOnTheirFrames)
    else { return }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    XCTAssertTrue(take.run.standardError.contains("metronome: 0 underruns"), take.run.standardError)
    XCTAssertEqual(
      take.printed.compactMap { $0["song"] as? Int }, Array(repeating: 0, count: 7) + Array(repeating: 1, count: 12))
    // 2/4 at 180 (16000 frames a beat) counted in by a bar, then 3/4 at 120; the second song
    // starts where the first's last bar ends: 4 × 16000 + 3 × 24000.
    let second = try XCTUnwrap(take.printed.first { $0["song"] as? Int == 1 })
    XCTAssertEqual(second["frame"] as? Int, 136_000)
    XCTAssertEqual(second["beat"] as? Int, 4)
  }

  /// Each clicked beat a take printed, heard within one frame of its frame (from the first
  /// heard); a description of each that was not.
  private static func heardOnTheirFrames(_ take: Take) -> [String] {
    let frames = take.printed.filter { $0["level"] as? String != "silent" }.compactMap { $0["frame"] as? Int }
    guard take.onsets.count == frames.count, let first = take.onsets.first else {
      return ["\(take.onsets.count) clicks heard for \(frames.count) sounding: \(take.onsets.map(\.frame))"]
    }
    return zip(take.onsets, frames).filter { abs(($0.frame - first.frame) - $1) > 1 }
      .map { "heard at \($0.frame - first.frame), scheduled at \($1)" }
  }

  /// The render thread alone held for 300 ms: an underrun recovered from, counted and reported.
  ///
  /// ptrace stops one thread; JACK's thread in the same process plays on and drains the buffer.
  /// metronome plays on to the end. The buffer stays as it was: no buffer it could grow to lasts
  /// 300 ms.
  func testAnUnderrunIsRecoveredCountedAndReported() throws {
    let message = try runWithRenderThreadHeld(seconds: 0.3)

    XCTAssertGreaterThanOrEqual(Self.underruns(in: message), 1, message)
    XCTAssertFalse(message.contains("the buffer grew"), message)
  }

  /// The render thread held for 40 ms: the buffer doubles after the one underrun.
  ///
  /// 40 ms is longer than the default buffer lasts but not the largest it may grow to.
  func testAnUnderrunThatALargerBufferWouldHaveCoveredGrowsTheBuffer() throws {
    let message = try runWithRenderThreadHeld(seconds: 0.04)

    XCTAssertEqual(Self.underruns(in: message), 1, message)
    XCTAssertTrue(message.contains("metronome: after underruns the buffer grew from 1024 to 2048 frames"), message)
  }

  /// What metronome said after 3 s at 120 BPM with its render thread held for `seconds` once.
  ///
  /// It plays into the JACK dummy server; the run is checked to have ended well.
  private func runWithRenderThreadHeld(seconds: Double) throws -> String {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = try BackgroundRun(
      ["120", "--device", "metrosystem", "--duration", "3", "--headless"],
      environment: server.environment.merging(["HOME": home.path]) { $1 })
    let renderThread = try waitForThread(named: "render", in: run.process.processIdentifier)
    let hold = try ChildProcess.run(
      try XCTUnwrap(ChildProcess.which("python3")), ["-c", Self.holdThread, "\(renderThread)", "\(seconds)"])
    XCTAssertEqual(hold.status, 0, hold.standardError)
    let message = run.finish().errors
    XCTAssertEqual(run.process.terminationStatus, 0, message)
    return message
  }

  /// The underruns metronome reported in `message`, 0 if it did not say.
  private static func underruns(in message: String) -> Int {
    let count = message.split(separator: "\n").first { $0.hasSuffix(" underruns") || $0.hasSuffix(" underrun") }
    return count.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
  }

  /// Stops one thread for a while with ptrace, which (unlike a signal) leaves the other threads
  /// of its process running: `python3 -c SCRIPT TID SECONDS`.
  private static let holdThread = """
    import ctypes, os, sys, time
    libc = ctypes.CDLL(None, use_errno=True)
    tid = int(sys.argv[1])
    PTRACE_SEIZE, PTRACE_INTERRUPT, PTRACE_DETACH, WALL = 0x4206, 0x4207, 17, 0x40000000
    assert libc.ptrace(PTRACE_SEIZE, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    assert libc.ptrace(PTRACE_INTERRUPT, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    os.waitpid(tid, WALL)
    time.sleep(float(sys.argv[2]))
    assert libc.ptrace(PTRACE_DETACH, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    """

  /// The id of the thread called `name` in process `pid`, once it exists (within 5 s).
  private func waitForThread(named name: String, in pid: Int32) throws -> Int {
    for _ in 0..<250 {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      for task in tasks {
        let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
        if comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name, let id = Int(task) { return id }
      }
      usleep(20_000)
    }
    throw FixtureError("no thread named '\(name)' in process \(pid)")
  }

  /// ALSA's JACK bridge reports no error when its server goes away: it just stops taking audio.
  ///
  /// The run must notice, say so in one line and exit 1 rather than wait for ever (a `timeout`
  /// wrapper ends a hang with SIGTERM, then SIGKILL, so this test fails instead of hanging).
  func testAServerThatGoesAwayMidRunEndsItWithAnErrorInsteadOfAHang() throws {
    guard let (status, message) = try playUntilTheServerGoesAway(["--device", "metrosystem"]) else { return }

    XCTAssertEqual(status, 1, message)
    XCTAssertTrue(
      message.contains(
        "Error: ALSA device 'metrosystem' could not keep playing (it has taken no audio for 2 s): is it still"
          + " connected, and its sound server (JACK, PulseAudio) still running?\n"), message)
  }

  /// How a run through `output` ends when its JACK server goes away: its status and what it said.
  ///
  /// It plays 120 BPM into a JACK dummy server, which is stopped once metronome's client has
  /// joined it; nil (the test failed) when it never joined. A `timeout` wrapper ends a hang with
  /// SIGTERM, then SIGKILL, so a run that does not notice fails instead of hanging.
  private func playUntilTheServerGoesAway(_ output: [String]) throws -> (status: Int32, message: String)? {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = try BackgroundRun(
      ["--kill-after", "5", "20", MetronomeProcess.binary.path, "120"] + output + ["--duration", "15", "--headless"],
      executable: URL(fileURLWithPath: "/usr/bin/timeout"),
      environment: server.environment.merging(["HOME": home.path]) { $1 })
    try server.waitForPorts { $0.contains { $0.hasPrefix("metronome") } }
    server.stop()
    let message = run.finish().errors
    return (run.process.terminationStatus, message)
  }

  /// As a JACK client of its own (no ALSA, no render thread: the server's cycles render), with a
  /// tempo key: every click within one frame of its frame, no xrun.
  func testANativeJACKClientPlaysOnTheExactGrid() throws {
    guard
      let take = try take(
        ["137", "--duration", "5"], output: ["--jack", "--client-name", "metro-test", "--connect", "jackrec:input1"],
        keys: "2.5 up\n", recordSeconds: 8, checkCapture: Self.heardOnTheirFrames)
    else { return }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    XCTAssertTrue(take.run.standardError.contains("metronome: 0 underruns"), take.run.standardError)
    let tempos = take.printed.compactMap { $0["tempo"] as? Double }
    XCTAssertEqual(Set(tempos), [137, 147])
    XCTAssertGreaterThanOrEqual(tempos.count, 11)
  }

  /// A JACK server that goes away under the native client ends the run with one line and status 1.
  func testANativeClientWhoseServerGoesAwayEndsWithOneLine() throws {
    guard let (status, message) = try playUntilTheServerGoesAway(["--jack"]) else { return }

    XCTAssertEqual(status, 1, message)
    XCTAssertTrue(message.hasSuffix("Error: the JACK server went away: start it again, then metronome\n"), message)
  }

  /// Following a JACK transport whose timebase master is klick (-T), itself clicking on a second
  /// channel, started, relocated to bar 6 and stopped by jack_transport as a player at the
  /// transport would: metronome clicks on klick's frames, each within one frame, numbered with the
  /// master's bars and beats, and falls silent when it stops.
  func testFollowingAJACKTransportClicksWithItsMaster() throws {
    let klick = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": home.path]) { $1 }
    let capture = home.appendingPathComponent("transport.wav")
    let recorder = try JACKRecorder(server: server, seconds: 8, file: capture, channels: 2)
    let master = try BackgroundRun(
      ["-s", "KILL", "30", klick.path, "-T", "-n", "master", "-p", "jackrec:input2", "4/4", "150"],
      executable: timeout, environment: environment)
    let run = try BackgroundRun(
      [
        "--kill-after", "5", "20", MetronomeProcess.binary.path, "--jack", "--follow-transport", "--connect",
        "jackrec:input1", "--headless", "--events", "ndjson", "--duration", "7",
      ], executable: timeout, environment: environment)
    try server.waitForPorts { Set(["master:out", "metronome:click"]).isSubset(of: $0) }
    // 384000 frames at 150 BPM are 20 beats: bar 6, beat 1.
    let transport = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c",
        "{ printf 'locate 0\\nplay\\n'; sleep 2; printf 'locate 384000\\n'; sleep 2; printf 'stop\\nquit\\n'; } | jack_transport",
      ],
      environment: environment)
    let printed = try run.finish().output.split(separator: UInt8(ascii: "\n")).map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
    recorder.finish()
    master.process.terminate()
    _ = master.finish()

    XCTAssertEqual(transport.status, 0, transport.standardError)
    XCTAssertEqual(run.process.terminationStatus, 0)
    let ours = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000).map(\.frame)
    let klicks = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000).map(\.frame)
    XCTAssertGreaterThanOrEqual(ours.count, 8)
    XCTAssertEqual(ours.count, klicks.count, "ours \(ours), klick's \(klicks)")
    let worst = zip(ours, klicks).map { abs($0 - $1) }.max() ?? 0
    XCTAssertLessThanOrEqual(worst, 1, "ours \(ours), klick's \(klicks)")
    let places = printed.compactMap { beat in (beat["bar"] as? Int).map { "\($0).\(beat["beat"] as? Int ?? 0)" } }
    XCTAssertEqual(places.first, "1.1")
    XCTAssertTrue(places.contains("6.1"), "\(places)")
    XCTAssertTrue(printed.allSatisfy { $0["sync"] as? String == "jack" && $0["tempo"] as? Int == 150 })
  }

  /// As the timebase master, in 3/4 at 150, started by jack_transport: the bar, beat and tick
  /// jack_showtime reads back at each transport frame are the metronome's beats counted from frame
  /// 0 (19200 frames each), and its clicks, heard on that grid, accent every third.
  func testAsTimebaseMasterItPublishesItsBarsAndBeats() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": home.path]) { $1 }
    let capture = home.appendingPathComponent("master.wav")
    let recorder = try JACKRecorder(server: server, seconds: 6, file: capture)
    let run = try BackgroundRun(
      [
        "--kill-after", "5", "20", MetronomeProcess.binary.path, "3/4", "150", "--jack", "--timebase-master",
        "--connect", "jackrec:input1", "--headless", "--events", "ndjson", "--duration", "5",
      ], executable: timeout, environment: environment)
    try server.waitForPorts { $0.contains("metronome:click") }
    let transport = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c",
        "{ printf 'locate 0\\nplay\\n'; sleep 3; printf 'stop\\nquit\\n'; } | jack_transport & sleep 1; timeout 1 jack_showtime; wait",
      ],
      environment: environment)
    let printed = try run.finish().output.split(separator: UInt8(ascii: "\n")).map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
    recorder.finish()

    // "frame = 48128  frame_time = … state: Rolling	BBT:   1|3|0985"
    let readings = transport.standardOutput.split(separator: "\n").filter { $0.contains("Rolling") }.compactMap {
      line -> (frame: Int, bbt: [Int])? in
      let words = line.split(whereSeparator: \.isWhitespace)
      guard let frame = words.count > 2 ? Int(words[2]) : nil, let bbt = words.last else { return nil }
      return (frame, bbt.split(separator: "|").compactMap { Int($0) })
    }
    XCTAssertGreaterThan(readings.count, 10, transport.standardOutput)
    for reading in readings {
      let beats = Double(reading.frame) / 19_200
      let index = Int(beats)
      let expected = [index / 3 + 1, index % 3 + 1, Int((beats - Double(index)) * 1_920)]
      XCTAssertEqual(reading.bbt, expected, "at transport frame \(reading.frame)")
    }
    let onsets = Onset.detect(in: try WAVFile(contentsOf: capture).samples, sampleRate: 48_000)
    XCTAssertGreaterThanOrEqual(onsets.count, 8)
    XCTAssertTrue(
      zip(onsets, onsets.dropFirst()).allSatisfy { abs($1.frame - $0.frame - 19_200) <= 1 }, "\(onsets.map(\.frame))")
    let places = printed.compactMap { beat in (beat["bar"] as? Int).map { "\($0).\(beat["beat"] as? Int ?? 0)" } }
    XCTAssertEqual(Array(places.prefix(4)), ["1.1", "1.2", "1.3", "2.1"])
    XCTAssertEqual(
      onsets.prefix(places.count).map { $0.peak > 0.8 }, places.map { $0.hasSuffix(".1") }, "\(places)")
    XCTAssertEqual(run.process.terminationStatus, 0)
  }

  /// MIDI clock on the native client's MIDI port, read by jack_midi_dump: at 120, a bar of
  /// count-in clocked, then Song Position 0 and Start on bar one, 24 ticks a quarter exactly 1000
  /// frames apart throughout, and Stop when a key pauses it.
  func testMIDIClockTicksOnItsExactFrames() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let dump = try XCTUnwrap(ChildProcess.which("jack_midi_dump"))
    let script = home.appendingPathComponent("pause.txt")
    try "3.5 space\n".write(to: script, atomically: true, encoding: .utf8)
    typealias Capture = (run: ProcessResult, events: [(frame: Int, bytes: String)])
    let onTheirFrames = { (capture: Capture) -> [String] in
      let (run, events) = capture
      var problems: [String] = []
      if run.status != 0 { problems.append("status \(run.status): \(run.standardError)") }
      let ticks = events.filter { $0.bytes == "f8" }.map(\.frame)
      // 2 s of count-in and 1.5 s of music at 48 ticks a second.
      if ticks.count != 168 { problems.append("\(ticks.count) ticks, not 168: \(events.prefix(5))") }
      if !zip(ticks, ticks.dropFirst()).allSatisfy({ $1 - $0 == 1_000 }) {
        problems.append("ticks not 1000 frames apart: \(ticks)")
      }
      let others = events.filter { $0.bytes != "f8" }
      if others.map(\.bytes) != ["f2 00 00", "fa", "fc"] {
        problems.append("not Song Position, Start, Stop: \(others)")
      } else if others[0].frame != ticks.first.map({ $0 + 96_000 }) || ticks.count < 97
        || others[1].frame != ticks[96] || others[2].frame <= ticks.last ?? .max
      {
        problems.append("Song Position, Start and Stop at \(others.map(\.frame)), ticks from \(ticks.first ?? -1)")
      }
      return problems
    }
    _ = try retakenWhileTheHarnessGlitches(check: onTheirFrames) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": home.path]) { $1 }
      let monitor = try BackgroundRun(
        ["-s", "INT", "8", dump.path, "-a"], executable: timeout, environment: environment)
      try server.waitForPorts { $0.contains("midi-monitor:input") }
      let run = try MetronomeProcess.run(
        [
          "120", "--jack", "--connect", "none", "--midi-clock", "--midi-connect", "midi-monitor:input", "--count-in",
          "1", "--keys", script.path, "--duration", "4.5", "--headless", "--events", "none",
        ], environment: environment)
      let events = String(decoding: monitor.finish().output, as: UTF8.self).split(separator: "\n").compactMap {
        line -> (frame: Int, bytes: String)? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let frame = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        return (frame, parts[1].trimmingCharacters(in: .whitespaces))
      }
      return ((run, events), server.brokenCycles())
    }
  }

  /// The display says where the MIDI clock goes out, and the clock's port is there to connect to.
  func testTheDisplayNamesTheMIDIClocksPort() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": home.path]) { $1 }
    let display = try TmuxSession(
      command: "'\(MetronomeProcess.binary.path)' --jack --client-name drums --connect none --midi-clock 120",
      environment: environment)
    _ = try display.waitForScreen { $0.contains("MIDI clock on drums:midi_out") }
    try server.waitForPorts { $0.contains("drums:midi_out") }
    try display.send("q")
    let outcome = try XCTUnwrap(try display.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }

  /// One metronome following another's MIDI clock, both clicking on a channel of their own: the
  /// follower waits through the sender's clocked count-in, then clicks on every one of the
  /// sender's clicks, to the frame, at its tempo, and stops with the Stop the sender's run ends
  /// with.
  func testFollowingMIDIClockClicksWithTheSender() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": home.path]) { $1 }
    let capture = home.appendingPathComponent("midi.wav")
    let recorder = try JACKRecorder(server: server, seconds: 8, file: capture, channels: 2)
    let follower = try BackgroundRun(
      [
        "--kill-after", "5", "20", MetronomeProcess.binary.path, "--jack", "--client-name", "follower",
        "--follow-midi-clock", "--connect", "jackrec:input1", "--headless", "--events", "ndjson", "--duration", "7",
      ], executable: timeout, environment: environment)
    try server.waitForPorts { $0.contains("follower:midi_in") }
    let sender = try MetronomeProcess.run(
      [
        "137", "--jack", "--client-name", "sender", "--connect", "jackrec:input2", "--midi-clock", "--midi-connect",
        "follower:midi_in", "--count-in", "1", "--duration", "4", "--headless", "--events", "none",
      ], environment: environment)
    let printed = try follower.finish().output.split(separator: UInt8(ascii: "\n")).map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
    recorder.finish()

    XCTAssertEqual(sender.status, 0, sender.standardError)
    XCTAssertEqual(follower.process.terminationStatus, 0)
    let followed = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000).map(
      \.frame)
    let sent = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000).map(\.frame)
    // The sender's first four clicks count in, unclocked as music.
    let music = Array(sent.dropFirst(4))
    XCTAssertGreaterThanOrEqual(followed.count, 6)
    XCTAssertEqual(followed, Array(music.prefix(followed.count)), "sent \(sent)")
    XCTAssertGreaterThanOrEqual(followed.count, music.count - 1, "sent \(sent), followed \(followed)")
    XCTAssertTrue(printed.allSatisfy { $0["sync"] as? String == "midi" && $0["tempo"] as? Int == 137 }, "\(printed)")
    XCTAssertEqual(printed.first?["bar"] as? Int, 1)
  }

  /// Without a JACK server, or at another rate than the server's, --jack is one line and status 1.
  func testANativeClientWithoutAServerOrAtAnotherRateIsOneLine() throws {
    let none = try MetronomeProcess.run(
      ["--jack", "--beats", "1", "--headless"],
      environment: ["HOME": home.path])
    XCTAssertEqual(none.status, 1)
    XCTAssertTrue(none.standardError.hasPrefix("Error: no JACK server to join"), none.standardError)
    XCTAssertEqual(none.standardError.split(separator: "\n").count, 1, none.standardError)

    let server = try JACKDummyServer()
    defer { server.stop() }
    let other = try MetronomeProcess.run(
      ["--jack", "--rate", "44100", "--beats", "1", "--headless"],
      environment: server.environment.merging(["HOME": home.path]) { $1 })
    XCTAssertEqual(other.status, 1)
    XCTAssertEqual(
      other.standardError, "Error: the JACK server runs at 48000 Hz: give --rate 48000, or start it at 44100\n")
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
