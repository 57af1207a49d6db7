import MetronomeCore

/// Everything a player can do to the metronome; each input of the view model becomes one of these.
public enum MetronomeAction: Hashable, Sendable {
  /// Set the tempo; NaN is ignored, other values are clamped to `Tempo.range`.
  case setTempo(Double)
  /// Add `delta` quarter notes per minute.
  case nudgeTempo(by: Double)
  /// Multiply the tempo by `factor` (2 doubles it, 0.5 halves it).
  case scaleTempo(by: Double)
  /// A tap for tap tempo, at `seconds` on the beat clock.
  case tapTempo(atSeconds: Double)
  /// Set the requested numerator (shown clamped to the current maximum).
  case setNumerator(Int)
  /// Move the shown numerator up or down by `delta`.
  case stepNumerator(by: Int)
  /// Set Raytronome's denominator stepper: 1, 2, 3, 4 for 4, 8, 16, 32.
  case setDenominatorStep(Int)
  /// Move the denominator one power of two up or down per unit of `delta`.
  case stepDenominator(by: Int)
  /// Set the whole meter at once.
  case setMeter(Meter)
  /// Play the bar's beats at these levels (nil: beat one strong, the others normal).
  case setPattern(AccentPattern?)
  /// Move beat `n` (from 1) of the bar to its next level: strong, normal, weak, silent, strong.
  case cycleLevel(ofBeat: Int)
  /// Divide each beat as `subdivision` says.
  case setSubdivision(Subdivision)
  /// Divide each beat into `delta` more (or fewer) clicks, from 1 (none) to 9; an odd count
  /// plays straight.
  case stepSubdivision(by: Int)
  /// Swing by `delta` more (a ratio: 1/12 moves 50 % to 58.3 %), within 50 % to 75 %; applies
  /// to even subdivisions.
  case stepSwing(by: Double)
  /// Silence every beat, or sound them again; the beats go on being counted and shown.
  case toggleMute
  /// Stop, and play `map` from its start when next started, at its tempo times the multiplier
  /// (nil: the steady tempo playing now), as klick does when its metronome changes; nothing with
  /// a setlist or an outside clock.
  case playMap(TempoMap?)
  /// Play `map`, read from `file`, as `playMap` does, and keep it as the map loaded
  /// (`MetronomeState.loadedMap`), as klick's `load_file` does.
  case loadMap(TempoMap, file: String)
  /// Count in so when play next starts (nil: as the map asks).
  case setCountIn(CountIn?)
  /// Ramp a steady tempo as klick's speed trainer does, from the next beat (off: a steady tempo,
  /// at the tempo it got to); like klick's, it starts again from its start each time play starts.
  case setSpeedTrainer(SpeedTrainer)
  /// Play the clicks from the next one at these gains, as a remote control asks; each factor is
  /// kept within 0 to `ClickGains.loudest`, NaN taken as 0.
  case setGains(ClickGains)
  /// Play every click from the next one at `level` of its loudness, as the player earns it
  /// away (`--earn-silence`): 1 whole, 0 silent; kept within 0 to 1, NaN ignored.
  case setClickLevel(Double)
  /// Silence the second voice, or sound it again from the next bar.
  case togglePolyrhythmMute
  /// Toggle between playing and paused.
  case togglePlaying
  /// Play (true) or pause (false), as a remote control asks: nothing changes where it already
  /// does, so a message sent twice starts or stops once.
  case setPlaying(Bool)
  /// While a map plays, from the next beat: the next section (1), the previous (-1), or the start
  /// of the one playing (0).
  case jumpSection(by: Int)
  /// While a map plays, repeat the section playing seamlessly, or stop repeating it.
  case toggleSectionLoop
  /// Where the map holds each section until told (an earned trainer): when the section playing
  /// ends, move by `offset` sections (1 the next step, -1 back a step, 0 the same again).
  case moveAtSectionEnd(by: Int)
  /// With a setlist, stop and count in the next song (1) or the previous one (-1); while paused,
  /// only choose it.
  case moveSong(by: Int)
  /// Follow an outside clock from its anchor (its tempo and meter, its beats from the anchor's
  /// frame on), or stop with it (nil).
  case follow(TransportAnchor?)
  /// Song `song` of the setlist has played to its end: the next one is counted in, or, if the
  /// setlist waits between songs, chosen and paused on.
  case songEnded(Int)
  /// Back to the starting tempo, meter, pattern and subdivision, unmuted, keeping playing or paused
  /// as it is.
  case reset
}
