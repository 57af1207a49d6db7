import Foundation
import MetronomeTesting
import XCTest

/// Runs the built binary as a script would and pins what it prints.
final class CommandLineTests: FolderTestCase {
  func testVirtualRunAt120InThreeFourIsTheExactTimeline() throws {
    let run = try MetronomeProcess.run(["3/4", "120", "--virtual", "--bars", "2"])
    XCTAssertEqual(run.status, 0)
    XCTAssertEqual(
      run.standardOutput,
      """
      0.000000 bar 1 beat 1 accent
      0.500000 bar 1 beat 2 regular
      1.000000 bar 1 beat 3 regular
      1.500000 bar 2 beat 1 accent
      2.000000 bar 2 beat 2 regular
      2.500000 bar 2 beat 3 regular

      """)
  }

  /// 97.5 quarter notes per minute in 7/8: an eighth lasts 240 / (97.5 × 8) s = 14769.23… frames.
  func testVirtualRunAt97Point5InSevenEightIsTheExactTimeline() throws {
    let run = try MetronomeProcess.run(["7/8", "97.5", "--virtual", "--beats", "9", "--events", "ndjson"])
    XCTAssertEqual(run.status, 0)
    let beats = try run.standardOutput.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    XCTAssertEqual(
      beats.map { $0["frame"] as! Int },
      (0..<9).map { (beat: Int) in Int((Double(beat) * 48_000 * 240 / 780).rounded()) })
    XCTAssertEqual(beats.map { [$0["bar"] as! Int, $0["beat"] as! Int] }, (0..<9).map { [$0 / 7 + 1, $0 % 7 + 1] })
    XCTAssertEqual(beats.map { $0["accent"] as! Bool }, (0..<9).map { $0 % 7 == 0 })
    XCTAssertEqual(Set(beats.map { $0["meter"] as! String }), ["7/8"])
  }

  /// Raytronome's clamping scenario played by replayed keys: from 24/32, lowering the note value
  /// three times gives 16/16, 8/8 and 4/4, each from the next beat on.
  func testTwentyFourThirtyTwoStepsDownToFourFourByReplayedKeys() throws {
    let run = try MetronomeProcess.run(
      ["24/32", "60", "--virtual", "--duration", "5", "--events", "ndjson", "--keys", "-"],
      input: "1.0 {\n2.0 {\n3.0 {\n")
    XCTAssertEqual(run.status, 0, run.standardError)
    let meters = try run.standardOutput.split(separator: "\n").map {
      (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["meter"] as! String
    }
    var changes: [String] = []
    for meter in meters where changes.last != meter { changes.append(meter) }
    XCTAssertEqual(changes, ["24/32", "16/16", "8/8", "4/4"])
  }

  func testAQuitKeyEndsAVirtualRun() throws {
    let run = try MetronomeProcess.run(["--virtual", "--keys", "-"], input: "# stop after four beats\n1.9 q\n")
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(run.standardOutput.split(separator: "\n").count, 4)
  }

  func testBadInputIsRejectedBeforeAnythingStartsWithExitStatus64() throws {
    let cases: [([String], String)] = [
      (["0", "--virtual", "--beats", "1"], "Error: tempo 0 is out of range: use 1 to 1000 quarter notes per minute"),
      (["abc"], "Error: 'abc' is neither a meter (such as 7/8), a tempo (such as 120 or the trainer 80-120/10) nor an"),
      (["4/4", "X.x"], "Error: the pattern 'X.x' has 3 beats but a bar of 4/4 has 4: write one per beat"),
      (["Xxqx"], "Error: 'q' in the pattern 'Xxqx' is not a level: write X strong, x normal, o weak or . silent"),
      (
        ["--pattern", "Xx-x"],
        "Error: The value 'Xx-x' is invalid for '--pattern <pattern>': '-' in the pattern 'Xx-x' is not a level"
      ),
      (["7/8", "--group", "2+2+2"], "Error: the groups 2+2+2 add up to 6 beats but a bar of 7/8 has 7"),
      (
        ["7/8", "--group", "2+-2+3"],
        "Error: The value '2+-2+3' is invalid for '--group <groups>': '2+-2+3' is not a grouping: write the beats of"
          + " each group joined by +"
      ),
      (["--group", "compound"], "Error: --group compound groups 6/8, 9/8 or 12/8 in threes, not 4/4"),
      (["Xxxx", "--pattern", "Xxxx"], "Error: give one accent pattern: a word, --pattern or --group"),
      (
        ["--samples", "no-such.wav"],
        "Error: cannot read the sound 'no-such.wav': No such file or directory; give a WAV"
      ),
      (
        ["--samples", "/etc/hostname"],
        "Error: cannot read the sound '/etc/hostname': Format not recognised; give a WAV"
      ),
      (["--samples", "/dev/null"], "Error: cannot read the sound '/dev/null'"),
      (["--samples", "a,b,c,d,e,f,g"], "Error: --samples takes at most 6 files: strong, normal, weak, subdivision"),
      (
        ["--midi-clock", "--virtual", "--bars", "1"],
        "Error: --midi-clock sends the clock as the beats are heard: drop --virtual"
      ),
      (
        ["--link"],
        "Error: --connect, --client-name, --follow-transport, --timebase-master, --follow-midi-clock and --link"
      ),
      (
        ["--jack", "--link", "--follow-transport"],
        "Error: the JACK transport and --link would each place the beats: choose one"
      ),
      (
        ["--jack", "--follow-midi-clock", "--timebase-master"],
        "Error: the JACK transport and --follow-midi-clock would each place the beats: choose one"
      ),
      (
        ["--jack", "--midi-clock-from", "x:out"],
        "Error: --midi-clock-from connects the MIDI clock followed: add --follow"
      ),
      (
        ["--midi-connect", "20:0"],
        "Error: --midi-connect connects the MIDI clock and notes: add --midi-clock or --midi-notes"
      ),
      (
        ["--midi-notes", "--virtual", "--bars", "1"],
        "Error: --midi-notes sends the notes as the clicks are heard: drop --virtual"
      ),
      (["--midi-note-map", "34"], "Error: --midi-note-map sets the notes --midi-notes sends: add --midi-notes"),
      (
        ["--midi-notes", "--midi-note-map", "33,34/17"],
        "Error: The value '33,34/17' is invalid for '--midi-note-map': '34/17' has no channel from 1 to 16 (NOTE or"
          + " NOTE/CHANNEL, such as 34/10)"
      ),
      (["--jack", "--period", "512"], "Error: --jack plays through the JACK server, which sets the period"),
      (["--poly", "0"], "Error: --poly 0 is out of range: a second voice plays 1 to 64 clicks a bar, such as 3"),
      (["--subdivide", "0"], "Error: a subdivision of 0 clicks per beat is out of range: use 1 (none) to 9"),
      (["--subdivide", "100"], "Error: a subdivision of 100 clicks per beat is out of range: use 1 (none) to 9"),
      (["--swing", "20"], "Error: a swing of 20 % is out of range: use 50 (straight) to 75"),
      (["--swing", "100"], "Error: a swing of 100 % is out of range: use 50 (straight) to 75"),
      (
        ["--subdivide", "3", "--swing", "60"], "Error: swing delays every second click, so it needs an even subdivision"
      ),
      (["7/3"], "Error: meter denominator 3 is not one of 1, 2, 4, 8, 16, 32, 64"),
      (["0/4"], "Error: meter numerator 0 is too small: a bar has at least 1 beat"),
      (["65/4"], "Error: meter 65/4 has more than 64 beats per bar: write at most 64"),
      (["--bogus"], "Error: Unknown option '--bogus'"),
      (
        ["--virtual"],
        "Error: a --virtual run needs --beats, --bars, --duration, a map that ends or a 'q' in --keys to end"
      ),
      (["export", "--bars", "1", "-o", "x.wav", "--rate", "0"], "Error: sample rate 0 is not supported"),
      (["export", "--bars", "1", "-o", "x.wav", "--rate", "10000000"], "Error: sample rate 10000000 is not supported"),
      (["export", "-o", "x.wav"], "Error: an export needs --bars, --beats or --duration"),
    ]
    for (arguments, message) in cases {
      let run = try MetronomeProcess.run(arguments)
      XCTAssertEqual(run.status, 64, "\(arguments)")
      XCTAssertTrue(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
      XCTAssertEqual(run.standardOutput, "", "\(arguments)")
    }
  }

  /// A key script that cannot be read is one line naming the file and why, as for a tempo map:
  /// status 66 for a file that cannot be opened, 65 for one that is not text; nothing plays.
  func testAKeyScriptThatCannotBeReadIsOneLine() throws {
    let missing = folder.appendingPathComponent("missing.keys").path
    let folder = self.folder.path
    let binary = MetronomeProcess.binary.path
    let cases: [(String, Int32, String)] = [
      (missing, 66, "\(missing): error: cannot read the key script: No such file or directory"),
      (folder, 66, "\(folder): error: cannot read the key script: it is a directory"),
      ("/dev/zero", 66, "/dev/zero: error: cannot read the key script: it is not a regular file"),
      // Read as a file, /dev/null would be an empty script and the run would play.
      ("/dev/null", 66, "/dev/null: error: cannot read the key script: it is not a regular file"),
      (binary, 65, "\(binary): error: not a text file: a key script is plain text, one 'SECONDS KEY' per line"),
    ]
    for (keys, status, message) in cases {
      let run = try MetronomeProcess.run(["120", "--virtual", "--bars", "1", "--keys", keys])
      XCTAssertEqual(run.status, status, "\(keys): \(run.standardError)")
      XCTAssertEqual(run.standardError, message + "\n", keys)
      XCTAssertEqual(run.standardOutput, "", keys)
    }
  }

  /// Pause forgets the position: the next play starts a new bar 1, beat 1, at once.
  func testPauseForgetsThePositionAndPlayStartsANewBarAtOnce() throws {
    let run = try MetronomeProcess.run(
      ["4/4", "120", "--virtual", "--duration", "2.2", "--keys", "-"], input: "0.7 space\n1.6 space\n")
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(
      run.standardOutput,
      """
      0.000000 bar 1 beat 1 accent
      0.500000 bar 1 beat 2 regular
      1.600000 bar 1 beat 1 accent
      2.100000 bar 1 beat 2 regular

      """)
  }

  /// Numbers no frame count can hold are refused before anything starts, never a crash.
  func testLengthsAndKeyTimesPastTheLongestRunAreRefusedWithStatus64() throws {
    let cases: [([String], String?, String)] = [
      (
        ["--virtual", "--keys", "-", "4/4", "120"], "1e12 q\n",
        "Error: keys line 1: '1e12 q' comes after the longest run"
      ),
      (
        ["export", "-o", "x.wav", "--beats", "9223372036854775807", "4/4", "120"], nil,
        "Error: --beats 9223372036854775807 lasts longer than the longest run"
      ),
      (
        ["export", "-o", "x.wav", "--duration", "1e15", "4/4", "120"], nil,
        "Error: --duration 1000000000000000.0 lasts longer than the longest run"
      ),
      (["--virtual", "--bars", "9223372036854775807"], nil, "Error: --bars 9223372036854775807 lasts longer"),
      (
        ["export", "-o", "x.wav", "--duration", "50000"], nil,
        "Error: the export is longer than a WAV or AIFF file can hold"
      ),
      (["export", "-o", "x.aiff", "--duration", "50000"], nil, "Error: the export is longer than a WAV or AIFF file"),
      (["--virtual", "--beats", "1", "--", "-5.25"], nil, "Error: tempo -5.25 is out of range"),
    ]
    for (arguments, input, message) in cases {
      let run = try MetronomeProcess.run(arguments, input: input)
      XCTAssertEqual(run.status, 64, "\(arguments)")
      XCTAssertTrue(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
      XCTAssertEqual(run.standardOutput, "", "\(arguments)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: "x.wav"))
  }

  /// A long virtual run has nothing to clean up: Ctrl-C ends it at once, as it would any filter.
  func testCtrlCEndsALongVirtualRun() throws {
    let run = try BackgroundRun(["--virtual", "--beats", "100000000"])
    XCTAssertFalse(run.readFirstLine().isEmpty, "it printed nothing")
    run.process.interrupt()
    run.finish()

    XCTAssertEqual(run.process.terminationReason, .uncaughtSignal)
    XCTAssertEqual(run.process.terminationStatus, SIGINT)
  }

  /// Meters play as typed, with no cap to raise: 5/4, and 12/8 with its pattern.
  func testMetersPlayAsTyped() throws {
    let fiveFour = try MetronomeProcess.run(["5/4", "--virtual", "--bars", "1"])
    XCTAssertEqual(fiveFour.status, 0, fiveFour.standardError)
    XCTAssertEqual(fiveFour.standardOutput.split(separator: "\n").last, "2.000000 bar 1 beat 5 regular")
    let twelveEight = try MetronomeProcess.run(["12/8", "90", "X..x..X..x..", "--virtual", "--bars", "1"])
    XCTAssertEqual(twelveEight.status, 0, twelveEight.standardError)
    XCTAssertEqual(twelveEight.standardOutput.split(separator: "\n").last, "3.666667 bar 1 beat 12 silent")
  }

  func testExportWritesTheClickTrackAndReportsIt() throws {
    let file = folder.appendingPathComponent("click.wav")
    let run = try MetronomeProcess.run(["export", "7/8", "200", "--bars", "8", "--sound", "woodblock", "-o", file.path])
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(run.standardError, "metronome: wrote \(file.path): 403200 frames, 8.4 s\n")
    let wav = try WAVFile(contentsOf: file)
    XCTAssertEqual(wav.declaredDataBytes, 403_200 * 2)
    XCTAssertEqual(wav.declaredRIFFBytes, wav.fileBytes - 8)
    let onsets = Onset.detect(in: wav.samples, sampleRate: 48_000)
    XCTAssertEqual(onsets.map(\.frame), (0..<56).map { $0 * 7_200 })
  }

  func testAnUnwritableExportFailsWithOneLineAndLeavesNothing() throws {
    let file = folder.appendingPathComponent("missing/click.wav")
    let run = try MetronomeProcess.run(["export", "--bars", "1", "-o", file.path])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.standardError,
      "Error: cannot write '\(file.path)': No such file or directory; choose a writable path with --output\n")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  func testClosedStandardInputGivesAnEmptyKeyScript() throws {
    let run = try MetronomeProcess.run(["--virtual", "--beats", "2", "--keys", "-"])
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(run.standardOutput.split(separator: "\n").count, 2)
  }

  /// `--list-devices` lists what `devices` lists, before the rest of the command line is checked:
  /// a value out of range or one that does not read beside it is not an error, after `play` too.
  func testListDevicesIsHonouredBeforeTheRestIsChecked() throws {
    let devices = try MetronomeProcess.run(["devices"])
    XCTAssertEqual(devices.status, 0, devices.standardError)
    XCTAssertTrue(devices.standardOutput.contains("null\t"), devices.standardOutput)
    for extra in [
      [], ["--volume", "3"], ["7/9"], ["--big", "--plain"], ["--count-in", "x"], ["play", "--step", "5/x"],
    ] {
      let listed = try MetronomeProcess.run(
        extra.first == "play" ? extra + ["--list-devices"] : ["--list-devices"] + extra)
      XCTAssertEqual(listed.status, 0, "\(extra): \(listed.standardError)")
      XCTAssertEqual(listed.standardOutput, devices.standardOutput, "\(extra)")
      XCTAssertEqual(listed.standardError, "", "\(extra)")
    }
  }

  /// Every command's declarations pass the argument parser's own checks, in a debug build.
  ///
  /// The parser checks them (no name given twice, no flag that cannot be set, positionals that can
  /// be told apart) only in its debug build, and only for the commands a run reaches, so the other
  /// tests, which may run the shipped build, would not see a declaration that fails them: the help
  /// of `play` and of every other command the main help names is asked of a debug build, which
  /// stops there (klick's command line takes `-h`).
  func testTheArgumentParsersOwnChecksOfEveryCommandPassInADebugBuild() throws {
    let main = try ChildProcess.run(MetronomeProcess.debugBuild, ["--help"])
    XCTAssertEqual(main.status, 0, main.standardError)
    let others = try XCTUnwrap(
      main.standardOutput.split(separator: "\n").first { $0.hasPrefix("OTHER COMMANDS") }?
        .split(separator: ":").last?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
      main.standardOutput)
    XCTAssertTrue(others.contains("journal"), "\(others)")
    for command in ["play"] + others {
      let run = try ChildProcess.run(MetronomeProcess.debugBuild, [command, command == "klick" ? "-h" : "--help"])
      XCTAssertEqual(run.status, 0, "\(command): \(run.standardError)")
      XCTAssertFalse(run.standardOutput.isEmpty, command)
    }
  }
}

/// Live headless output is for scripts reading beats as they happen.
final class LiveHeadlessOutputTests: TimeLimitedTestCase {
  func testEachBeatLineArrivesWhileTheRunGoesOn() throws {
    let run = try BackgroundRun(["--silent", "--headless", "--beats", "3"])
    let first = run.readFirstLine()
    // Three beats at 120 last until 1.5 s: the first line must not wait for the end.
    XCTAssertTrue(run.process.isRunning, "the first line came only when the run ended")
    XCTAssertEqual(first, "0.000000 bar 1 beat 1 accent\n")
    run.finish()
    XCTAssertEqual(run.process.terminationStatus, 0)
  }

  /// `metronome --silent | head -1`: when the reader goes, the run ends with status 0 and a note.
  func testARunWithNoReaderLeftEndsAtOnce() throws {
    let run = try BackgroundRun(["--silent", "--headless"])
    XCTAssertFalse(run.readFirstLine().isEmpty)
    try run.stopReading()
    let message = run.finish().errors

    XCTAssertEqual(run.process.terminationStatus, 0, message)
    XCTAssertTrue(message.hasSuffix("metronome: standard output closed; stopped\n"), message)
  }
}
