import Foundation
import MetronomeTesting
import XCTest

/// The binary called as `klick`, through a link of that name, against Debian's klick: a script
/// that renders a click track with klick (as Nama does, `klick -f MAP -r RATE -W OUT.wav`) gets
/// the same file from either.
final class KlickCommandLineTests: FolderTestCase {
  /// The link, named klick, to the binary under test.
  private func link() throws -> URL {
    let link = folder.appendingPathComponent("klick")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: MetronomeProcess.binary)
    return link
  }

  /// What `program -W FILE ARGUMENTS` wrote, as samples.
  private func export(with program: URL, _ arguments: [String], to name: String) throws -> [Float] {
    let file = folder.appendingPathComponent(name)
    let run = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/timeout"), ["-s", "KILL", "60", program.path, "-W", file.path] + arguments,
      directory: folder)
    XCTAssertEqual(run.status, 0, "\(program.path) \(arguments): \(run.standardError)")
    return try WAVFile(contentsOf: file).samples
  }

  func testTheLinkExportsWhatKlickExportsForItsManualsMapAndATrainer() throws {
    let klick = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let link = try link()
    try write(klickExampleMap, to: "example.map")
    for arguments in [
      ["-f", "example.map", "-r", "44100"], ["-r", "44100", "8", "4/4", "80-120/1"], ["4", "7/8", "90", "X..x.x."],
    ] {
      let ours = try export(with: link, arguments, to: "ours.wav")
      let theirs = try export(with: klick, arguments, to: "theirs.wav")
      // The map's end falls a frame later than klick's at 44.1 kHz (not at 48 kHz): measured, left.
      XCTAssertLessThanOrEqual(abs(ours.count - theirs.count), 1, "\(arguments): length")
      let (mine, klicks) = (Onset.detect(in: ours, sampleRate: 44_100), Onset.detect(in: theirs, sampleRate: 44_100))
      XCTAssertEqual(mine.count, klicks.count, "\(arguments): onsets")
      XCTAssertGreaterThan(mine.count, 10, "\(arguments)")
      let worst = zip(mine, klicks).map { abs($0.frame - $1.frame) }.max() ?? 0
      XCTAssertLessThanOrEqual(worst, 1, "\(arguments): the farthest onset is \(worst) frames from klick's")
    }
  }

  /// klick's usage errors are one line and status 64; an option without a counterpart is one line
  /// and the rest goes on.
  func testKlicksErrorsAndTheOptionsWithoutACounterpart() throws {
    let link = try link()
    for (arguments, message) in [
      (["-Q", "120"], "Error: klick: invalid option -- 'Q'"),
      (["-x", "0", "120"], "Error: invalid argument to -x: tempo multiplier"),
      (["-o", "9000", "-i", "120"], "Error: can't enable OSC and terminal control at the same time, sorry"),
      (
        ["-W", "x.wav", "120"],
        "Error: need a tempo map to export to audio file: give -f FILE, or the number of bars before the meter"
      ),
      (["-n", "me"], "Error: no tempo specified"),
    ] {
      let run = try ChildProcess.run(link, arguments, directory: folder)
      XCTAssertEqual(run.status, 64, "\(arguments)")
      XCTAssertEqual(run.standardError.split(separator: "\n").first.map(String.init), message)
    }
    let file = folder.appendingPathComponent("delayed.wav")
    let run = try ChildProcess.run(link, ["-w", "2", "-d", "1", "-W", file.path, "2", "120"], directory: folder)
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(
      run.standardError,
      "metronome: klick's -w 2: the clicks' pitch cannot be changed; they play at their own\n"
        + "metronome: klick's -d 1: no start delay; it starts at once\n"
        + "metronome: wrote \(file.path): 192000 frames, 4 s\n")
    XCTAssertEqual(try ChildProcess.run(link, ["-V"]).standardOutput, "klick 0.12.2 (metronome 0.1.0)\n")
  }
}
