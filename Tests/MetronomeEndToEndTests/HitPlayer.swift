import Foundation
import XCTest

/// `scripts/hit-player.c`, built into a test's folder: a drummer of two JACK clients that hears
/// metronome's clicks and plays note-ons at chosen frames from them into its `hits` port.
struct HitPlayer {
  /// A note: for the click numbered `click` (0 the first heard), `offset` frames from when it is
  /// heard.
  struct Note {
    let click: Int
    let offset: Int
    let note: Int
    let velocity: Int
  }

  /// What the player did: the playback latency it heard the clicks after, each note it sent,
  /// and how many it missed.
  struct Played {
    let latency: Int
    let sent: [(click: Int, offset: Int)]
    let missed: Int
  }

  private let binary: URL

  /// Builds the player in `folder`.
  init(in folder: URL) throws { binary = try Self.build("hit-player", in: folder) }

  /// Builds `scripts/NAME.c` into `folder` with libjack and `libraries`; its path.
  static func build(_ name: String, in folder: URL, libraries: [String] = []) throws -> URL {
    let binary = folder.appendingPathComponent(name)
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/\(name).c")
    let compiler = try XCTUnwrap(ChildProcess.which("cc"), "unreachable: scripts/setup installs gcc")
    let built = try ChildProcess.run(
      compiler, ["-O2", "-o", binary.path, source.path, "-ljack", "-lpthread"] + libraries)
    guard built.status == 0 else { throw FixtureError("\(name) did not build: \(built.standardError)") }
    return binary
  }

  /// Starts playing `notes` against the clicks of `clickPort`, `spacing` frames apart, into
  /// `hitsPort`, for `seconds`.
  func start(
    _ notes: [Note], clickPort: String, hitsPort: String, spacing: Int, seconds: Int, environment: [String: String]
  ) throws -> (BackgroundRun, plan: URL) {
    let plan = binary.deletingLastPathComponent().appendingPathComponent("plan-\(UUID()).txt")
    try notes.map { "\($0.click) \($0.offset) \($0.note) \($0.velocity)\n" }.joined()
      .write(to: plan, atomically: true, encoding: .utf8)
    let shell = URL(fileURLWithPath: "/bin/sh")
    let run = try BackgroundRun(
      ["-c", "exec \"$0\" \"$@\" < \"\(plan.path)\"", binary.path, clickPort, hitsPort, "\(spacing)", "\(seconds)"],
      executable: shell, environment: environment)
    return (run, plan)
  }

  /// The `offsetFrames` of each hit metronome scored, from the ndjson lines it `printed`.
  static func scoredOffsets(in printed: String) -> [Int] {
    printed.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["offsetFrames"] as? Int
    }
  }

  /// What a finished player printed.
  static func played(_ output: String) -> Played {
    var latency = -1
    var sent: [(Int, Int)] = []
    var missed = -1
    for line in output.split(separator: "\n") {
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case "latency": latency = Int(words[1]) ?? -1
      case "sent": sent.append((Int(words[1]) ?? -1, Int(words[2]) ?? 0))
      case "missed": missed = Int(words[1]) ?? -1
      default: break
      }
    }
    return Played(latency: latency, sent: sent, missed: missed)
  }
}
