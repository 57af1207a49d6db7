import ALSAOutput
import Dispatch
import Glibc
import MetronomeCore
import MetronomeEngine
import TerminalUI

/// A run in real time: the engine plays through ALSA (or silently, paced by the system clock) on
/// its render thread, and each beat is shown when it is heard, as a printed line (headless) or on
/// the interactive display. Keys, from the terminal or a script, are handled on the main actor
/// and reach the render thread through the scheduler.
struct LiveRun {
  enum Output {
    case alsa(device: String, periodFrames: Int, bufferFrames: Int)
    case silent
  }

  enum Presentation {
    case headless(BeatEventFormat)
    case display
  }

  let engine: ClickEngine
  let keys: KeyScript
  let output: Output
  let presentation: Presentation

  func run() throws -> Never {
    let (sink, periodFrames, outputName) = try openOutput()
    let isALSA: Bool
    if case .alsa = output { isALSA = true } else { isALSA = false }
    try MainActor.assumeIsolated {
      let session = LiveSession(engine: engine, sink: sink, periodFrames: periodFrames, reportsUnderruns: isALSA)
      try session.start(presentation: presentation, outputName: outputName, keys: keys)
    }
    dispatchMain()
  }

  /// Opens the audio output; says what was opened on standard error for headless runs.
  private func openOutput() throws -> (any AudioSink, Int, String) {
    let settings = engine.settings
    switch output {
    case .alsa(let device, let period, let buffer):
      let alsa: ALSASink
      do {
        alsa = try ALSASink(device: device, sampleRate: settings.sampleRate, periodFrames: period, bufferFrames: buffer)
      } catch {
        throw RuntimeError("\(error)")
      }
      let latency = Tempo.format(Double(alsa.pcm.bufferFrames) / Double(settings.sampleRate.hz) * 1000)
      if case .headless = presentation {
        report(
          "playing \(settings.meter) at \(settings.tempo) on '\(device)': \(settings.sampleRate.hz) Hz, period"
            + " \(alsa.pcm.periodFrames) frames, buffer \(alsa.pcm.bufferFrames) frames (\(latency) ms)")
      }
      return (alsa, alsa.pcm.writeFrames, "ALSA '\(device)'")
    case .silent:
      if case .headless = presentation { report("playing \(settings.meter) at \(settings.tempo) silently") }
      // No device to keep fed: a long period means few wake-ups, while a key still takes effect
      // within one period (43 ms at 48 kHz).
      return (WallClockSink(sampleRate: settings.sampleRate), 2048, "silent")
    }
  }
}

/// Writes `metronome: line` to standard error.
func report(_ line: String) {
  TextOutput.standardError.write("metronome: \(line)\n")
}

/// The main actor's side of a live run: the display or the printed lines, keys, signals, and
/// the one way out that stops the player and gives the terminal back.
@MainActor
final class LiveSession {
  private let engine: ClickEngine
  private let reportsUnderruns: Bool
  private var player: LivePlayer!
  private var display: InteractiveDisplay?
  private var format: BeatEventFormat?
  private var interrupts: InterruptWatcher?
  private var statusTimer: (any DispatchSourceTimer)?

  init(engine: ClickEngine, sink: any AudioSink, periodFrames: Int, reportsUnderruns: Bool) {
    self.engine = engine
    self.reportsUnderruns = reportsUnderruns
    player = LivePlayer(engine: engine, sink: sink, periodFrames: periodFrames) { [weak self] beat, secondsUntilHeard in
      DispatchQueue.main.asyncAfter(deadline: .now() + secondsUntilHeard) { self?.heard(beat) }
    }
  }

  func start(presentation: LiveRun.Presentation, outputName: String, keys: KeyScript) throws {
    // Watch signals before touching the terminal. The handler hops to the main actor, which is
    // busy until start() returns, so a signal can only end a run that has fully started.
    interrupts = InterruptWatcher { signal in
      DispatchQueue.main.async { [weak self] in self?.finish(InterruptWatcher.exitStatus(for: signal)) }
    }
    switch presentation {
    case .headless(let format): self.format = format
    case .display:
      do {
        display = try InteractiveDisplay(
          viewModel: engine.viewModel, output: outputName, onKey: { [weak self] in self?.handle($0) },
          onInputClosed: { [weak self] in self?.finish(0, note: "standard input closed; stopped") })
      } catch {
        throw RuntimeError("\(error)")
      }
    }
    let started = DispatchTime.now()
    for press in keys.presses {
      guard let command = KeyBindings.command(for: press.key) else { continue }
      DispatchQueue.main.asyncAfter(deadline: started + press.seconds) { [weak self] in self?.handle(command) }
    }
    let statusTimer = DispatchSource.makeTimerSource(queue: .main)
    statusTimer.schedule(deadline: .now() + 0.2, repeating: 0.5)
    statusTimer.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.display?.status(
          latencyMilliseconds: self.player.latencySeconds * 1000, underruns: self.player.underrunCount)
      }
    }
    statusTimer.resume()
    self.statusTimer = statusTimer
    player.start()
    let player: LivePlayer = self.player
    DispatchQueue.global().async {
      do {
        try player.wait()
        // Let the last beats' lines (heard once the sink has drained) come out first.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { [weak self] in self?.finish(0) }
      } catch {
        let failure = "\(error)"
        DispatchQueue.main.async { [weak self] in self?.finish(1, error: failure) }
      }
    }
  }

  private func heard(_ beat: Beat) {
    if let display {
      display.heard(beat)
    } else if let format {
      // One unbuffered write per line: it goes out when the beat is heard, even into a pipe.
      TextOutput.standardOutput.write(format.line(for: beat) + "\n")
    }
  }

  private func handle(_ command: KeyCommand) {
    if command == .quit { finish(0) }
    engine.viewModel.perform(command)
  }

  /// Stops the player, restores the terminal, reports, and exits with `status`.
  private func finish(_ status: Int32, error: String? = nil, note: String? = nil) -> Never {
    player.stop()
    try? player.wait()
    display?.close()
    if let note { report(note) }
    if reportsUnderruns { report("\(player.underrunCount) underrun\(player.underrunCount == 1 ? "" : "s")") }
    if let error { report("Error: \(error)") }
    exit(status)
  }
}
