import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import OpenCombine
import PracticeListening
import TerminalUI

/// One run of the metronome, live, silent or virtual: it plays the engine through a sink, replays
/// a key script on the audio clock, shows each beat when it is heard (a printed line or the
/// display, both bound to the view model's outputs), takes typed keys, the end of input and
/// signals, and ends exactly once with the right status, its last lines and the terminal restored.
///
/// Everything it does happens on `mainQueue`: a `MainLoop` live, an `InlineScheduler`
/// for a virtual run, a `TestScheduler` in tests, so that its whole behaviour runs in virtual time.
@MainActor
public final class MetronomeSession<MainQueue: Scheduler & Sendable>: SessionInputReceiver
where MainQueue.SchedulerTimeType == AudioTime {
  private let viewModel: MetronomeViewModel
  private let clock: AudioClockScheduler
  private let mainQueue: MainQueue
  private let outputs: Outputs
  private let rendering: Rendering
  private let reportsUnderruns: Bool
  private let sampleRate: SampleRate
  private let format: BeatEventFormat?
  private let display: SessionDisplay?
  /// The programme playing, whose songs and sections the display shows as their beats are heard.
  private let place: ProgrammePlace
  /// Beats reported from the render thread and not yet shown.
  private let pendingBeats = SharedCount()
  private var player: LivePlayer?
  private var subscriptions: [AnyCancellable] = []
  private var statusTimer: (any Cancellable)?
  private var ending: SessionEnding?
  private var playerHasEnded = false
  /// When the key script's last key is pressed, in seconds; nil without one.
  private let lastKeySeconds: Double?
  /// Whether that key left a virtual run paused, which ended it (`ClickEngine.replay`).
  private let keysLeftPaused = SharedCount()
  private var skippedBeats = 0
  /// The longest a typed key took to be heard, in seconds; nil until a key is typed.
  private var slowestKey: Double?
  private var completed = false
  /// When `start()` was called, on the main queue's clock.
  private var startedAt: AudioTime?
  /// What the display says of the sync (a Link session's peers, the MIDI clock's port), read as
  /// the status is refreshed.
  private let syncStatus: (@Sendable () -> String)?
  /// Told of each beat as it is heard (not of one skipped), on the main queue.
  private let observers: [any SessionObserver]
  /// The player's hits as scored so far against the clicks heard; nil when not listening.
  public var hitScorer: HitScorer? { practice?.scorer }
  /// Listening to the player; nil when not listening.
  private var practice: Practice?

  /// A session playing `engine` into `sink`, `periodFrames` at a time, replaying `keys` on the
  /// audio clock, showing beats as `presentation` says and telling `observers` of them, whatever
  /// it shows; `outputName` names the output on the display, and `syncStatus` says what of the
  /// sync it shows; `practice` scores the player's hits, if it listens.
  public init(
    engine: ClickEngine, sink: any AudioSink, periodFrames: Int, keys: KeyScript, presentation: SessionPresentation,
    outputName: String, reportsUnderruns: Bool, rendering: Rendering, mainQueue: MainQueue, outputs: Outputs,
    observers: [any SessionObserver] = [], practice: Practice? = nil, syncStatus: (@Sendable () -> String)? = nil
  ) {
    viewModel = engine.viewModel
    self.observers = observers
    self.practice = practice
    self.syncStatus = syncStatus
    clock = engine.clock
    self.mainQueue = mainQueue
    self.outputs = outputs
    self.rendering = rendering
    self.reportsUnderruns = reportsUnderruns
    sampleRate = engine.settings.sampleRate
    place = ProgrammePlace(programme: engine.settings.programme)
    (format, display) = presentation.parts(
      output: outputName, later: { action in mainQueue.schedule { MainActor.assumeIsolated { action() } } })
    // Beats that no one shows, scores or is told of cost no wake-up of the main queue.
    let showsBeats = format != nil || display != nil || practice != nil || observers.contains { $0.hearsEveryClick }
    // Watchers of the bar's beats alone (the journal) wake the main queue for those only.
    let showsBarBeats = !observers.isEmpty
    lastKeySeconds = keys.presses.last?.seconds
    let keysLeftPaused = self.keysLeftPaused
    engine.replay(keys, leftPaused: rendering == .inline ? { keysLeftPaused.add(1) } : nil)
    let pendingBeats = self.pendingBeats
    player = LivePlayer(
      engine: engine, sink: sink, periodFrames: periodFrames,
      onHeard: { [weak self] beat, hearing in
        let (seconds, skipped) =
          switch hearing {
          case .inSeconds(let seconds): (seconds, false)
          case .skipped(let seconds): (seconds, true)
          }
        // Skipped beats are still counted for the report at the end.
        guard showsBeats || skipped || (showsBarBeats && beat.isBarBeat) else { return }
        pendingBeats.add(1)
        mainQueue.schedule(after: mainQueue.now.advanced(by: .seconds(seconds))) {
          MainActor.assumeIsolated { self?.heard(beat, skipped: skipped) }
        }
      },
      onEnd: { [weak self] result in
        mainQueue.schedule { MainActor.assumeIsolated { self?.playerEnded(result) } }
      })
  }

  /// Binds the display to the view model, starts the status refresh and plays.
  ///
  /// With `.inline` rendering it returns once the run has been rendered.
  public func start() {
    startedAt = mainQueue.now
    if let display {
      subscriptions = display.bind(to: viewModel, in: place, on: mainQueue)
      if let practice {
        display.update {
          $0.listening = practice.displayLines
          if practice.keysAreHits { $0.keyHelp = ["any key: a hit", "q Esc quit"] }
        }
      }
      statusTimer = mainQueue.schedule(
        after: mainQueue.now.advanced(by: .seconds(0.2)), interval: .seconds(0.5), tolerance: .seconds(0.05),
        options: nil
      ) { [weak self] in
        MainActor.assumeIsolated {
          guard let self, let player = self.player else { return }
          display.showStatus(of: player, sync: self.syncStatus?())
        }
      }
    }
    switch rendering {
    case .onItsOwnThread: player?.start()
    case .inline: player?.run()
    }
  }

  /// Acts on `input`: a quit, the end of input or a signal ends the run (with the shell's status
  /// for the signal), a resize redraws the display, and any other command goes to the state
  /// machine from the first frame not yet rendered.
  public func receive(_ input: SessionInput) {
    switch input {
    case .command(.quit): finish(SessionEnding(status: 0, reason: "quit"))
    case .command where practice?.keysAreHits == true:
      guard !completed, let scored = practice?.typedKey(at: mainQueue.now, sampleRate: sampleRate) else { return }
      show(scored)
    case .command(let command):
      viewModel.perform(command)
      if let player {
        let seconds = player.secondsUntilHeard(frame: clock.now.frame(roundingUpAt: sampleRate))
        slowestKey = max(slowestKey ?? 0, seconds)
      }
    case .action(let action): viewModel.dispatch(action)
    case .inputClosed:
      finish(SessionEnding(status: 0, reason: "standard input closed", note: "standard input closed; stopped"))
    case .resized: display?.redrawAll()
    case .interrupted(let signal):
      finish(
        SessionEnding(
          status: InterruptWatcher.exitStatus(for: signal),
          reason: "interrupted (\(InterruptWatcher.name(of: signal)))"))
    case .sourceFailed(let message): finish(SessionEnding(status: 1, reason: "failed: \(message)", error: message))
    case .hit(let hit): played(hit)
    case .noticed(let notice): heard(notice)
    }
  }

  /// Shows `beat` as heard, or counts it as skipped.
  private func heard(_ beat: Beat, skipped: Bool) {
    pendingBeats.add(-1)
    guard !completed else { return }
    if skipped, beat.isBarBeat { skippedBeats += 1 }
    if skipped, let scored = practice?.skipped(beat) { show(scored) }
    if !skipped {
      for observer in observers where beat.isBarBeat || observer.hearsEveryClick { observer.heard(beat) }
      if let (scored, judgeLater) = practice?.heard(beat, at: mainQueue.now) {
        show(scored)
        if judgeLater { judge() }
      }
    }
    if let display, skipped {
      display.update { $0.skippedBeats = skippedBeats }
    } else if let display {
      display.update { $0.show(beat, in: place, state: viewModel.currentState) }
      flash(display, for: beat)
    } else if let format, !outputs.standardOutput(format.line(for: beat, skipped: skipped) + "\n") {
      // `metronome --headless | head -3`: once the reader is gone there is nobody to play for.
      finish(SessionEnding(status: 0, reason: "standard output closed", note: "standard output closed; stopped"))
    }
    completeIfDone()
  }

  /// Lights the whole big display for `beat`, if it flashes, and darkens it again after the flash.
  private func flash(_ display: SessionDisplay, for beat: Beat) {
    guard beat.isBarBeat,
      let seconds = display.flash(
        at: beat.seconds, beatSpacing: beat.tempo.secondsPerBeat(denominator: beat.meter.denominator),
        beatInBar: beat.beatInBar, sounds: beat.level != .silent && !beat.isGapMuted)
    else { return }
    display.update { $0.isFlashing = $0.isPlaying }
    mainQueue.schedule(after: mainQueue.now.advanced(by: .seconds(seconds))) {
      MainActor.assumeIsolated { display.update { $0.isFlashing = false } }
    }
  }

  /// Acts on what the block and the bar that ended earned (a trainer's step, the click's level),
  /// once a hit on their last beat can no longer come (a tolerance after it was heard): before
  /// the next beat is rendered wherever beats are further apart than the tolerance and the
  /// output's latency.
  private func judge() {
    guard let tolerance = practice?.scorer.tolerance else { return }
    mainQueue.schedule(after: mainQueue.now.advanced(by: .seconds(tolerance / 1000))) { [weak self] in
      MainActor.assumeIsolated { self?.actOnVerdicts() }
    }
  }

  private func actOnVerdicts() {
    guard !completed, let actions = practice?.judge() else { return }
    actions.forEach(viewModel.dispatch)
    if let display, let practice { display.update { $0.listening = practice.displayLines } }
  }

  /// Takes what the audio input noticed of itself (cut at full scale, the click's path changed):
  /// the summary and the display say so.
  private func heard(_ notice: InputNotice) {
    guard !completed, practice != nil else { return }
    practice?.noticed(notice)
    if let display, let practice { display.update { $0.listening = practice.displayLines } }
  }

  /// Scores a hit the player played (its frame already where the clicks are heard), and shows it
  /// once it is decided.
  private func played(_ hit: Hit) {
    guard !completed, let (scored, actions) = practice?.played(hit) else { return }
    actions.forEach(viewModel.dispatch)
    if !actions.isEmpty, let display, let practice { display.update { $0.listening = practice.displayLines } }
    show(scored)
  }

  /// Prints each scored hit as a line beside the beats', or shows the last on the display; and
  /// ends the run once the goal is reached.
  private func show(_ scored: [ScoredHit]) {
    guard !scored.isEmpty, let practice else { return }
    if practice.reachedGoal { finish(SessionEnding(status: 0, reason: "the hits it wanted scored")) }
    if let display {
      display.update { $0.listening = practice.displayLines }
    } else if let format {
      for hit in scored {
        let line = format == .ndjson ? HitLine.ndjson(hit) : HitLine.text(hit)
        _ = outputs.standardOutput(line + "\n")
      }
    }
  }

  private func playerEnded(_ result: Result<Void, any Error>) {
    playerHasEnded = true
    switch result {
    case .success:
      let leftPaused = keysLeftPaused.value > 0 ? lastKeySeconds : nil
      finish(
        SessionEnding(
          status: 0, reason: "played to its end",
          note: leftPaused.map { "the keys left the run paused at \(Tempo.format($0)) s; it ends there" },
          waitsForHeardBeats: true))
    case .failure(let error): finish(SessionEnding(status: 1, reason: "failed: \(error)", error: "\(error)"))
    }
    completeIfDone()
  }

  /// Records why the run ends (the first reason wins) and stops the player.
  private func finish(_ reason: SessionEnding) {
    guard ending == nil else { return }
    ending = reason
    player?.stop()
    completeIfDone()
  }

  private func completeIfDone() {
    guard var ending, playerHasEnded, !completed else { return }
    if ending.waitsForHeardBeats, pendingBeats.value > 0 { return }
    if let scored = practice?.finish() { show(scored) }
    completed = true
    statusTimer?.cancel()
    subscriptions.removeAll()
    display?.close()
    if let note = ending.note { outputs.standardError("metronome: \(note)\n") }
    if let (lines, error) = practice?.conclusion(afterFailing: ending.error != nil) {
      for line in lines { outputs.standardError("metronome: \(line)\n") }
      if let error {
        ending.error = ending.error ?? error
        ending.status = ending.status == 0 ? 1 : ending.status
      }
    }
    let end = SessionEnd(
      status: ending.status, reason: ending.reason, seconds: mainQueue.now.seconds - (startedAt?.seconds ?? 0),
      scorer: practice?.scorer)
    for observer in observers { observer.ended(end) { outputs.standardError("metronome: \($0)\n") } }
    if reportsUnderruns, let player {
      let summary = PlaybackSummary(
        underruns: player.underrunCount, underrunsAt: player.underrunsAt, bufferFrames: player.bufferFrames,
        lostFrames: player.lostFrames,
        skippedBeats: skippedBeats, slowestKey: slowestKey, sampleRate: sampleRate)
      for line in summary.lines { outputs.standardError("metronome: \(line)\n") }
    }
    if let error = ending.error { outputs.standardError("Error: \(error)\n") }
    player = nil
    outputs.exit(ending.status)
  }
}
