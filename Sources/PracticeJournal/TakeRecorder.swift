import MetronomeCore
import PracticeListening

/// A take as it plays: the beats heard gathered into its meters and tempos, made a `Take` when the
/// run ends.
public struct TakeRecorder: Sendable {
  private let started: WallTime
  private let tag: String?
  private let programme: String
  private var meters: [String] = []
  private var tempos: Take.Tempos?
  private var beats = 0

  /// A take started at `started`, tagged `tag`, playing `programme`.
  public init(started: WallTime, tag: String?, programme: String) {
    self.started = started
    self.tag = tag
    self.programme = programme
  }

  /// Takes `beat` as heard: a beat of the bar (not a subdivision's click, the second voice's or the
  /// count-in's) counts, with its meter and tempo.
  public mutating func heard(_ beat: Beat) {
    guard beat.isBarBeat, !beat.isCountIn else { return }
    beats += 1
    let signature = beat.meter.signature
    if !meters.contains(signature) { meters.append(signature) }
    let bpm = beat.tempo.bpm
    if var known = tempos {
      (known.last, known.lowest, known.highest) = (bpm, min(known.lowest, bpm), max(known.highest, bpm))
      tempos = known
    } else {
      tempos = Take.Tempos(first: bpm, last: bpm, lowest: bpm, highest: bpm)
    }
  }

  /// The take, `seconds` long, ended as `ending` says with `status`; with `scorer`'s hits where
  /// the run listened.
  public func take(seconds: Double, ending: String, status: Int32, scorer: HitScorer?) -> Take {
    Take(
      started: started, seconds: seconds, tag: tag, meters: meters, tempos: tempos, beats: beats,
      programme: programme, ending: ending, status: status, tolerance: scorer?.tolerance,
      hits: scorer?.scored.map(TakeHit.init) ?? [])
  }
}
