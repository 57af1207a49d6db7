import MetronomeControl
import MetronomeCore
import TerminalUI

extension DisplayState {
  /// Shows `beat` as heard, in `place` of the programme, while the metronome is in `state`: its
  /// cell lit, its section and what comes next, and, where a map's section or a speed trainer
  /// sets the tempo beat by beat, the tempo, meter, pattern and subdivision it was played at.
  ///
  /// A beat rendered before a pause may be heard after it: while paused nothing is shown, as the
  /// pause has forgotten the position.
  mutating func show(_ beat: Beat, in place: ProgrammePlace, state: MetronomeState) {
    guard isPlaying else { return }
    if case .polyrhythm(let click, _) = beat.voice {
      heardPolyrhythmClick = click
      return
    }
    // A map's section sets tempo, meter, pattern and subdivision: shown as its beats are heard.
    if let section = beat.section, let mapSection = place.programme.map(ofSong: beat.song)?.sections[section.index] {
      tempoText = beat.tempo.text
      signature = beat.meter.signature
      beatsPerBar = beat.meter.numerator
      pattern = (mapSection.pattern ?? .standard(beats: beat.meter.numerator)).levels
      subdivision = mapSection.subdivision ?? state.subdivision
    } else if !beat.isSubdivision, state.programme.speedTrainer.isOn {
      // A speed trainer ramps the tempo beat by beat, away from the tempo set.
      tempoText = beat.tempo.text
    }
    if beat.isCountIn, self.section != nil {
      self.section = "count-in"
    } else if !beat.isSubdivision, let located = place.section(of: beat, isLooping: isLooping) {
      self.section = located.section
      sectionTitle = located.title
      upcoming = located.upcoming
    }
    isCountIn = beat.isCountIn
    // A subdivision's click moves the tick, and leaves the beat's cell lit as its beat lit it.
    let level = beat.isSubdivision ? heard?.level ?? beat.level : beat.level
    heard = HeardBeat(
      bar: beat.bar, beat: beat.beatInBar, level: level, subdivision: beat.subdivision, isGapMuted: beat.isGapMuted)
  }
}
