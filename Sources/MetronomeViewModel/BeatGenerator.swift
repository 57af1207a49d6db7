import MetronomeAudio
import MetronomeCore
import OpenCombine

/// Emits beats on the injected scheduler at their exact frames.
///
/// Its state is touched only from actions running on that scheduler: settings arrive through
/// `receive(on:)`, never shared.
final class BeatGenerator {
  /// Every beat, emitted on the scheduler at the beat's own time.
  let beats = PassthroughSubject<Beat, Never>()
  /// The song of a setlist whose map has just ended, after the beat marking its end: a stream of
  /// its own, so that nothing listens to every beat for this rare one.
  let songEnds = PassthroughSubject<Int, Never>()
  private let scheduler: BeatScheduler
  private let sampleRate: SampleRate
  private var sequencer: BeatSequencer?
  /// The beat emitted last, which a new anchor of an outside clock must not play again.
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
  /// next play starts a new bar; another song of a setlist starts at once, counted in; an outside
  /// clock's new anchor starts the beats again on its grid; any other change while playing keeps
  /// the phase (see `BeatSequencer`).
  func apply(_ settings: MetronomeSettings) {
    generation &+= 1
    guard settings.isPlaying else {
      sequencer = nil
      return
    }
    let scheduledGeneration = generation
    let follows = settings.programme.transport != nil
    emitNextBeat = { [weak self] in
      guard let self, self.generation == scheduledGeneration, let beat = self.sequencer?.advance() else { return }
      // Schedule the next beat before emitting, so a subscriber that reacts to this beat
      // already sees the generator in its following state.
      self.scheduleNextBeat()
      if follows { self.lastBeat = beat }
      self.beats.send(beat)
      if beat.isMapEnd, let song = beat.song { self.songEnds.send(song) }
    }
    let now = scheduler.now.frame(roundingUpAt: sampleRate)
    let song = settings.programme.setlist == nil ? nil : settings.programme.song
    if sequencer == nil || sequencer?.song != song || sequencer?.transport?.id != settings.programme.transport?.id {
      sequencer = BeatSequencer(
        startFrame: now, tempo: settings.tempo, meter: settings.meter, rhythm: settings.rhythm,
        programme: settings.programme, lastPlayed: sequencer == nil ? nil : lastBeat, sampleRate: sampleRate)
    } else {
      sequencer?.change(
        tempo: settings.tempo, meter: settings.meter, rhythm: settings.rhythm, programme: settings.programme,
        earliestFrame: now)
    }
    scheduleNextBeat()
  }

  private func scheduleNextBeat() {
    guard let frame = sequencer?.nextFrame else { return }
    scheduler.schedule(after: AudioTime(frame: frame, sampleRate: sampleRate), emitNextBeat)
  }
}
