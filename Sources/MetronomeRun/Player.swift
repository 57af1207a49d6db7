import ALSAOutput
import Glibc
import JACKOutput
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeEngine
import MetronomeSession
import OSCControl
import OpenCombine
import PracticeListening
import Synchronization
import TerminalUI

/// Plays a request: reads its files, opens its output, connects its sync and starts its session,
/// which ends the process with the run's status.
///
/// Where a session's commands come from (typed keys, a key script, signals, the end of input,
/// klick's OSC remote control) is wired here; each feeds the same session.
public enum Player {
  /// Plays `request` until its session ends the process; throws a `RunError` for what stops it
  /// from starting (a file that cannot be read, a device that cannot be opened).
  public static func play(_ request: PlayRequest) throws(RunError) {
    let isVirtual = request.output == .virtual
    // Signals are watched before the terminal is touched, so none can leave it raw.
    let interrupts = isVirtual ? nil : InterruptWatcher()
    let interactive = !isVirtual && !request.headless && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    let settings = try request.settings(interactive: interactive)
    let script = try keyScript(request.keysPath)
    let quits = script.presses.contains { KeyBindings.command(for: $0.key) == .quit }
    if isVirtual, settings.length == nil, !settings.programme.ends, !quits {
      throw .usage("a --virtual run needs --beats, --bars, --duration, a map that ends or a 'q' in --keys to end")
    }
    // A calibration measures with nothing taken off; a run takes off what was given, else what was calibrated.
    var inputOffset = 0.0
    if !request.calibrates, let listening = request.listening {
      if let given = listening.inputOffsetMilliseconds {
        inputOffset = given
      } else {
        inputOffset = try CalibrationStore.load().offsets[.midi] ?? 0
      }
    }
    if request.style != .standard, !isVirtual, !interactive {
      throw .usage("--\(request.style) shows on a terminal: run it in one, or use --headless to print beats")
    }
    if request.calibrates, request.listening == nil, !interactive {
      throw .usage("calibrating on the keyboard needs a terminal: run it in one, or calibrate a MIDI kit with --jack")
    }
    let engine = ClickEngine(settings: settings)
    // Before the output, so that a port in use stops the run before anything plays.
    let remote = try request.remote.map { remote throws(RunError) in
      try RemoteControl(remote, request, engine: engine)
    }
    let output = try OpenedOutput.open(
      request.output, settings, announce: !interactive, mustBeHeard: request.listening != nil || request.calibrates)
    if !interactive, let remote { _ = TextOutput.standardError.write("metronome: OSC on \(remote.endpoint)\n") }
    let run = Run(
      engine: engine, output: output, sequencer: try sequencer(for: request, besides: output.sink), script: script,
      interrupts: interrupts, interactive: interactive, style: request.style,
      events: request.events, reportsUnderruns: request.output != .silent && !isVirtual, remote: remote,
      listening: request.listening, hearsAudio: request.hearsAudio, inputOffset: inputOffset,
      calibrates: request.calibrates, journal: request.journal,
      programme: request.music.programme.words
        + (request.listening?.earn.map { ", earned at \(Tempo.format($0.mark * 100))%" } ?? ""))
    if isVirtual {
      // Nothing to clean up, so signals keep their default action: Ctrl-C ends it.
      try onTheMainActor { () throws(RunError) in try run.start(rendering: .inline, on: InlineScheduler()) }
      return
    }
    let syncStatus = try (output.sink as? JACKSink).flatMap { server throws(RunError) in
      try request.clock.flatMap { clock throws(RunError) in
        try ClockConnection.connect(clock, of: engine, through: server)
      }
    }
    let midi = try request.midi.map { midi throws(RunError) in
      try MIDISender.start(midi, of: engine, through: output.sink, announce: !interactive, sequencer: run.sequencer)
    }
    let mainLoop = MainLoop()
    try onTheMainActor { () throws(RunError) in
      try run.start(
        rendering: .onItsOwnThread, on: mainLoop,
        syncStatus: status(syncStatus, midi: midi?.status),
        beforeExit: midi?.finish)
    }
    mainLoop.run()
  }

  /// The ALSA sequencer's client for what `request` sends or takes as MIDI without JACK: its port
  /// `clock`, `notes` or `clock and notes` for what it sends, `hits` for the player's notes (unless
  /// only a capture device is listened to); nil when neither goes through it.
  private static func sequencer(for request: PlayRequest, besides sink: any AudioSink) throws(RunError)
    -> ALSASequencer?
  {
    // A capture device alone is listened to for audio only: MIDI too when ports are named.
    let hits = request.listening.map { $0.captureDevice == nil || !$0.sources.isEmpty } ?? false
    guard !(sink is JACKSink), request.output != .virtual, request.midi != nil || hits else { return nil }
    do {
      return try ALSASequencer(
        clientName: "metronome", portName: request.midi?.sequencerPort, inputName: hits ? "hits" : nil)
    } catch {
      throw .runtime("\(error)")
    }
  }

  /// Runs `body` on the main actor, on whose thread the caller already is.
  private static func onTheMainActor(_ body: @MainActor () throws(RunError) -> Void) throws(RunError) {
    try MainActor.assumeIsolated { Result(catching: body) }.get()
  }

  /// The key script at `path`, read once: standard input cannot be read twice.
  private static func keyScript(_ path: String?) throws(RunError) -> KeyScript {
    guard let path else { return KeyScript() }
    let text = try TextFile.keyScript.read(path)
    do { return try KeyScript(parsing: text) } catch { throw .usage("\(error)") }
  }

  /// What the display says of the sync: `status`, then what MIDI goes out where, if any.
  private static func status(_ status: (@Sendable () -> String)?, midi: String?) -> (@Sendable () -> String)? {
    guard let midi else { return status }
    guard let status else { return { midi } }
    return { status() + " · " + midi }
  }
}

/// One run about to start: the engine, where it plays, the key script and how beats are shown.
private struct Run {
  let engine: ClickEngine
  let output: OpenedOutput
  /// The ALSA sequencer's client, for MIDI without JACK; nil for none.
  let sequencer: ALSASequencer?
  let script: KeyScript
  let interrupts: InterruptWatcher?
  let interactive: Bool
  let style: DisplayStyle
  let events: BeatEventFormat?
  let reportsUnderruns: Bool
  /// klick's OSC remote control, started with the session; nil for none.
  let remote: RemoteControl?
  /// Listening to the player's hits; nil for none.
  let listening: ListenRequest?
  /// Whether a microphone or line input is listened to (`PlayRequest.hearsAudio`).
  let hearsAudio: Bool
  /// Milliseconds taken off every hit: as given, or as calibrated.
  let inputOffset: Double
  /// Whether the run is a tap-along calibration.
  let calibrates: Bool
  /// Where the run is kept as it ends; nil for nowhere.
  let journal: JournalKeeping?
  /// What it plays beyond one steady tempo, in a few words, for the journal.
  let programme: String

  /// The session and its event sources, kept for as long as the process runs.
  @MainActor private static var running: (AnyObject, AnyObject?)?

  /// Starts a session on `mainQueue`, with the display if `interactive` (showing `syncStatus`, if
  /// given), ending it cleanly on the signals `interrupts` catches and calling `beforeExit` last.
  @MainActor
  func start<MainQueue: Scheduler & Sendable>(
    rendering: MetronomeSession<MainQueue>.Rendering, on mainQueue: MainQueue,
    syncStatus: (@Sendable () -> String)? = nil, beforeExit: (@Sendable () -> Void)? = nil
  ) throws(RunError) where MainQueue.SchedulerTimeType == AudioTime {
    let presentation: SessionPresentation
    if interactive {
      let variable = { (name: String) in getenv(name).map { String(cString: $0) } }
      let colors = (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
      do {
        presentation = .display(try TerminalSession(fullScreen: style != .plain), colors: colors, style: style)
      } catch {
        throw .runtime("\(error)")
      }
    } else {
      presentation = events.map(SessionPresentation.headless) ?? .soundOnly
    }
    let sink = output.sink
    let capture = CaptureToStop()
    let control = remote?.control(connections: sink as? JACKSink)
    let keeper = journal.flatMap { journal in
      JournalKeeper(journal, programme: programme, started: .now()) {
        _ = TextOutput.standardError.write("metronome: \($0)\n")
      }
    }
    let session = MetronomeSession(
      engine: engine, sink: sink, periodFrames: output.periodFrames, keys: script, presentation: presentation,
      outputName: output.name, reportsUnderruns: reportsUnderruns, rendering: rendering, mainQueue: mainQueue,
      outputs: .init(
        standardOutput: TextOutput.standardOutput.write, standardError: { TextOutput.standardError.write($0) },
        exit: { status in
          // A sound server's client leaves it before the process goes, so no cycle calls into an exiting process.
          (sink as? any CallbackAudioSink)?.stop()
          capture.stop()
          beforeExit?()
          Glibc.exit(status)
        }), observers: ([control, keeper] as [(any SessionObserver)?]).compactMap { $0 }, practice: practice,
      syncStatus: syncStatus)
    capture.device = try listen(with: session, on: mainQueue)
    Self.running = (
      session,
      interrupts.map { SystemEvents(session: session, interrupts: $0, readsKeys: interactive, mainQueue: mainQueue) }
    )
    session.start()
    if let remote, let control { remote.start(control, feeding: session, on: mainQueue) }
  }
}

extension Run {
  /// What the session scores the player's hits by, and ends with: the goal and the typed keys of
  /// a calibration, which it saves, or the report written; nil when the run does not listen.
  fileprivate var practice: Practice? {
    guard listening != nil || calibrates else { return nil }
    var scorer = HitScorer(tolerance: listening?.tolerance ?? 20)
    if calibrates {
      scorer.goal = Calibration.hitsNeeded
      let source: Calibration.Source = listening == nil ? .keys : .midi
      return Practice(
        scorer: scorer, keysAreHits: listening == nil, conclude: { CalibrationStore.conclude($0, from: source) })
    }
    let coach = listening?.earn.map { earn in
      let sections = engine.settings.programme.map?.sections ?? []
      // Each step's tempo apart from the one before: the whole steps --earn-back falls back.
      let step = sections.count > 1 ? abs(sections[1].bpm(ofBeat: 0) - sections[0].bpm(ofBeat: 0)) : 1
      return StepCoach(
        mark: earn.mark, tolerance: scorer.tolerance, sectionBars: sections.map(\.bars),
        stepsBack: earn.back.map { Int(($0 / step).rounded()) } ?? 0)
    }
    let silence = listening?.earnsSilence == true ? SilenceCoach(tolerance: scorer.tolerance) : nil
    guard let report = listening?.report else { return Practice(scorer: scorer, coach: coach, silence: silence) }
    return Practice(scorer: scorer, coach: coach, silence: silence) { scorer in
      let text = ListeningReport.text(of: scorer.scored, tolerance: scorer.tolerance, as: report.format)
      return ([], ReportFile.write(text, to: report.destination))
    }
  }

  /// Has `session` hear the player's hits, as its inputs: the notes on the JACK client's port
  /// `hits`, the sequencer's, or the attacks on an audio input (in a calibration without them,
  /// the session takes typed keys); returns the capture device listened to, if any.
  @MainActor
  fileprivate func listen<MainQueue: Scheduler & Sendable>(
    with session: MetronomeSession<MainQueue>, on mainQueue: MainQueue
  ) throws(RunError) -> ALSACapture? where MainQueue.SchedulerTimeType == AudioTime {
    guard let listening else { return nil }
    let deliver: @Sendable (Hit) -> Void = { hit in
      mainQueue.schedule { MainActor.assumeIsolated { session.receive(.hit(hit)) } }
    }
    let noticed: @Sendable (InputNotice) -> Void = { notice in
      mainQueue.schedule { MainActor.assumeIsolated { session.receive(.noticed(notice)) } }
    }
    if let server = output.sink as? JACKSink {
      let calibration = try CalibrationStore.load()
      let roundTrip = calibration.offsets[.jackRoundTrip].map {
        Int64(($0 * Double(server.sampleRate.hz) / 1000).rounded())
      }
      try HitInput.listen(
        listening, inputOffset: inputOffset, audioOffset: listening.inputOffsetMilliseconds ?? 0,
        roundTrip: roundTrip, unheard: HitPlacement(unheardBy: calibration, from: .jackRoundTrip),
        hearsAudio: hearsAudio, of: engine, through: server, deliver: deliver, noticed: noticed)
      return nil
    }
    if let sequencer {
      try HitInput.listen(
        listening, inputOffset: inputOffset, of: engine, through: output.sink, sequencer: sequencer, deliver: deliver)
    }
    guard let device = listening.captureDevice, let sink = output.sink as? ALSASink else { return nil }
    let rate = Double(engine.settings.sampleRate.hz)
    let calibration = try CalibrationStore.load()
    let unreported = calibration.offsets[.alsaUnreportedLatency].map { Int64(($0 * rate / 1000).rounded()) }
    return try HitInput.listen(
      capturing: device, listening, unreported: unreported ?? 0,
      unheard: HitPlacement(unheardBy: calibration, from: .alsaUnreportedLatency),
      audioOffset: listening.inputOffsetMilliseconds ?? 0,
      of: engine, through: sink, deliver: deliver, noticed: noticed,
      failed: { message in mainQueue.schedule { MainActor.assumeIsolated { session.receive(.sourceFailed(message)) } } }
    )
  }
}

/// The capture device a run listens to, stopped and closed as the process ends.
private final class CaptureToStop: Sendable {
  private let capture = Mutex<ALSACapture?>(nil)

  /// The device, once listening has started.
  var device: ALSACapture? {
    get { capture.withLock { $0 } }
    set { capture.withLock { $0 = newValue } }
  }

  /// Stops and closes the device, if any.
  func stop() { device?.stop() }
}
