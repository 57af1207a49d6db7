import Foundation
import MetronomeTesting

/// `scripts/drum-player.c`, built into a test's folder: a drummer with a microphone, two JACK
/// clients that hear metronome's clicks and play a `DrumTake`'s strokes, with the clicks as the
/// microphone hears them, into metronome's `mic` port.
struct DrumPlayer {
  /// What the player did: the playback latency it heard the clicks after, the frame each stroke
  /// it played starts on, and how many it missed.
  struct Played {
    let latency: Int
    let sent: [(click: Int, offset: Int, frame: Int)]
    let missed: Int
  }

  /// How loud the player brings the clicks back: at `gain`, and `louder` times as loud from a
  /// quarter spacing before the click numbered `from` on (a speaker turned up mid-take).
  struct ClickGain: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    let gain: Float
    var louder: (factor: Float, from: Int)?

    /// The clicks brought back at `value` all through.
    init(floatLiteral value: Float) { gain = value }

    /// The clicks brought back at `value` all through.
    init(integerLiteral value: Int) { gain = Float(value) }

    /// The clicks brought back at `gain`, `factor` times as loud from click `from` on.
    init(_ gain: Float, louder factor: Float, from click: Int) {
      self.gain = gain
      louder = (factor, click)
    }

    /// As the player reads it: `GAIN` or `GAIN*FACTOR@CLICK`.
    var description: String { louder.map { "\(gain)*\($0.factor)@\($0.from)" } ?? "\(gain)" }
  }

  /// The built player.
  let binary: URL

  /// Builds the player in `folder`.
  init(in folder: URL) throws { binary = try HitPlayer.build("drum-player", in: folder, libraries: ["-lsndfile"]) }

  /// Starts playing `strokes` against the clicks of `clickPort`, `spacing` frames apart, into
  /// `micPort` for `seconds` (or until `end()`), with the clicks mixed in at `clickGain` and
  /// everything `micDelay` frames late.
  func start(
    _ strokes: [DrumTake.Stroke], clickPort: String, micPort: String, spacing: Int, seconds: Int,
    clickGain: ClickGain = 0.5, micDelay: Int = 0, environment: [String: String]
  ) throws -> BackgroundRun {
    try BackgroundRun(
      ["-c", "exec \"$0\" \"$@\" < \"\(try plan(strokes).path)\"", binary.path, clickPort, micPort]
        + arguments(spacing: spacing, seconds: seconds, clickGain: clickGain, micDelay: micDelay),
      executable: URL(fileURLWithPath: "/bin/sh"), environment: environment)
  }

  /// `strokes` as the player reads them, in a file of their own beside it.
  func plan(_ strokes: [DrumTake.Stroke]) throws -> URL {
    let plan = binary.deletingLastPathComponent().appendingPathComponent("plan-\(UUID()).txt")
    try strokes.map(\.planLine).joined().write(to: plan, atomically: true, encoding: .utf8)
    return plan
  }

  /// The player's arguments after its two ports.
  func arguments(spacing: Int, seconds: Int, clickGain: ClickGain, micDelay: Int) -> [String] {
    ["\(spacing)", "\(seconds)", DrumTake.kitFolder.path, "\(clickGain)", "\(micDelay)"]
  }

  /// What a finished player printed.
  static func played(_ output: String) -> Played {
    var latency = -1
    var sent: [(Int, Int, Int)] = []
    var missed = -1
    for line in output.split(separator: "\n") {
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case "latency": latency = Int(words[1]) ?? -1
      case "sent": sent.append((Int(words[1]) ?? -1, Int(words[2]) ?? 0, Int(words[3]) ?? 0))
      case "missed": missed = Int(words[1]) ?? -1
      default: break
      }
    }
    return Played(latency: latency, sent: sent, missed: missed)
  }
}
