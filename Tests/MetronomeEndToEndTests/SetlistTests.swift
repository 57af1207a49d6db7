import Foundation
import MetronomeTesting
import XCTest

/// Setlists from the command line: songs played one after another, each counted in, exported
/// whole, moved between by keys on the display, and every problem one line saying where.
final class SetlistTests: FolderTestCase {
  /// A set of a map file (two sections, 2/4 at 120 and 60) and a map line (a bar of 3/4 at 120,
  /// counted in by two beats).
  private func twoSongs() throws -> String {
    try write("verse: 1 2/4 120\nchorus: 1 2/4 60\n", to: "songs/first.map")
    return try write("# the set\nFirst: songs/first.map\nSecond: 1 3/4 120 count-in=0\n", to: "set.txt")
  }

  /// Printed, the songs play through: each counted in (a bar unless it says otherwise) on the
  /// frame the one before ended, every line saying its song and section.
  func testASetlistPlaysItsSongsOneAfterAnotherEachCountedIn() throws {
    let run = try MetronomeProcess.run(["--setlist", try twoSongs(), "--virtual", "--events", "ndjson"])

    XCTAssertEqual(run.status, 0, run.standardError)
    let beats = try run.standardOutput.split(separator: "\n").map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    XCTAssertEqual(
      beats.compactMap { $0["frame"] as? Int },
      [0, 24_000, 48_000, 72_000, 96_000, 144_000, 192_000, 216_000, 240_000, 264_000, 288_000])
    XCTAssertEqual(beats.compactMap { $0["song"] as? Int }, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    XCTAssertEqual(beats.map { $0["countIn"] as? Bool ?? false }.filter { $0 }.count, 4)
    XCTAssertEqual(beats.compactMap { $0["section"] as? Int }, [0, 0, 1, 1, 0, 0, 0])
  }

  /// An export holds the whole set, each song counted in, to the frame.
  func testAnExportOfASetlistHoldsEverySong() throws {
    let file = folder.appendingPathComponent("set.wav")
    let run = try MetronomeProcess.run(["export", "--setlist", try twoSongs(), "-o", file.path])

    XCTAssertEqual(run.status, 0, run.standardError)
    let samples = try WAVFile(contentsOf: file).samples
    XCTAssertEqual(samples.count, 312_000)
    XCTAssertEqual(
      Onset.detect(in: samples, sampleRate: 48_000).map(\.frame),
      [0, 24_000, 48_000, 72_000, 96_000, 144_000, 192_000, 216_000, 240_000, 264_000, 288_000])
  }

  /// Each problem is one line saying where, and nothing plays: a song's missing map at its place
  /// in the setlist (status 66), a map's own error at its place in the map (65).
  func testASetlistThatCannotBeReadSaysWhereInOneLine() throws {
    let missing = try write("Opener: gone.map\n", to: "missing.txt")
    try write("4 120\n4 fast\n", to: "broken.map")
    let broken = try write("A: 120\nB: broken.map\n", to: "broken.txt")
    let directory = try write("A: songs\n", to: "directory.txt")
    try write("1 120\n", to: "songs/x.map")
    let endless = try write("A: 1 120\nB: 140 7/8\n", to: "endless.txt")
    let empty = try write("# no songs\n", to: "empty.txt")
    let cases: [([String], Int32, String)] = [
      (
        ["--setlist", missing, "--virtual"], 66,
        "\(missing):1:9: error: \(folder.path)/gone.map: cannot read the tempo map: No such file"
      ),
      (["--setlist", broken, "--virtual"], 65, "\(folder.path)/broken.map:2:3: error: expected a tempo"),
      (
        ["--setlist", directory, "--virtual"], 66,
        "\(directory):1:4: error: \(folder.path)/songs: cannot read the tempo map"
      ),
      (["--setlist", empty, "--virtual"], 65, "\(empty): error: no songs"),
      (
        ["--setlist", folder.path + "/none.txt", "--virtual"], 66,
        "\(folder.path)/none.txt: error: cannot read the setlist"
      ),
      (["--setlist", "-", "--virtual"], 65, "<stdin>:1:1: error: expected a title before ':'"),
      (
        ["export", "--setlist", endless, "-o", folder.path + "/x.wav"], 64,
        "Error: a song of the setlist plays until you move on"
      ),
      (["--setlist", endless, "--virtual"], 64, "Error: a --virtual run needs"),
    ]
    for (arguments, status, message) in cases {
      let run = try MetronomeProcess.run(arguments, input: ": 120\n")
      XCTAssertEqual(run.status, status, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.hasPrefix(message), "\(arguments): \(run.standardError)")
      XCTAssertEqual(run.standardOutput, "", "\(arguments)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/x.wav"))
  }

  /// On the display a setlist shows its song, section and what comes next; keys move between
  /// sections and songs and loop a section; a muted bar is counted, marked; a song's end stops on
  /// the next song until space counts it in; the terminal is left as it was.
  func testKeysMoveThroughASetlistOnTheDisplay() throws {
    try write("verse: 2 240\nchorus: 2 240 gap=1:1\n", to: "opener.map")
    let setlist = try write("Opener: opener.map\nBallad: 60 3/4 X..\n", to: "gig.txt")
    let session = try TmuxSession(
      command: "'\(MetronomeProcess.binary.path)' --silent --setlist '\(setlist)'", environment: ["NO_COLOR": "1"])

    var screen = try session.waitForScreen { $0.contains("count-in") }
    XCTAssertTrue(screen.contains("Opener (1/2)"), screen)
    screen = try session.waitForScreen { $0.contains("verse (1/2) · bar 1 of 2") }
    XCTAssertTrue(screen.contains("next: chorus 240 BPM 4/4 in 2 bars"), screen)

    try session.send("n")
    screen = try session.waitForScreen { $0.contains("chorus (2/2) · bar 2 of 2") }
    XCTAssertTrue(screen.contains("(gap)"), screen)
    XCTAssertTrue(screen.contains("-x-") || screen.contains("-X-"), screen)

    try session.send("l")
    screen = try session.waitForScreen { $0.contains("playing  loop") && $0.contains("next: chorus again (loop)") }
    XCTAssertTrue(screen.contains("Opener (1/2)"), screen)

    // Released, the song plays to its end and waits on the next one.
    try session.send("l")
    screen = try session.waitForScreen(seconds: 10) { $0.contains("Ballad (2/2)") && $0.contains("paused") }
    XCTAssertTrue(screen.contains("60 BPM  3/4"), screen)

    try session.send("Space")
    screen = try session.waitForScreen { $0.contains("playing  count-in") }
    XCTAssertTrue(screen.contains("Ballad (2/2)"), screen)

    try session.send("B")
    screen = try session.waitForScreen { $0.contains("Opener (1/2)") && $0.contains("count-in") }
    XCTAssertTrue(screen.contains("240 BPM"), screen)

    try session.send("q")
    let outcome = try XCTUnwrap(try session.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }
}
