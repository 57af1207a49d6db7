import Foundation
import MetronomeTesting
import XCTest

/// Plays as a JACK client of its own (`--jack`), with the transport, MIDI clock in and out,
/// into a JACK dummy server, and finds the clicks in what was captured.
final class JACKClientTests: LivePlaybackTestCase {
  /// As a JACK client of its own (no ALSA, no render thread: the server's cycles render), with a
  /// tempo key: every click within one frame of its frame, no xrun.
  func testANativeJACKClientPlaysOnTheExactGrid() throws {
    guard
      let take = try take(
        ["137", "--duration", "5"], output: ["--jack", "--client-name", "metro-test", "--connect", "jackrec:input1"],
        keys: "2.5 up\n", recordSeconds: 8,
        // An xrun of the server is counted as an underrun: retaken when the harness glitched.
        checkCapture: {
          Self.heardOnTheirFrames($0)
            + ($0.run.standardError.contains("metronome: 0 underruns") ? [] : [$0.run.standardError])
        })
    else { return }

    XCTAssertEqual(take.run.status, 0, take.run.standardError)
    let tempos = take.printed.compactMap { $0["tempo"] as? Double }
    XCTAssertEqual(Set(tempos), [137, 147])
    XCTAssertGreaterThanOrEqual(tempos.count, 11)
  }

  /// The spoken count live, as a JACK client: every word's attack within one frame of its beat's
  /// frame, counted from the first word's, no xrun.
  func testTheSpokenCountIsOnTheExactGridLive() throws {
    let capture = folder.appendingPathComponent("capture.wav")
    guard
      let take = try take(
        ["120", "--bars", "2", "--voice"],
        output: ["--jack", "--client-name", "metro-test", "--connect", "jackrec:input1"],
        recordSeconds: 9,
        checkCapture: { take in
          guard let samples = try? WAVFile(contentsOf: capture).samples else { return ["no capture"] }
          let frames = take.printed.compactMap { $0["frame"] as? Int }
          guard frames.count == 8, let start = samples.firstIndex(where: { $0 != 0 }),
            let first = SpokenCountTests.attack(in: samples[start..<min(start + 24_000, samples.count)])
          else { return ["\(frames.count) beats printed, or nothing heard"] }
          let anchor = start + first
          return frames.compactMap { frame in
            let from = anchor + frame - 100
            guard from + 24_000 <= samples.count,
              let attack = SpokenCountTests.attack(in: samples[from..<(from + 24_000)])
            else { return "beat at \(frame): not captured" }
            return abs(attack - 100) > 1 ? "beat at \(frame): its word's attack \(attack - 100) frames off" : nil
          } + (take.run.standardError.contains("metronome: 0 underruns") ? [] : [take.run.standardError])
        })
    else { return }
    XCTAssertEqual(take.run.status, 0, take.run.standardError)
  }

  /// The client's process thread held for 50 ms: each cycle it missed, which the server logs as
  /// `JackEngine::XRun`, metronome counts as an underrun.
  func testTheServersXrunsCountAsUnderruns() throws {
    let holder = try HeldThread.holder(in: folder)
    let server = try JACKDummyServer()
    defer { server.stop() }
    let run = try BackgroundRun(
      ["120", "--jack", "--duration", "3", "--headless"],
      environment: server.environment.merging(["HOME": folder.path]) { $1 })
    try HeldThread(in: run.process.processIdentifier, where: HeldThread.runsJACKCycles)
      .hold(milliseconds: 50, with: holder)
    let message = run.finish().errors
    XCTAssertEqual(run.process.terminationStatus, 0, message)
    let xruns = server.brokenCycles().filter { $0.contains("XRun") }
    XCTAssertGreaterThanOrEqual(xruns.count, 1, "holding the thread broke no cycle")
    XCTAssertEqual(Self.underruns(in: message), xruns.count, message + xruns.joined(separator: "\n"))
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
  ///
  /// A take in which the server's cycles broke (klick or the recorder missing one loses its
  /// clicks there) is taken again.
  func testFollowingAJACKTransportClicksWithItsMaster() throws {
    let klick = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let check = { (take: (transport: Int32, status: Int32, ours: [Int], klicks: [Int], printed: [[String: Any]])) in
      var problems: [String] = []
      if take.transport != 0 { problems.append("jack_transport ended with \(take.transport)") }
      if take.status != 0 { problems.append("metronome ended with \(take.status)") }
      let worst = zip(take.ours, take.klicks).map { abs($0 - $1) }.max() ?? 0
      if take.ours.count < 8 || take.ours.count != take.klicks.count || worst > 1 {
        problems.append("ours \(take.ours), klick's \(take.klicks)")
      }
      let places = take.printed.compactMap { beat in (beat["bar"] as? Int).map { "\($0).\(beat["beat"] as? Int ?? 0)" }
      }
      if places.first != "1.1" || !places.contains("6.1") { problems.append("bars and beats \(places)") }
      if !take.printed.allSatisfy({ $0["sync"] as? String == "jack" && $0["tempo"] as? Int == 150 }) {
        problems.append("not all beats at 150 from JACK: \(take.printed)")
      }
      return problems
    }
    _ = try retakenWhileTheHarnessGlitches(check: check) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let capture = folder.appendingPathComponent("transport.wav")
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
      // 384000 frames at 150 BPM are 20 beats: bar 6, beat 1. The relocation and the stop come
      // 2.2 s apart, between beats (0.4 s each): one landing on a beat's frame made the two
      // disagree about that beat, once in four takes beside busy cores (which is right at such
      // a cycle is its own question).
      let transport = try ChildProcess.run(
        URL(fileURLWithPath: "/bin/sh"),
        [
          "-c",
          "{ printf 'locate 0\\nplay\\n'; sleep 2.2; printf 'locate 384000\\n'; sleep 2.2; printf 'stop\\nquit\\n'; } | timeout -k 1 10 jack_transport",
        ],
        environment: environment)
      let printed = try Self.beats(printedBy: run)
      let harnessTrouble = recorder.finishTake()
      master.process.terminate()
      _ = master.finish()
      let ours = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000)
      let klicks = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000)
      return (
        (transport.status, run.process.terminationStatus, ours.map(\.frame), klicks.map(\.frame), printed),
        harnessTrouble
      )
    }
  }

  /// As the timebase master, in 3/4 at 150, started by jack_transport: the bar, beat and tick
  /// jack_showtime reads back at each transport frame are the metronome's beats counted from frame
  /// 0 (19200 frames each), and its clicks, heard on that grid, accent every third.
  func testAsTimebaseMasterItPublishesItsBarsAndBeats() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    // Bar, beat and tick of the metronome's beats (19 200 frames each) at a transport frame.
    func position(atFrame frame: Int) -> [Int] {
      let beats = Double(frame) / 19_200
      let index = Int(beats)
      return [index / 3 + 1, index % 3 + 1, Int((beats - Double(index)) * 1_920)]
    }
    let check = { (take: (showtime: String, status: Int32, onsets: [Onset], printed: [[String: Any]])) in
      var problems: [String] = []
      // "frame = 48128  frame_time = … state: Rolling	BBT:   1|3|0985"
      let readings = take.showtime.split(separator: "\n").filter { $0.contains("Rolling") }.compactMap {
        line -> (frame: Int, bbt: [Int])? in
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let frame = words.count > 2 ? Int(words[2]) : nil, let bbt = words.last else { return nil }
        return (frame, bbt.split(separator: "|").compactMap { Int($0) })
      }
      if readings.count <= 10 { problems.append("\(readings.count) readings: \(take.showtime)") }
      // A server in asynchronous mode (the default) may hand jack_showtime the frame of a cycle
      // with the master's position of the cycle before: one period behind, never more.
      let period = JACKDummyServer.defaultPeriodFrames
      for reading in readings
      where ![position(atFrame: reading.frame), position(atFrame: reading.frame - period)].contains(reading.bbt) {
        problems.append("at transport frame \(reading.frame): \(reading.bbt), not \(position(atFrame: reading.frame))")
      }
      let frames = take.onsets.map(\.frame)
      if frames.count < 8 || !zip(frames, frames.dropFirst()).allSatisfy({ abs($1 - $0 - 19_200) <= 1 }) {
        problems.append("clicks heard at \(frames)")
      }
      let places = take.printed.compactMap { beat in (beat["bar"] as? Int).map { "\($0).\(beat["beat"] as? Int ?? 0)" }
      }
      if Array(places.prefix(4)) != ["1.1", "1.2", "1.3", "2.1"]
        || take.onsets.prefix(places.count).map({ $0.peak > 0.8 }) != places.map({ $0.hasSuffix(".1") })
      {
        problems.append("beats \(places), accents heard \(take.onsets.map { $0.peak > 0.8 })")
      }
      if take.status != 0 { problems.append("metronome ended with \(take.status)") }
      return problems
    }
    _ = try retakenWhileTheHarnessGlitches(check: check) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let capture = folder.appendingPathComponent("master.wav")
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
          "{ printf 'locate 0\\nplay\\n'; sleep 3; printf 'stop\\nquit\\n'; } | timeout -k 1 10 jack_transport & sleep 1; timeout -k 1 1 stdbuf -oL jack_showtime; wait",
        ],
        environment: environment)
      let printed = try Self.beats(printedBy: run)
      let harnessTrouble = recorder.finishTake()
      let onsets = Onset.detect(in: try WAVFile(contentsOf: capture).samples, sampleRate: 48_000)
      return (
        (transport.standardOutput, run.process.terminationStatus, onsets, printed),
        harnessTrouble
      )
    }
  }

  /// MIDI clock on the native client's MIDI port, read by jack_midi_dump: at 120, a bar of
  /// count-in clocked, then Song Position 0 and Start on bar one, 24 ticks a quarter exactly 1000
  /// frames apart throughout, and Stop when a key pauses it.
  func testMIDIClockTicksOnItsExactFrames() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let dump = try XCTUnwrap(ChildProcess.which("jack_midi_dump"))
    let script = folder.appendingPathComponent("pause.txt")
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
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      // The monitor listens until metronome has ended: one that ended on a timer, 8 s after it
      // started, was gone before a loaded run's metronome had connected to it. `timeout` only
      // bounds a take that hangs.
      let monitor = try BackgroundRun(
        ["-k", "2", "-s", "INT", "60", dump.path, "-a"], executable: timeout, environment: environment)
      try server.waitForPorts { $0.contains("midi-monitor:input") }
      let run = try MetronomeProcess.run(
        [
          "120", "--jack", "--connect", "none", "--midi-clock", "--midi-connect", "midi-monitor:input", "--count-in",
          "1", "--keys", script.path, "--duration", "4.5", "--headless", "--events", "none",
        ], environment: environment)
      let events = Self.midiEvents(dumped: monitor.interrupt().output)
      return ((run, events), server.brokenCycles())
    }
  }

  /// Each click as a MIDI note (`--midi-notes`) on the native client's MIDI port, read by
  /// jack_midi_dump and played by FluidSynth with a General MIDI sound font, as a drum machine
  /// would play it: at 120 with a bar of count-in, every note on exactly 24000 frames after the
  /// one before, the count-in's four at velocity 102, then the bell (34) at 127 on each bar's
  /// first beat and the click (33) at 76 on the others, channel 10, each released 4800 frames
  /// later; and FluidSynth's sound of each within one JACK period of the
  /// metronome's own click, recorded beside it.
  func testMIDINotesOnTheirExactFramesPlayedByFluidSynth() throws {
    let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
    let dump = try XCTUnwrap(ChildProcess.which("jack_midi_dump"))
    let fluidsynth = try XCTUnwrap(ChildProcess.which("fluidsynth"), "fluidsynth is missing: run scripts/setup")
    typealias Capture = (run: ProcessResult, events: [(frame: Int, bytes: String)], clicks: [Int], played: [Int])
    let check = { (capture: Capture) -> [String] in
      var problems: [String] = []
      if capture.run.status != 0 { problems.append("status \(capture.run.status): \(capture.run.standardError)") }
      let ons = capture.events.filter { $0.bytes.hasPrefix("99") }
      let expected = Array(repeating: "99 21 66", count: 4) + ["99 22 7f", "99 21 4c", "99 21 4c", "99 21 4c"]
      if ons.map(\.bytes) != expected { problems.append("notes \(ons.map(\.bytes)), not \(expected)") }
      if !zip(ons, ons.dropFirst()).allSatisfy({ $1.frame - $0.frame == 24_000 }) {
        problems.append("notes not 24000 frames apart: \(ons.map(\.frame))")
      }
      let offs = capture.events.filter { $0.bytes.hasPrefix("89") }
      if offs.map(\.frame) != ons.map({ $0.frame + 4_800 }) || !offs.allSatisfy({ $0.bytes.hasSuffix(" 00") }) {
        problems.append("releases \(offs), not 4800 frames after each note")
      }
      if capture.clicks.count != 8 || capture.played.count != capture.clicks.count
        || zip(capture.clicks, capture.played).contains(where: { abs($1 - $0) > JACKDummyServer.defaultPeriodFrames })
      {
        problems.append("clicks at \(capture.clicks), FluidSynth's notes at \(capture.played)")
      }
      return problems
    }
    _ = try retakenWhileTheHarnessGlitches(check: check) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let capture = folder.appendingPathComponent("notes.wav")
      let monitor = try BackgroundRun(
        ["-k", "2", "-s", "INT", "60", dump.path, "-a"], executable: timeout, environment: environment)
      // FluidSynth plays while its shell reads standard input: until the test closes it.
      let synth = Process()
      let shell = Pipe()
      synth.executableURL = timeout
      synth.arguments = [
        "-k", "2", "20", fluidsynth.path, "-a", "jack", "-m", "jack", "-o", "audio.jack.id=fluid", "-o",
        "midi.jack.id=fluid", "-r", "48000", "-g", "1", "/usr/share/sounds/sf2/default-GM.sf2",
      ]
      synth.environment = ChildProcess.environment(adding: environment)
      (synth.standardInput, synth.standardOutput, synth.standardError) = (
        shell, FileHandle.nullDevice, FileHandle.nullDevice
      )
      try synth.run()
      defer {
        try? shell.fileHandleForWriting.close()
        synth.waitUntilExit()
      }
      try server.waitForPorts { Set(["midi-monitor:input", "fluid:midi_00", "fluid:left"]).isSubset(of: $0) }
      let recorder = try JACKRecorder(server: server, seconds: 6, file: capture, channels: 2)
      _ = try ChildProcess.run(
        try XCTUnwrap(ChildProcess.which("jack_connect")), ["fluid:left", "jackrec:input2"], environment: environment)
      let run = try MetronomeProcess.run(
        [
          "120", "--jack", "--connect", "jackrec:input1", "--midi-notes", "--midi-connect",
          "midi-monitor:input,fluid:midi_00", "--count-in", "1", "--duration", "4", "--headless", "--events", "none",
        ], environment: environment)
      let harnessTrouble = recorder.finishTake()
      let events = Self.midiEvents(dumped: monitor.interrupt().output)
      let clicks = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000)
      let played = Onset.detect(
        in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000, quietFrames: 12_000)
      return ((run, events, clicks.map(\.frame), played.map(\.frame)), harnessTrouble)
    }
  }

  /// The messages `jack_midi_dump -a` printed: each one's frame and its bytes in hex, as in
  /// `"  99072: 99 21 66 note on  (channel  9): pitch  33, velocity 102"` or `"195072: fa"`.
  private static func midiEvents(dumped output: Data) -> [(frame: Int, bytes: String)] {
    var events: [(frame: Int, bytes: String)] = []
    for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, let frame = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { continue }
      let words = parts[1].split(separator: " ").map(String.init)
      events.append((frame, words.prefix { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }.joined(separator: " ")))
    }
    return events
  }

  /// The display says where the MIDI clock goes out, and the clock's port is there to connect to.
  func testTheDisplayNamesTheMIDIClocksPort() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
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
    let check = {
      (take: (sender: ProcessResult, status: Int32, followed: [Int], sent: [Int], printed: [[String: Any]])) in
      var problems: [String] = []
      if take.sender.status != 0 {
        problems.append("the sender ended with \(take.sender.status): \(take.sender.standardError)")
      }
      if take.status != 0 { problems.append("the follower ended with \(take.status)") }
      // The sender's first four clicks count in, unclocked as music.
      let music = Array(take.sent.dropFirst(4))
      if take.followed.count < 6 || take.followed != Array(music.prefix(take.followed.count))
        || take.followed.count < music.count - 1
      {
        problems.append("sent \(take.sent), followed \(take.followed)")
      }
      if !take.printed.allSatisfy({ $0["sync"] as? String == "midi" && $0["tempo"] as? Int == 137 })
        || take.printed.first?["bar"] as? Int != 1
      {
        problems.append("printed \(take.printed)")
      }
      return problems
    }
    _ = try retakenWhileTheHarnessGlitches(check: check) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let capture = folder.appendingPathComponent("midi.wav")
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
      let printed = try Self.beats(printedBy: follower)
      let harnessTrouble = recorder.finishTake()
      let followed = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000)
      let sent = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000)
      return (
        (sender, follower.process.terminationStatus, followed.map(\.frame), sent.map(\.frame), printed),
        harnessTrouble
      )
    }
  }

  /// Without a JACK server, or at another rate than the server's, --jack is one line and status 1.
  func testANativeClientWithoutAServerOrAtAnotherRateIsOneLine() throws {
    let none = try MetronomeProcess.run(
      ["--jack", "--beats", "1", "--headless"],
      environment: ["HOME": folder.path])
    XCTAssertEqual(none.status, 1)
    XCTAssertTrue(none.standardError.hasPrefix("Error: no JACK server to join"), none.standardError)
    XCTAssertEqual(none.standardError.split(separator: "\n").count, 1, none.standardError)

    let server = try JACKDummyServer()
    defer { server.stop() }
    let other = try MetronomeProcess.run(
      ["--jack", "--rate", "44100", "--beats", "1", "--headless"],
      environment: server.environment.merging(["HOME": folder.path]) { $1 })
    XCTAssertEqual(other.status, 1)
    XCTAssertEqual(
      other.standardError, "Error: the JACK server runs at 48000 Hz: give --rate 48000, or start it at 44100\n")
  }

  /// The beats a run printed as ndjson, one object each.
  private static func beats(printedBy run: BackgroundRun) throws -> [[String: Any]] {
    try run.finish().output.split(separator: UInt8(ascii: "\n")).map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
  }
}
