import ALSAOutput
import Foundation
import MetronomeCore
import MetronomeEngine
import TerminalUI

/// A headless run in real time: the engine plays through ALSA (or silently, paced by the
/// system clock) on its render thread, and each beat is printed when it is heard. Key presses
/// are replayed from the main queue, so they reach the render thread through the scheduler.
struct LiveRun {
  enum Output {
    case alsa(device: String, periodFrames: Int, bufferFrames: Int)
    case silent
  }

  let engine: ClickEngine
  let keys: KeyScript
  let format: BeatEventFormat
  let output: Output

  func run() throws -> Never {
    let sink: any AudioSink
    let periodFrames: Int
    let rate = engine.settings.sampleRate
    switch output {
    case .alsa(let device, let period, let buffer):
      do {
        let alsa = try ALSASink(device: device, sampleRate: rate, periodFrames: period, bufferFrames: buffer)
        sink = alsa
        periodFrames = alsa.pcm.periodFrames
        let latency = Tempo.format(Double(alsa.pcm.bufferFrames) / Double(rate.hz) * 1000)
        report(
          "playing \(engine.settings.meter) at \(engine.settings.tempo) on '\(device)': \(rate.hz) Hz, period"
            + " \(alsa.pcm.periodFrames) frames, buffer \(alsa.pcm.bufferFrames) frames (\(latency) ms)")
      } catch {
        throw RuntimeError("\(error)")
      }
    case .silent:
      sink = WallClockSink(sampleRate: rate)
      periodFrames = 256
      report("playing \(engine.settings.meter) at \(engine.settings.tempo) silently")
    }
    let format = self.format
    let player = LivePlayer(engine: engine, sink: sink, periodFrames: periodFrames) { beat, heardAt in
      DispatchQueue.main.asyncAfter(deadline: heardAt) { print(format.line(for: beat)) }
    }
    let interrupts = InterruptWatcher { _ in player.stop() }
    let started = DispatchTime.now()
    for press in keys.presses {
      guard let command = KeyBindings.command(for: press.key) else { continue }
      DispatchQueue.main.asyncAfter(deadline: started + press.seconds) {
        if command == .quit { player.stop() } else { engine.viewModel.perform(command) }
      }
    }
    player.start()
    DispatchQueue.global().async {
      let failure: (any Error)?
      do {
        try player.wait()
        failure = nil
      } catch {
        failure = error
      }
      // Let the last beats' lines (already heard once the sink drained) print first.
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
        let underruns = player.underrunCount
        if case .alsa = output { report("\(underruns) underrun\(underruns == 1 ? "" : "s")") }
        if let failure {
          report("Error: \(failure)")
          exit(1)
        }
        exit(interrupts.receivedSignal.map(InterruptWatcher.exitStatus(for:)) ?? 0)
      }
    }
    dispatchMain()
  }

  private func report(_ line: String) {
    FileHandle.standardError.write(Data("metronome: \(line)\n".utf8))
  }
}
