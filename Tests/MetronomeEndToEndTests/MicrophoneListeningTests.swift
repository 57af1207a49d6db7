import Foundation
import MetronomeTesting
import PracticeListening
import XCTest

/// Listening through a microphone on a JACK dummy server: a drummer of kit samples plays into
/// metronome's `mic` port with the clicks mixed in as a microphone beside the speaker hears them.
final class MicrophoneListeningTests: FolderTestCase {
  /// Five takes of each of a test's runs, which a loaded machine may need, fit in it.
  override class var timeLimit: Double { 360 }

  /// Every stroke of a kit comes back once, within a millisecond of where its sound starts, and no
  /// click is taken for a hit; the summary says the click heard at the microphone placed them, and
  /// how long after it was played (the two latencies JACK reports, 1,024 frames each at 44.1 kHz).
  func testEveryStrokeIsHeardWithinAMillisecondAndNoClickIs() throws {
    let capture = try listen(micDelay: 0)
    XCTAssertTrue(capture?.errors.contains("metronome: listening: 35 hits: mean ") == true, capture?.errors ?? "")
    XCTAssertTrue(
      capture?.errors.contains(
        "; audio hits placed by the click heard at the microphone, 46.4 ms after it was played\n")
        == true, capture?.errors ?? "")
  }

  /// The clicks coming back twice as loud from the tenth beat on (a speaker turned up while the
  /// drummer plays on): every stroke is heard within a millisecond from the fourth click after,
  /// none is taken for a hit, and the summary says the click came back 6 dB louder and was followed.
  func testASpeakerTurnedUpMidTakeIsFollowedAndSaid() throws {
    let capture = try listen(micDelay: 0, clickGain: DrumPlayer.ClickGain(0.25, louder: 2, from: 20))
    XCTAssertTrue(capture?.errors.contains("metronome: listening: 35 hits: mean ") == true, capture?.errors ?? "")
    XCTAssertTrue(
      capture?.errors.contains("; the click came back 6.0 dB louder (a volume turned): its echo followed\n") == true,
      capture?.errors ?? "")
  }

  /// The same through ALSA: metronome plays into ALSA's JACK plugin as its playback device and
  /// listens to another as its capture device (`--listen-device`), two streams of their own whose
  /// frames it places on each other by what each device says of where it is.
  func testEveryStrokeIsHeardWithinAMillisecondThroughALSAsJACKPluginAsACaptureDevice() throws {
    try writeALSADevices()
    let capture = try listen(micDelay: 0, route: .alsa)
    XCTAssertTrue(capture?.errors.contains("metronome: listening: 35 hits: mean ") == true, capture?.errors ?? "")
    XCTAssertTrue(
      capture?.errors.contains("; audio hits placed by the click heard at the microphone\n") == true,
      capture?.errors ?? "")
  }

  /// The same through ALSA's `default` on a headless PipeWire, whose microphone hears the speaker
  /// (the clicks at their full level) and the drummer.
  func testEveryStrokeIsHeardWithinAMillisecondThroughPipeWiresDefaultDevices() throws {
    let capture = try listen(micDelay: 0, route: .pipewire)
    XCTAssertTrue(capture?.errors.contains("metronome: listening: 35 hits: mean ") == true, capture?.errors ?? "")
  }

  /// The same, with metronome's render thread held for 50 ms as the 24th click is heard.
  ///
  /// That runs the output dry once: the clicks after it keep their grid, and so do the strokes
  /// placed against them. Where the output glitched, from the first sound written after it ran
  /// dry until what it lost was found (some 160 ms), a click came late; the frames it lost, skipped
  /// to keep the grid, may hold one that never sounded. A stroke there is said not scored, never
  /// placed against a click the player did not hear, and no click is taken for a stroke.
  ///
  /// Before, every stroke after an underrun was placed as many frames early as it lost, and
  /// more: the input stayed placed on the output's stream, which the underrun had moved.
  func testAnOutputThatRunsDryKeepsTheStrokesAfterItPlacedAndScoresNoneWhereItGlitched() throws {
    let capture = try listen(micDelay: 0, route: .pipewire, holdAfterClick: 24)
    XCTAssertTrue(capture?.errors.contains("metronome: 1 underrun\n") == true, capture?.errors ?? "")
  }

  /// The same, with metronome's capture thread held for 300 ms as the 24th click is heard.
  ///
  /// That is longer than the capture device's buffer: the device loses frames (PipeWire's plugin
  /// without saying so, but its position moves), and its frames are placed anew from half a
  /// second after. The strokes in between are not heard, and metronome says for how long; no jump
  /// in what the microphone hears is taken for a stroke, the strokes after keep their place, and
  /// the output plays on without an underrun.
  func testACaptureDeviceThatOverrunsSaysHowLongTheHitsWentUnheardAndPlacesTheStrokesAfter() throws {
    let capture = try listen(micDelay: 0, route: .pipewire, holdAfterClick: 24, holding: .capture)
    XCTAssertTrue(
      capture?.errors.contains(" ms where the input lost frames (xruns): any played then were lost") == true
        && capture?.errors.contains("metronome: 0 underruns\n") == true,
      capture?.errors ?? "")
  }

  /// The same, with PipeWire itself (and WirePlumber) stopped for 50 ms as the 24th click is heard,
  /// as a machine that stalls stops it, on 1,024-frame cycles (PipeWire's default, as when another
  /// program asks for them).
  ///
  /// The server skips a cycle on waking: what the microphone heard in it is lost, and the capture
  /// device says nothing, but its position comes back one cycle (21.33 ms) later, where its
  /// readings otherwise agree to 0.03 ms. It is placed anew, and the hits went unheard until then,
  /// which metronome says. Before, it kept the old placement for up to a second: in every take that
  /// skipped a cycle (7 of 7, stopped for 30 or 50 ms) the strokes on clicks 24 to 26 were placed
  /// 1,024 frames early, and a hit was found where no stroke was played. A take where the server
  /// skipped nothing (none in 8 here; stopped for 30 ms, it skipped one at some phases of its cycle
  /// and not at others) is the harness's.
  func testASoundServerThatSkipsACycleWhileTheMachineStallsHasTheStrokesAfterPlacedAnew() throws {
    let capture = try listen(micDelay: 0, route: .pipewire, holdAfterClick: 24, holding: .server)
    XCTAssertTrue(capture?.errors.contains(" ms where the input lost frames (xruns)") == true, capture?.errors ?? "")
  }

  /// The same through JACK's `mic`, with metronome's process thread held for 50 ms.
  ///
  /// Held as the 24th click is heard, the server runs a cycle or more without metronome (xruns;
  /// one cycle of 1024 frames in every quiet take seen). Its next cycle plays what is due in it,
  /// so the clicks and the strokes after keep their grid; what reached `mic` in the cycles missed
  /// never reached metronome, which says for how long the hits went unheard: those cycles, and the
  /// 476 frames (10.8 ms at 44.1 kHz) after in which `mic` is heard anew, where the jump in its
  /// sound is taken for no stroke (in loaded takes it was, in 4 of 34); no click is taken for a
  /// stroke.
  func testCyclesTheJACKServerRanWithoutMetronomeAreSaidUnheardAndTheStrokesAfterKeepTheirPlace() throws {
    let capture = try listen(micDelay: 0, holdAfterClick: 24)
    let errors = capture?.errors ?? ""
    let unheard = errors.components(separatedBy: "the hits went unheard for ").dropFirst().first
      .flatMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
    let cycles = unheard.map { ($0 * 44.1 - 476) / 1_024 }
    XCTAssertTrue(
      errors.contains(" ms where the input lost frames (xruns)")
        && cycles.map { $0 >= 0.99 && abs($0 - $0.rounded()) < 5.0 / 1_024 } == true, errors)
  }

  /// `calibrate --loopback --listen-device` through a path 300 frames longer than the two ALSA
  /// devices report finds those frames within a millisecond; a run after it in which the
  /// microphone does not hear the click (headphones), so that only the calibration can place
  /// what it hears, with everything 300 frames late, still gives back each stroke's own offset,
  /// and its summary names the calibration by the day it was made.
  func testALoopbackCalibrationThroughALSAMeasuresWhatThePathAddsAndLaterOffsetsArePlayers() throws {
    try writeALSADevices()
    let player = try DrumPlayer(in: folder)
    typealias Capture = (status: Int32, errors: String, saved: String)
    let calibration = folder.appendingPathComponent(".config/metronome/calibration")
    let check = { (capture: Capture) -> [String] in
      let added = capture.errors.components(separatedBy: "the path adds ").dropFirst().first
        .flatMap { Int($0.prefix { $0.isNumber || $0 == "-" }) }
      return capture.status == 0 && capture.saved.contains("\nalsa-unreported-latency ")
        && added.map({ abs($0 - 300) <= 44 }) == true
        ? [] : ["status \(capture.status), saved \(capture.saved): \(capture.errors)"]
    }
    let measured = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Capture, [String]) in
      let server = try JACKDummyServer(sampleRate: 44_100)
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let drums = try player.start(
        [], clickPort: "", micPort: "", spacing: 0, seconds: 10, clickGain: 0.7, micDelay: 300,
        environment: environment)
      try server.waitForPorts { $0.contains("drum-mic:out") && $0.contains("drum-ear:in") }
      let metronome = try BackgroundRun(
        ["calibrate", "--loopback", "--rate", "44100", "--device", "metroear", "--listen-device", "metromic"],
        environment: environment)
      let printed = metronome.finish()
      drums.end()
      let saved = (try? String(contentsOf: calibration, encoding: .utf8)) ?? ""
      return ((metronome.process.terminationStatus, printed.errors, saved), server.brokenCycles())
    }
    guard let measured else { return }
    XCTAssertTrue(measured.errors.contains(" ms at 44100 Hz), back at -3.1 dB: the devices report "), measured.errors)
    // The calibration keeps the day it was made, which the run's summary names.
    let day = try XCTUnwrap(
      measured.saved.split(separator: "\n").first { $0.hasPrefix("alsa-unreported-latency ") }?
        .split(separator: " ").dropFirst(2).first, measured.saved)
    let calendarDay = DateFormatter()
    calendarDay.dateFormat = "yyyy-MM-dd"
    // Today where the test runs (or yesterday, just past midnight).
    XCTAssertTrue(
      [Date(), Date(timeIntervalSinceNow: -600)].map(calendarDay.string(from:)).contains(String(day)), measured.saved)
    let headphones = try listen(micDelay: 300, route: .alsa, clickGain: 0)
    XCTAssertTrue(
      headphones?.errors.contains(
        "; audio hits placed by the calibration of \(day) (the microphone did not hear the click)\n") == true,
      headphones?.errors ?? "")
  }

  /// Through ALSA's `default` on a headless PipeWire whose default source is a microphone that
  /// hears the speaker (a loopback of the sink): `calibrate --loopback --listen-device default`
  /// finds the path adds nothing the two devices do not report (within a millisecond), and a run
  /// after it hears its clicks and takes none of them for a hit.
  func testThroughPipeWireAMicrophoneHearingTheSpeakerIsMeasuredAndNoClickIsAHit() throws {
    let check = { (capture: (status: Int32, errors: String)) -> [String] in
      let added = capture.errors.components(separatedBy: "the path adds ").dropFirst().first
        .flatMap { Int($0.prefix { $0.isNumber || $0 == "-" }) }
      return capture.status == 0 && added.map({ abs($0) <= 48 }) == true
        && capture.errors.contains("metronome: listening: no hits scored")
        ? [] : ["status \(capture.status): \(capture.errors)"]
    }
    typealias Capture = (status: Int32, errors: String)
    let capture = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Capture, [String]) in
      let watch = StallWatch()
      let run = try BackgroundRun(
        [
          "pipewire", folder.appendingPathComponent("played.wav").path, "/bin/sh", "-c",
          "\"$0\" calibrate --loopback --listen-device default && \"$0\" 120 --listen --listen-device default"
            + " --headless --duration 6",
          MetronomeProcess.binary.path,
        ], executable: MetronomeProcess.repository.appendingPathComponent("scripts/desktop-audio"),
        environment: ["DESKTOP_AUDIO_MICROPHONE": "1"])
      let errors = run.finish().errors
      let stall = watch.stop()
      // PipeWire does not wait for a stalled client: a stream that moved is the harness's doing.
      let moved =
        errors.contains("during the measurement (the sound server lost or held some audio)") ? ["a stream moved"] : []
      return (
        (run.process.terminationStatus, errors),
        moved + stall.glitches(over: 0.015)
      )
    }
    XCTAssertTrue(capture?.errors.contains("at 48000 Hz), back at ") == true, capture?.errors ?? "")
  }

  /// A capture device that stops (ALSA's JACK plugin, its server gone) while the output plays on
  /// (PipeWire) ends the run with one line and status 1.
  func testACaptureDeviceThatStopsEndsTheRunWithOneLine() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = try BackgroundRun(
      [
        "pipewire", folder.appendingPathComponent("played.wav").path, "/bin/sh", "-c",
        "printf 'pcm.jackmic { type plug; slave.pcm { type jack; capture_ports { 0 \"system:capture_1\" } } }\\n'"
          + " >> \"$HOME/.asoundrc\" && exec \"$0\" 120 --listen --listen-device jackmic --headless --duration 30",
        MetronomeProcess.binary.path,
      ], executable: MetronomeProcess.repository.appendingPathComponent("scripts/desktop-audio"),
      environment: server.environment)
    try server.waitForPorts { $0.contains { $0.hasPrefix("metronome.C.") } }
    server.stop()
    let errors = run.finish().errors
    XCTAssertEqual(run.process.terminationStatus, 1, errors)
    XCTAssertEqual(errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.count, 1, errors)
    XCTAssertTrue(
      errors.contains(
        "Error: ALSA device 'jackmic' could not keep capturing (it has brought no audio for 2 s): is it still"
          + " connected, and its sound server (JACK, PulseAudio) still running? (listening stopped there)\n"), errors)
  }

  /// A capture device that does not take the run's rate, or none of that name: one line each, status
  /// 1, before anything plays.
  func testACaptureDeviceAtAnotherRateOrNoneIsOneLine() throws {
    try """
    pcm.metroear { type plug; slave.pcm { type jack; playback_ports { 0 "system:playback_1" } } }
    pcm.rawmic { type jack; capture_ports { 0 "system:capture_1" } }
    """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    let server = try JACKDummyServer(sampleRate: 44_100)
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
    for (device, said) in [
      (
        "rawmic",
        "could not capture at 48000 Hz (it offers 44100 Hz): use --rate 44100, or a 'plug:' device that converts"
      ),
      ("no-such-mic", "no ALSA capture device 'no-such-mic' (No such file or directory): try --listen-device NAME"),
    ] {
      let run = try BackgroundRun(
        ["100", "--device", "metroear", "--listen", "--listen-device", device, "--headless", "--duration", "5"],
        environment: environment)
      let errors = run.finish().errors
      XCTAssertEqual(run.process.terminationStatus, 1, errors)
      XCTAssertEqual(errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.count, 1, errors)
      XCTAssertTrue(errors.contains(said), errors)
    }
  }

  /// Names ALSA's JACK plugin, in the folder's `.asoundrc`, as a playback device that plays into
  /// the drummer's ear and a capture device that hears its microphone.
  private func writeALSADevices() throws {
    try """
    pcm.metroear {
      type plug
      slave.pcm { type jack; playback_ports { 0 "drum-ear:in" } }
    }
    pcm.metromic {
      type plug
      slave.pcm { type jack; capture_ports { 0 "drum-mic:out" } }
    }
    """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
  }

  /// What a take through PipeWire holds once the clicks it names are heard.
  private enum PipeWireHold {
    /// metronome's render thread, for 50 ms: the output runs dry once.
    case render
    /// metronome's capture thread, for 300 ms: longer than its device's buffer (8,192 frames,
    /// 171 ms), so that it overruns.
    case capture
    /// The sound server's processes, PipeWire and WirePlumber, stopped for 50 ms on cycles of
    /// 1,024 frames, as a machine that stalls holds them.
    case server
  }

  /// How metronome plays to the drummer and hears it.
  private enum Route {
    /// Its own JACK client: the drummer connects to `metronome:click` and `metronome:mic`.
    case jack
    /// ALSA devices named in the folder's `.asoundrc`, which connect to the drummer themselves.
    case alsa
    /// ALSA's `default` on a headless PipeWire at 48 kHz (`scripts/desktop-audio`), whose default
    /// source is a microphone beside the speaker; the drummer, a JACK client of PipeWire's, hears
    /// the sink and plays into that microphone, which brings back the clicks at their full level.
    case pipewire
  }

  /// A take of 18 beats played into `mic` with everything `micDelay` frames late and the clicks
  /// heard at `clickGain`, checked stroke by stroke (retaken when the harness glitches); what
  /// metronome said.
  ///
  /// Eighths at 100 BPM, from the fifth beat heard (the clicks alone before, as in a count-in,
  /// teach metronome how loud they come back): kick and snare on the beats, hats between, at four
  /// strengths (the softest at 0.3 of it), a third of the beats on the click and the other strokes
  /// up to 20 ms either way (seeded). Where the clicks come back louder from a click on, the
  /// strokes on it and the two after are not checked: they are followed from the fourth.
  ///
  /// With `holdAfterClick`, what `holding` names (through PipeWire) or the JACK client's process
  /// thread (for 50 ms) is held once that many clicks are heard; each audio hit is matched to the
  /// stroke on its click, and strokes not heard must be near the hold (or within the time
  /// metronome says the hits went unheard after it), and as many as metronome says it did not
  /// score where the output glitched (or fewer, where it says the hits went unheard).
  private func listen(
    micDelay: Int, route: Route = .jack, clickGain: DrumPlayer.ClickGain = 0.5, holdAfterClick: Int? = nil,
    holding: PipeWireHold = .render
  ) throws -> Said? {
    let rate = route == .pipewire ? 48_000 : 44_100
    // Frames between the clicks: eighths at 100 BPM.
    let spacing = rate * 3 / 10
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
    let followed = clickGain.louder.map { $0.from..<($0.from + 3) } ?? 0..<0
    let checked = take.strokes.map { !followed.contains(2 * $0.click + ($0.offset > spacing / 2 ? 1 : 0)) }
    let check = { (capture: Said) -> [String] in
      let misplaced =
        holdAfterClick.map {
          Self.strokesMisplaced(in: capture, near: $0, expected: expected, of: strokes, spacing: spacing, rate: rate)
        }
        ?? (capture.offsets.count == expected.count
          && zip(zip(capture.offsets, expected), checked).allSatisfy({ !$1 || abs($0.0 - $0.1) <= rate / 1_000 })
          ? [] : ["offsets \(capture.offsets), played \(expected)"])
      return capture.status == 0 && !capture.errors.hasPrefix("the player sent") && misplaced.isEmpty
        ? [] : ["status \(capture.status)"] + misplaced + [capture.errors]
    }
    let capture = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Said, [String]) in
      switch route {
      case .pipewire:
        try playThroughPipeWire(
          strokes, by: player, spacing: spacing, micDelay: micDelay, holdAfterClick: holdAfterClick,
          holding: holding)
      case .jack, .alsa:
        try playThroughJACK(
          strokes, by: player, throughALSA: route == .alsa, spacing: spacing, micDelay: micDelay, clickGain: clickGain,
          holdAfterClick: holdAfterClick)
      }
    }
    // Stroke by stroke only where every stroke was heard: one not scored would shift the rest.
    if let capture, capture.offsets.count == expected.count {
      print(
        "offsets against the strokes' starts, in frames at \(rate) Hz: \(zip(capture.offsets, expected).map { $0 - $1 })"
      )
    }
    return capture
  }

  /// One take of `listen` on a JACK dummy server of its own at 44.1 kHz, metronome its client or
  /// `throughALSA` ALSA's JACK plugin: what metronome said, with the audio hits' offsets, and the
  /// server's broken cycles (but for metronome's own, where `holdAfterClick` holds its process
  /// thread, with a stall of the whole machine and a hold let go late).
  private func playThroughJACK(
    _ strokes: [DrumTake.Stroke], by player: DrumPlayer, throughALSA: Bool, spacing: Int, micDelay: Int,
    clickGain: DrumPlayer.ClickGain, holdAfterClick: Int?
  ) throws -> (Said, [String]) {
    let holder = try holdAfterClick.map { _ in try HeldThread.holder(in: folder) }
    let server = try JACKDummyServer(sampleRate: 44_100)
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
    let arguments = ["100", "--subdivide", "2", "--rate", "44100", "--listen", "--headless", "--events", "ndjson"]
    let metronome: BackgroundRun
    let drums: BackgroundRun
    if throughALSA {
      // ALSA's plugin connects to the drummer's ports as it opens: the drummer comes first.
      drums = try player.start(
        strokes, clickPort: "", micPort: "", spacing: spacing, seconds: 19, clickGain: clickGain, micDelay: micDelay,
        environment: environment)
      try server.waitForPorts { $0.contains("drum-mic:out") && $0.contains("drum-ear:in") }
      metronome = try BackgroundRun(
        arguments + ["--device", "metroear", "--listen-device", "metromic", "--duration", "17"],
        environment: environment)
    } else {
      metronome = try BackgroundRun(
        arguments + ["--jack", "--connect", "system:playback_1", "--duration", "17"], environment: environment)
      try server.waitForPorts { $0.contains("metronome:mic") }
      drums = try player.start(
        strokes, clickPort: "metronome:click", micPort: "metronome:mic", spacing: spacing, seconds: 16,
        clickGain: clickGain, micDelay: micDelay, environment: environment)
    }
    guard let holdAfterClick, let holder else {
      let printed = metronome.finish()
      let played = DrumPlayer.played(String(decoding: drums.end().output, as: UTF8.self))
      return (said(by: metronome, printed, playing: strokes.count, to: played), server.brokenCycles())
    }
    let watch = StallWatch()
    let early = metronome.readOutput { $0.components(separatedBy: #""voice":"beats""#).count > holdAfterClick }
    let hold = try HeldThread(in: metronome.process.processIdentifier, where: HeldThread.runsJACKCycles)
      .hold(milliseconds: 50, with: holder)
    let rest = metronome.finish()
    let played = DrumPlayer.played(String(decoding: drums.end().output, as: UTF8.self))
    // The cycles the hold made the server run without metronome are the take's, and so are the
    // drummer's ear's, which hears metronome's click and so waits for it in the server's graph;
    // anyone else's late (the drummer's microphone's) is the harness's.
    let othersLate = server.brokenCycles().filter {
      $0.contains("XRun") && !$0.contains("client = metronome ") && !$0.contains("client = drum-ear ")
    }
    return (
      said(by: metronome, (Data(early.utf8) + rest.output, rest.errors), playing: strokes.count, to: played),
      othersLate + watch.stop().glitches(over: 0.015) + hold.overran
    )
  }

  /// What a take's metronome said (led by what the player missed, if it did), with its status and
  /// the offsets of the audio hits it printed.
  private func said(
    by metronome: BackgroundRun, _ printed: (output: Data, errors: String), playing strokes: Int,
    to played: DrumPlayer.Played
  ) -> Said {
    let hits = String(decoding: printed.output, as: UTF8.self).split(separator: "\n").compactMap {
      let line = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      guard line?["audio"] as? Bool == true, let offset = line?["offsetFrames"] as? Int,
        let click = line?["clickFrame"] as? Int
      else { return nil as (Int, Int)? }
      return (offset, click)
    }
    let errors =
      played.missed == 0 && played.sent.count == strokes
      ? printed.errors : "the player sent \(played.sent.count) and missed \(played.missed); \(printed.errors)"
    return Said(
      status: metronome.process.terminationStatus, errors: errors, offsets: hits.map(\.0), clickFrames: hits.map(\.1))
  }

  /// What a take's metronome said: its status and standard error, and each audio hit's offset
  /// from its click, with that click's frame.
  private struct Said {
    let status: Int32
    let errors: String
    let offsets: [Int]
    let clickFrames: [Int]
  }

  /// What is off in `said`: every audio hit must be the stroke on its click (of clicks `spacing`
  /// frames apart at `rate`) within a millisecond (at 48 kHz), and the strokes not heard each on
  /// one of the three clicks around `holdAfterClick` (or the clicks over the time metronome says
  /// the hits went unheard after it), no more than metronome says it did not score where the
  /// output glitched or near a click the glitch skipped; `expected` holds each stroke's offset
  /// from its click.
  private static func strokesMisplaced(
    in said: Said, near holdAfterClick: Int, expected: [Int], of strokes: [DrumTake.Stroke], spacing: Int, rate: Int
  ) -> [String] {
    // The click each stroke is on: its beat's, or the eighth after it for one played past half way,
    // counted as the run counts them from the first stroke's (the drummer counts from the first
    // click it hears).
    let counted = strokes.map { $0.click + ($0.offset > spacing / 2 ? 1 : 0) }
    let first = (said.clickFrames.first ?? 0) / spacing - (counted.first ?? 0)
    let clicks = counted.map { $0 + first }
    var unheard = Set(clicks.indices)
    var problems: [String] = []
    for (offset, clickFrame) in zip(said.offsets, said.clickFrames) {
      guard let stroke = clicks.firstIndex(of: clickFrame / spacing), unheard.remove(stroke) != nil else {
        problems.append("a hit \(offset) frames from click \(clickFrame / spacing), where no stroke was played")
        continue
      }
      if abs(offset - expected[stroke]) > 48 {
        problems.append(
          "the stroke on click \(clicks[stroke]) placed \(offset) frames from it, played \(expected[stroke])")
      }
    }
    // Said where the output glitched, and near a click a glitch skipped (no count-in here).
    let notScored = [" heard where the output glitched not scored", " not scored (count-in, a click a glitch skipped"]
      .map { words in
        said.errors.split(separator: ";").first { $0.contains(words) }.flatMap { Int($0.split(separator: " ")[0]) } ?? 0
      }.reduce(0, +)
    // What is said not scored where the output glitched may also be the late click's own attack
    // (a loaded run's take said 2 for one stroke), never taken for a stroke: two at most. Strokes
    // where the input lost frames never reached it, which it says in ms.
    let unheardClicks = said.errors.components(separatedBy: "the hits went unheard for ").dropFirst().first
      .flatMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
      .map { Int(($0 * Double(rate) / 1_000 / Double(spacing)).rounded(.up)) }
    let near = holdAfterClick - 1...holdAfterClick + 1 + (unheardClicks ?? 0)
    let inXruns = unheardClicks != nil
    if !((inXruns ? 0 : unheard.count)...unheard.count + 2).contains(notScored)
      || !unheard.allSatisfy({ near.contains(clicks[$0]) })
    {
      problems.append(
        "strokes not heard on clicks \(unheard.map { clicks[$0] }.sorted()), \(notScored) said not scored")
    }
    return problems
  }

  /// One take of `listen` through PipeWire: what metronome said, with the audio hits' offsets, and
  /// what went wrong in the harness (a machine that stalled, which PipeWire does not wait for, and
  /// a hold or a stop let go late).
  private func playThroughPipeWire(
    _ strokes: [DrumTake.Stroke], by player: DrumPlayer, spacing: Int, micDelay: Int, holdAfterClick: Int?,
    holding: PipeWireHold
  ) throws -> (Said, [String]) {
    let holder = try HeldThread.holder(in: folder)
    let playedFile = folder.appendingPathComponent("played.txt")
    let pidFile = folder.appendingPathComponent("metronome.pid")
    let script = """
      LD_LIBRARY_PATH="$DESKTOP_AUDIO_JACK" "$0" "" "" "$@" < "\(try player.plan(strokes).path)" > "\(playedFile.path)" 2>&1 &
      drummer=$!
      for _ in $(seq 200); do pw-link -o 2>/dev/null | grep -qx drum-mic:out && break; sleep 0.05; done
      pw-link metro-null:monitor_MONO drum-ear:in && pw-link drum-mic:out metro-mic-ear:input_MONO || exit 1
      "\(MetronomeProcess.binary.path)" 100 --subdivide 2 --listen --listen-device default --headless --events ndjson \\
        --duration 17 &
      echo $! > "\(pidFile.path)"
      wait $!
      status=$?
      kill "$drummer"
      wait "$drummer"
      exit $status
      """
    let watch = StallWatch()
    let run = try BackgroundRun(
      ["pipewire", folder.appendingPathComponent("heard.wav").path, "/bin/sh", "-c", script, player.binary.path]
        + player.arguments(spacing: spacing, seconds: 20, clickGain: 0, micDelay: micDelay),
      executable: MetronomeProcess.repository.appendingPathComponent("scripts/desktop-audio"),
      environment: ["DESKTOP_AUDIO_MICROPHONE": "1", "DESKTOP_AUDIO_QUANTUM": holding == .server ? "1024" : ""])
    // Held as the click is heard, the thread runs the buffer dry some 20 ms later and writes again
    // 50 ms later. The drummer plays on its own schedule from the first click it heard, so a click
    // the glitch skipped or delayed moves none of its strokes.
    let early = holdAfterClick.map { clicks in
      run.readOutput { $0.components(separatedBy: #""voice":"beats""#).count > clicks }
    }
    var trouble: [String] = []
    if early != nil, holding == .server {
      trouble = try stopTheServer(of: run, forMilliseconds: 50)
    } else if early != nil {
      let pid = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
      trouble = try HeldThread(in: try XCTUnwrap(Int32(pid))) { name, _ in
        name == (holding == .capture ? "capture" : "render")
      }
      .hold(milliseconds: holding == .capture ? 300 : 50, with: holder).overran
    }
    let rest = run.finish()
    let printed = (Data((early ?? "").utf8) + rest.output, rest.errors)
    let stall = watch.stop()
    // A stopped server that skipped no cycle gave the take nothing to check.
    if holding == .server, early != nil, !rest.errors.contains("the hits went unheard for ") {
      trouble.append("the stopped server skipped no cycle")
    }
    let played = DrumPlayer.played((try? String(contentsOf: playedFile, encoding: .utf8)) ?? "")
    return (
      said(by: run, printed, playing: strokes.count, to: played),
      stall.glitches(over: 0.015) + trouble
    )
  }

  /// Stops the sound server `scripts/desktop-audio` started for `run` (its PipeWire and
  /// WirePlumber) for `milliseconds`, and continues it; returns what went wrong in the harness: a
  /// stop that lasted more than 2 ms longer.
  private func stopTheServer(of run: BackgroundRun, forMilliseconds milliseconds: Int) throws -> [String] {
    let pgrep = try XCTUnwrap(ChildProcess.which("pgrep"), "pgrep is missing: run scripts/setup")
    let found = try ChildProcess.run(pgrep, ["-P", "\(run.process.processIdentifier)", "-x", "pipewire|wireplumber"])
    let server = found.standardOutput.split(separator: "\n").compactMap { pid_t($0) }
    XCTAssertEqual(server.count, 2, "PipeWire and WirePlumber not found: \(found.standardOutput)")
    let start = DispatchTime.now().uptimeNanoseconds
    for pid in server { kill(pid, SIGSTOP) }
    usleep(useconds_t(milliseconds * 1_000))
    for pid in server { kill(pid, SIGCONT) }
    let stopped = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    return stopped > milliseconds + 2 ? ["the server was stopped for \(stopped) ms, not \(milliseconds)"] : []
  }
}
