import Foundation
import MetronomeTesting
import XCTest

/// klick's tempo maps and speed trainer, exported by klick and by metronome: the same length, the
/// same onsets within a frame (ramps and per-beat tempos included), the same silent beats; and a
/// map that cannot be read reported as a compiler reports an error.
final class TempoMapTests: FolderTestCase {
  /// The samples `metronome export ARGUMENTS` wrote.
  private func export(_ arguments: [String]) throws -> [Float] {
    let file = folder.appendingPathComponent("metronome.wav")
    let run = try MetronomeProcess.run(["export"] + arguments + ["-o", file.path])
    XCTAssertEqual(run.status, 0, run.standardError)
    return try WAVFile(contentsOf: file).samples
  }

  /// The samples `klick -W FILE -r 48000 ARGUMENTS` wrote. (Only options klick exports with: its
  /// `-c` and `-l` make an export that never ends, so a time limit guards every run.)
  private func klickExport(_ arguments: [String]) throws -> [Float] {
    let klick = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let file = folder.appendingPathComponent("klick.wav")
    let run = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["-s", "KILL", "60", klick.path, "-W", file.path, "-r", "48000"] + arguments)
    XCTAssertEqual(run.status, 0, run.standardError)
    return try WAVFile(contentsOf: file).samples
  }

  private func assertSameClicks(_ ours: [Float], _ theirs: [Float], _ what: String) {
    XCTAssertEqual(ours.count, theirs.count, "\(what): length")
    let mine = Onset.detect(in: ours, sampleRate: 48_000).map(\.frame)
    let klicks = Onset.detect(in: theirs, sampleRate: 48_000).map(\.frame)
    XCTAssertEqual(mine.count, klicks.count, "\(what): onsets")
    XCTAssertGreaterThan(mine.count, 0, what)
    let worst = zip(mine, klicks).map { abs($0 - $1) }.max() ?? 0
    XCTAssertLessThanOrEqual(worst, 1, "\(what): the farthest onset is \(worst) frames from klick's")
  }

  func testKlicksExampleMapGivesKlicksClicks() throws {
    let map = try write(klickExampleMap, to: "example.map")
    assertSameClicks(try export(["--map", map]), try klickExport(["-f", map]), "example map")
    assertSameClicks(
      try export(["--map", map, "--multiplier", "1.25"]), try klickExport(["-x", "1.25", "-f", map]), "example × 1.25")
  }

  func testPerBeatTemposRampsAndCompoundMetersGiveKlicksClicks() throws {
    let map = try write("a: 2 3/4 100,110,120,130,140,150\nb: 1 6/8 90 X..x..\n  2 97.5-133.3 Xx.x\n", to: "beats.map")
    assertSameClicks(try export(["--map", map]), try klickExport(["-f", map]), "per-beat map")
  }

  /// A section's volume scales its clicks: at 0.5 each beat peaks at half its level's peak.
  func testASectionsVolumeScalesItsClicks() throws {
    let map = try write("1 120\n1 120 0.5\n", to: "volume.map")
    let onsets = Onset.detect(in: try export(["--map", map]), sampleRate: 48_000)

    XCTAssertEqual(onsets.map(\.frame), (0..<8).map { $0 * 24_000 })
    for beat in 0..<4 { XCTAssertEqual(onsets[beat + 4].peak, onsets[beat].peak * 0.5, accuracy: 0.01) }
  }

  /// klick's trainer `80-120/1` for 50 bars: a ramp over 40 bars, then 120; and with a fractional
  /// rate, `80-90/0.22`, whose 2.2 bars klick rounds up to 3.
  func testKlicksSpeedTrainerGivesKlicksClicks() throws {
    assertSameClicks(try export(["80-120/1", "--bars", "50"]), try klickExport(["50", "80-120/1"]), "trainer")
    assertSameClicks(
      try export(["80-90/0.22", "--bars", "5"]), try klickExport(["5", "80-90/0.22"]), "fractional trainer")
  }

  /// The trainer plays the accent pattern however it is given: here by --pattern.
  func testTheTrainerPlaysThePatternGiven() throws {
    let run = try MetronomeProcess.run(["100-110/1", "--pattern", "X.x.", "--virtual", "--bars", "1"])

    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(
      run.standardOutput.split(separator: "\n").map { String($0.split(separator: " ")[5]) },
      ["accent", "silent", "regular", "silent"])
  }

  /// A gap of 3:1 in an export: bars 4 and 8 are silent, the clicks after them on the grid.
  func testAGapMutesItsBarsInAnExport() throws {
    let onsets = Onset.detect(in: try export(["120", "--gap", "3:1", "--bars", "8"]), sampleRate: 48_000)

    let heard = (0..<32).filter { ($0 / 4) % 4 != 3 }
    XCTAssertEqual(onsets.map(\.frame), heard.map { $0 * 24_000 })
  }

  /// A bar of count-in at 120, in a sound of its own, then the music from frame 96000.
  func testACountInPlaysInItsOwnSoundBeforeBarOne() throws {
    let onsets = Onset.detect(in: try export(["120", "--count-in", "1", "--bars", "1"]), sampleRate: 48_000)

    XCTAssertEqual(onsets.map(\.frame), (0..<8).map { $0 * 24_000 })
    XCTAssertNotEqual(onsets[0].peak, onsets[4].peak, accuracy: 0.01)
  }

  /// Each problem with a map is one line, `FILE:LINE:COLUMN: error: …`, and nothing starts:
  /// status 65 for what the file says, 66 for a file that cannot be read.
  func testAMapThatCannotBeReadIsOneCompilerStyleLine() throws {
    let broken = try write("intro: 8 120\nverse 4 120\n", to: "broken.map")
    let counts = try write("2 3/4 100,110\n", to: "counts.map")
    let binary = folder.appendingPathComponent("binary.map")
    try Data([0x38, 0x20, 0x31, 0x32, 0x30, 0x00, 0xFF, 0xFE]).write(to: binary)
    let empty = try write("# nothing here\n", to: "empty.map")
    let example = try write(klickExampleMap, to: "example.map")
    let cases: [([String], Int32, String)] = [
      (
        ["--map", broken, "--virtual"], 65,
        "\(broken):2:1: error: expected the number of bars, a whole number such as 8"
      ),
      (["--map", counts, "--virtual"], 65, "\(counts):1:7: error: 2 tempos for 2 bars of 3 beats: give one per beat"),
      (["--map", binary.path, "--virtual"], 65, "\(binary.path): error: not a text file"),
      (["--map", empty, "--virtual"], 65, "\(empty): error: no sections"),
      (
        ["--map", example, "-l", "coda", "--virtual"], 65,
        "\(example): error: no section is labelled 'coda'; its labels are intro, verse1, chorus1, bridge, verse2"
      ),
      (
        ["--map", folder.path + "/missing.map", "--virtual"], 66,
        "\(folder.path)/missing.map: error: cannot read the tempo map: No such file"
      ),
      (["--map", folder.path, "--virtual"], 66, "\(folder.path): error: cannot read the tempo map: it is a directory"),
      (["export", "--map", "-", "-o", folder.path + "/x.wav"], 65, "<stdin>:1:3: error: expected a tempo"),
    ]
    for (arguments, status, message) in cases {
      let run = try MetronomeProcess.run(arguments, input: "4 fast\n")
      XCTAssertEqual(run.status, status, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
      XCTAssertEqual(run.standardError.split(separator: "\n").count, 1, "\(arguments): \(run.standardError)")
      XCTAssertEqual(run.standardOutput, "", "\(arguments)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/x.wav"))
  }

  /// Options a map leaves no room for, and counts out of range, are bad input (status 64).
  func testOptionsThatDoNotGoWithAMapAreRefused() throws {
    let map = try write("2 120\n", to: "short.map")
    let cases: [([String], String)] = [
      (["--map", map, "7/8", "--virtual"], "Error: a map sets meter, tempo and pattern: drop '7/8'"),
      (
        ["--map", map, "--bars", "1", "--virtual"], "Error: a map plays to its end: drop --beats, --bars and --duration"
      ),
      (
        ["--count-in=-1", "--virtual", "--bars", "1"],
        "Error: The value '-1' is invalid for '--count-in <n>': count-in '-1' is neither bars (0 to 64"
      ),
      (
        ["--count-in", "0b", "--virtual", "--bars", "1"],
        "Error: The value '0b' is invalid for '--count-in <n>': count-in '0b' is neither bars"
      ),
      (["--multiplier", "0", "--virtual", "--bars", "1"], "Error: --multiplier must be from 0.1 to 10"),
      (["-l", "intro", "--virtual", "--bars", "1"], "Error: --start-label names a section of a map"),
      (["80-120/0", "--virtual", "--bars", "1"], "Error: '80-120/0': the bars per BPM after '/' must be more than 0"),
      (["export", "80-120/10", "-o", "x.wav"], "Error: an export needs --bars, --beats or --duration"),
      (["--map", "-", "--keys", "-", "--virtual"], "Error: --map - and --keys - both read standard input"),
      (
        ["--gap", "3:0", "--virtual", "--bars", "1"],
        "Error: The value '3:0' is invalid for '--gap <gap>': gap '3:0' is neither PLAY:MUTE bars (3:1"
      ),
      (["--seed", "1", "--virtual", "--bars", "1"], "Error: --seed draws random gaps"),
      (
        ["--loop-bars", "3-2", "--map", map, "--virtual"],
        "Error: The value '3-2' is invalid for '--loop-bars <bars>': '3-2' is not FIRST-LAST bars"
      ),
      (["--loop-bars", "2-5", "--map", map, "--virtual", "--bars", "1"], "Error: --loop-bars 2-5: the map has 2 bars"),
      (["--loop-bars", "2", "120", "--virtual", "--bars", "1"], "Error: --loop-bars loops bars of a map or a trainer"),
      (["export", "--loop-bars", "2", "--map", map, "-o", "x.wav"], "Error: --loop-bars loops until l releases it"),
      (["--setlist", "-", "--keys", "-", "--virtual"], "Error: --setlist - and --keys - both read standard input"),
      (["--setlist", "s", "--map", "m", "--virtual"], "Error: a setlist names its songs' maps"),
      (["--setlist", "s", "120", "--virtual"], "Error: a map sets meter, tempo and pattern: drop '120'"),
      (["100", "--step", "5/4", "--virtual", "--bars", "1"], "Error: a step trainer needs both --step and --to"),
      (
        ["100", "--step", "5/4", "--to", "90", "--virtual", "--bars", "1"],
        "Error: --step 5/4 does not lead from 100 BPM to 90 BPM in at most 10000 steps: step towards it, such as -5/4"
      ),
      (
        ["100", "--step", "5/0", "--to", "120", "--virtual", "--bars", "1"],
        "Error: The value '5/0' is invalid for '--step <step>': '5/0' is not STEP/BARS"
      ),
      (
        ["80-120/10", "--step", "5/4", "--to", "120", "--virtual", "--bars", "1"],
        "Error: give klick's trainer (80-120/10) or a step trainer (--step), not both"
      ),
    ]
    for (arguments, message) in cases {
      let run = try MetronomeProcess.run(arguments)
      XCTAssertEqual(run.status, 64, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
    }
  }

  /// Keys move through a map and loop a section, replayed on the audio clock: `n` at 0.9 s starts
  /// the next section on the next beat (frame 48000); `l` at 1.1 s loops it, and the run ends at the
  /// quit, the section repeated without a gap.
  func testKeysMoveThroughAMapAndLoopASection() throws {
    let map = try write("a: 2 2/4 120\nb: 1 3/4 60\nc: 1 120\n", to: "nav.map")
    let script = try write("0.9 n\n1.1 l\n6.9 q\n", to: "keys.txt")
    let run = try MetronomeProcess.run(["--map", map, "--virtual", "--keys", script, "--events", "ndjson"])

    XCTAssertEqual(run.status, 0, run.standardError)
    let beats = try run.standardOutput.split(separator: "\n").map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    XCTAssertEqual(beats.compactMap { $0["frame"] as? Int }, [0, 24_000] + (1...6).map { $0 * 48_000 })
    XCTAssertEqual(beats.compactMap { $0["section"] as? Int }, [0, 0, 1, 1, 1, 1, 1, 1])
  }

  /// FIXED: loops started in, or went back to, the section before.
  ///
  /// `--loop-bars` from a section's first bar started with the section before it, and `n` while a
  /// section looped went back to the start of the one it left. Bars 3-4 (section b) now loop from
  /// the start; and with a looping, `n` at 3.2 s moves on to b, which then loops.
  func testLoopsStartWhereAskedAndAJumpWhileLoopingMovesOn() throws {
    let map = try write("a: 2 2/4 120\nb: 2 2/4 120 Xx\nc: 1 3/4 120\n", to: "loops.map")
    let keys = try write("0.1 l\n3.2 n\n6.2 q\n", to: "keys.txt")
    let looped = try MetronomeProcess.run(
      ["--map", map, "--loop-bars", "3-4", "--virtual", "--keys", keys, "--events", "ndjson"])

    XCTAssertEqual(looped.status, 0, looped.standardError)
    let sections = try looped.standardOutput.split(separator: "\n").map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["section"] as? Int
    }
    XCTAssertEqual(sections.prefix(4), [1, 1, 1, 1])
    let jumped = try MetronomeProcess.run(["--map", map, "--virtual", "--keys", keys, "--events", "ndjson"])
    let after = try jumped.standardOutput.split(separator: "\n").map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    // Section a twice (4 beats, 2 s) while looping, then b from its first beat after n at 3.2 s.
    XCTAssertEqual(after.compactMap { $0["section"] as? Int }, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
  }

  /// A map read from standard input plays in virtual time, its count-in first, each line saying
  /// its beat: the exact timeline at once.
  func testAMapFromStandardInputPlaysItsExactTimeline() throws {
    let run = try MetronomeProcess.run(
      ["--map", "-", "--count-in", "0", "--virtual"], input: "intro: 1 2/4 120\n1 3/8 60 X.x\n")

    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(
      run.standardOutput,
      """
      0.000000 bar 0 beat 1 regular count-in
      0.500000 bar 0 beat 2 regular count-in
      1.000000 bar 1 beat 1 accent section 1 bar 1 tempo 120
      1.500000 bar 1 beat 2 regular section 1 bar 1 tempo 120
      2.000000 bar 2 beat 1 accent section 2 bar 1 tempo 60
      2.500000 bar 2 beat 2 silent section 2 bar 1 tempo 60
      3.000000 bar 2 beat 3 regular section 2 bar 1 tempo 60

      """)
  }
}
