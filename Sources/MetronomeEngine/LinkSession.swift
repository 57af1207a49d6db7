import MetronomeCore

/// A shared timeline in the manner of Ableton Link: a tempo, a beat that runs at it, and whether
/// the session plays, the same for every peer; times are microseconds on the session's clock.
///
/// Beats are quarter notes; a bar is a quantum of them. Calls come from the thread that renders.
public protocol LinkSession: AnyObject {
  /// The session as it stands at `micros`, its beat counted in bars of `quantum` beats.
  func snapshot(atMicros micros: Int64, quantum: Double) -> LinkSnapshot
  /// Sets the session's tempo from `micros` on, for every peer.
  func setTempo(_ tempo: Tempo, atMicros micros: Int64)
  /// Starts the session playing at `micros`, its beat 0 on the next bar line of `quantum`
  /// beats that every peer shares (at once in a session of one).
  func start(atMicros micros: Int64, quantum: Double)
  /// Stops the session playing at `micros`, for every peer that syncs starting and stopping.
  func stop(atMicros micros: Int64)
  /// The other peers in the session.
  var peers: Int { get }
}

/// What a Link session says at one moment: its tempo in quarter notes a minute, its beat, and
/// whether it plays.
public struct LinkSnapshot: Hashable, Sendable {
  /// Quarter notes a minute.
  public let tempo: Double
  /// The session's beat, in quarter notes: negative before a start that waits for a bar line.
  public let beat: Double
  /// Whether the session plays.
  public let isPlaying: Bool

  /// A snapshot as given.
  public init(tempo: Double, beat: Double, isPlaying: Bool) {
    self.tempo = tempo
    self.beat = beat
    self.isPlaying = isPlaying
  }
}
