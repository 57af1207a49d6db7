import Foundation
import MetronomeTesting
import XCTest

/// Plays through real ALSA (its `jack` plugin), in real time, into a JACK dummy server, and finds
/// the clicks in what was captured.
final class ALSAPlaybackTests: LivePlaybackTestCase {
  /// Eleven seconds at 137 BPM: every click lands where the beat grid put it, to the frame, with
  /// no underrun and nothing after the last; a tempo key scripted at 6 s is heard at the next
  /// beat; each line is printed when its beat is heard, within 50 ms.
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
        ["137", "--duration", "11"], keys: "6.0 up\n", recordSeconds: 14, lineAllowance: 0.05,
        checkCapture: heardOnTheGrid)
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
    // Each line came when its beat was heard (the take's `lineAllowance`), not when it was
    // rendered (all at once, ahead): one line for each beat.
    XCTAssertEqual(take.run.lines.count, times.count)
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
    let map = folder.appendingPathComponent("song.map")
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
      to: folder.appendingPathComponent("first.map"), atomically: true, encoding: .utf8)
    let setlist = folder.appendingPathComponent("set.txt")
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

  /// The render thread alone held for 300 ms: an underrun recovered from, counted and reported.
  ///
  /// ptrace stops one thread; JACK's thread in the same process plays on and drains the buffer.
  /// metronome plays on to the end. The buffer stays as it was: no buffer it could grow to lasts
  /// 300 ms.
  func testAnUnderrunIsRecoveredCountedAndReported() throws {
    let message = try runWithRenderThreadHeld(milliseconds: 300) { message in
      Self.underruns(in: message) >= 1 && !message.contains("the buffer grew") ? [] : [message]
    }

    XCTAssertNotNil(message)
  }

  /// The render thread held for 60 ms: the buffer doubles after the one underrun.
  ///
  /// 60 ms is longer than the buffer ALSA's JACK plugin gives at the server's 1024-frame period
  /// lasts (2048 frames, 42.7 ms) but not the largest it may grow to (4096 frames, 85.3 ms).
  func testAnUnderrunThatALargerBufferWouldHaveCoveredGrowsTheBuffer() throws {
    let message = try runWithRenderThreadHeld(milliseconds: 60) { message in
      Self.underruns(in: message) == 1
        && message.contains("metronome: after underruns the buffer grew from 2048 to 4096 frames") ? [] : [message]
    }

    XCTAssertNotNil(message)
  }

  /// What metronome said after 3 s at 120 BPM with its render thread held for `milliseconds`
  /// once, once `check` finds nothing off in it (the run must also have ended well).
  ///
  /// It plays into the JACK dummy server. A take is taken again where the harness glitched: the
  /// hold let go late, the whole machine stalled, or the server broke a cycle (any of which may
  /// run the buffer dry once more than the hold asked for).
  private func runWithRenderThreadHeld(milliseconds: Int, check: (String) -> [String]) throws -> String? {
    let holder = try HeldThread.holder(in: folder)
    typealias Ended = (status: Int32, message: String)
    let endedWell = { (ended: Ended) in (ended.status == 0 ? [] : ["status \(ended.status)"]) + check(ended.message) }
    return try retakenWhileTheHarnessGlitches(check: endedWell) { () throws -> (Ended, [String]) in
      let server = try JACKDummyServer()
      defer { server.stop() }
      let watch = StallWatch()
      let run = try BackgroundRun(
        ["120", "--device", "metrosystem", "--duration", "3", "--headless"],
        environment: server.environment.merging(["HOME": folder.path]) { $1 })
      let hold = try HeldThread(in: run.process.processIdentifier) { name, _ in name == "render" }
        .hold(milliseconds: milliseconds, with: holder)
      let message = run.finish().errors
      let stall = watch.stop()
      return (
        (run.process.terminationStatus, message), hold.overran + stall.glitches(over: 0.015) + server.brokenCycles()
      )
    }?.message
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

  func testAMissingDeviceIsOneLineAndExitStatusOne() throws {
    let run = try MetronomeProcess.run(
      ["--device", "no-such-device", "--beats", "1", "--headless"], environment: ["HOME": folder.path])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.standardError,
      "Error: no ALSA playback device 'no-such-device' (No such file or directory): no sound card? try --device NAME,"
        + " `metronome devices`, or --silent\n")
    // Listening has no --silent: it says to try JACK.
    let listening = try MetronomeProcess.run(
      ["--device", "no-such-device", "--beats", "1", "--headless", "--listen"], environment: ["HOME": folder.path])
    XCTAssertEqual(listening.status, 1)
    XCTAssertEqual(
      listening.standardError,
      "Error: no ALSA playback device 'no-such-device' (No such file or directory): no sound card? listening needs one:"
        + " try --device NAME, `metronome devices`, or --jack\n")
  }
}
