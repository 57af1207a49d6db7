import MetronomeCore

/// What a klick OSC message asks the metronome to do; the metronome does what it can and reports
/// the state it is then in.
public enum KlickRequest: Equatable, Sendable {
  /// `/klick/simple/set_tempo`: the tempo line's tempo.
  case setTempo(Double)
  /// klick's speed trainer: BPM added each bar.
  case setTempoIncrement(Double)
  /// klick's speed trainer: the tempo it starts from.
  case setTempoStart(Double)
  /// klick's speed trainer: the tempo it stops at.
  case setTempoLimit(Double)
  /// The meter, as written.
  case setMeter(Meter)
  /// The accent pattern (nil: the standard one), and as it was written.
  case setPattern(AccentPattern?, written: String)
  /// A tap for tap tempo, at the time given in seconds, or now.
  case tap(seconds: Double?)
  /// Start playing.
  case start
  /// Stop playing.
  case stop
  /// Play another kind of metronome.
  case setKind(KlickState.Kind)
  /// The click's sound.
  case setSound(KlickState.Sound)
  /// The volumes of the accented and the normal click.
  case setSoundVolume(KlickState.SoundPair)
  /// The pitches of the accented and the normal click.
  case setSoundPitch(KlickState.SoundPair)
  /// The overall volume.
  case setVolume(Float)
  /// Play the tempo map in this file.
  case loadMap(path: String)
  /// Bars counted in before the map: -1 for none, 0 for two beats.
  case setPreroll(Int32)
  /// Play the map this many times faster.
  case setTempoMultiplier(Float)
  /// Connect the output to these JACK ports.
  case connect(ports: [String])
  /// Connect the output to the first two hardware ports.
  case autoconnect
  /// Disconnect the output from every port.
  case disconnectAll
  /// End the run.
  case quit
}

extension KlickRequest {
  /// Whether it sets the tempo, which an outside clock that the run follows overrides.
  public var setsTheTempo: Bool {
    switch self {
    case .setTempo, .tap, .setTempoIncrement, .setTempoStart, .setTempoLimit, .setTempoMultiplier: true
    default: false
    }
  }
}
