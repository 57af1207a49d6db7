import MetronomeAudio
import MetronomeControl
import MetronomeCore
import OpenCombine

/// Emits beats on the injected scheduler at their exact frames.
///
/// Its state is touched only from actions running on that scheduler: settings and events arrive
/// through `receive(on:)`, never shared. The sequencer it plays holds rhythm only: the generator
/// says which song of a setlist and which outside clock each beat belongs to.
final class BeatGenerator {
  /// Every beat, emitted on the scheduler at the beat's own time.
  let beats = PassthroughSubject<Beat, Never>()
  /// The song of a setlist whose map has just ended, after the beat marking its end: a stream of
  /// its own, so that nothing listens to every beat for this rare one.
  let songEnds = PassthroughSubject<Int, Never>()
  private let scheduler: BeatScheduler
  private let sampleRate: SampleRate
  private var sequencer: BeatSequencer?
  /// The settings applied last.
  private var settings: MetronomeSettings?
  /// The song the sequencer plays and the outside clock it follows, told on each of its beats.
  private var song: Int?
  private var syncSource: ClockSource?
  /// The beat emitted last while following an outside clock, which a new anchor must not play
  /// again; nil once stopped.
  private var lastBeat: Beat?
  /// Bumped on every change, so a beat scheduled under older settings knows it is stale.
  private var generation = 0
  /// What every beat of the current generation schedules: made once per change rather than once
  /// per click, as the render thread schedules hundreds of clicks a second.
  private var emitNextBeat: () -> Void = {}

  init(scheduler: BeatScheduler, sampleRate: SampleRate) {
    self.scheduler = scheduler
    self.sampleRate = sampleRate
  }

  /// Applies new settings: play starts at once with beat one; pause forgets the position, so the
  /// next play starts a new bar; any other change while playing keeps the phase (see
  /// `BeatSequencer`).
  func apply(_ settings: MetronomeSettings) {
    self.settings = settings
    guard settings.isPlaying else {
      generation &+= 1
      (sequencer, lastBeat) = (nil, nil)
      return
    }
    if sequencer == nil {
      start(settings)
    } else {
      sequencer?.change(
        tempo: settings.tempo, meter: settings.meter, rhythm: settings.rhythm, programme: settings.programme,
        earliestFrame: scheduler.now.frame(roundingUpAt: sampleRate))
    }
    reschedule()
  }

  /// Takes `event` while playing: live control of a map from the next beat, or a new start where
  /// another song (counted in) or an outside clock's new anchor begins, at once.
  func receive(_ event: BeatEvent) {
    guard sequencer != nil, let settings, settings.isPlaying else { return }
    switch event {
    case .control(let control): sequencer?.receive(control)
    case .startAgain: start(settings)
    }
    reschedule()
  }

  /// A sequencer for `settings` from now; following an outside clock, after the beat played last.
  private func start(_ settings: MetronomeSettings) {
    sequencer = BeatSequencer(
      startFrame: scheduler.now.frame(roundingUpAt: sampleRate), tempo: settings.tempo, meter: settings.meter,
      rhythm: settings.rhythm, programme: settings.programme, lastPlayed: lastBeat, sampleRate: sampleRate)
    song = settings.programme.setlist == nil ? nil : settings.programme.song
    syncSource = settings.programme.transport?.source
  }

  /// Makes the beats scheduled so far stale and schedules the next one of the sequencer as it is.
  private func reschedule() {
    generation &+= 1
    let scheduledGeneration = generation
    let follows = syncSource != nil
    emitNextBeat = { [weak self] in
      guard let self, self.generation == scheduledGeneration, var beat = self.sequencer?.advance() else { return }
      (beat.song, beat.syncSource) = (self.song, self.syncSource)
      // Schedule the next beat before emitting, so a subscriber that reacts to this beat
      // already sees the generator in its following state.
      self.scheduleNextBeat()
      if follows { self.lastBeat = beat }
      self.beats.send(beat)
      if beat.isMapEnd, let song = beat.song { self.songEnds.send(song) }
    }
    scheduleNextBeat()
  }

  private func scheduleNextBeat() {
    guard let frame = sequencer?.nextFrame else { return }
    scheduler.schedule(after: AudioTime(frame: frame, sampleRate: sampleRate), emitNextBeat)
  }
}
