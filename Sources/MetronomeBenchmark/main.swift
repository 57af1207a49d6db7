import CombineSchedulers
import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import OpenCombineShim

// Prints how fast the view model generates beats in virtual time, on the production audio
// clock and on combine-schedulers' TestScheduler. Figures only; nothing is asserted.

let beatCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2_000_000
let tempo = try Tempo(bpm: 137)
let lastBeat = AudioTime(seconds: Double(beatCount - 1) * tempo.secondsPerBeat(denominator: 4))

func measure(_ name: String, scheduler: BeatScheduler, advance: (AudioTime) -> Void) {
  let viewModel = MetronomeViewModel(initialTempo: tempo, autoplay: true, beatScheduler: scheduler)
  var received = 0
  let counting = viewModel.beat.sink { _ in received += 1 }
  let started = ContinuousClock.now
  advance(lastBeat)
  let elapsed = ContinuousClock.now - started
  counting.cancel()
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  let rate = Double(received) / seconds
  print(
    "\(name): \(received) beats in \(String(format: "%.3f", seconds)) s = \(String(format: "%.2f", rate / 1e6)) M beats/s"
  )
}

let clock = AudioClockScheduler()
measure("view model on the audio clock   ", scheduler: clock.eraseToBeatScheduler()) {
  clock.advance(to: $0.advanced(by: .seconds(0.001)))
}
let test = TestScheduler<AudioTime, Never>(now: 0)
measure("view model on TestScheduler     ", scheduler: test.eraseToBeatScheduler()) {
  test.advance(to: $0.advanced(by: .seconds(0.001)))
}

// The live render path without the device: render a 256-frame period and hand it to a sink.
let engine = ClickEngine(settings: PlaybackSettings(tempo: tempo))
let sink = NullSink(sampleRate: .standard)
let periods = 2_000_000
let renderStart = ContinuousClock.now
for _ in 0..<periods { try sink.write(engine.renderPeriod(frames: 256)) }
let renderSeconds = (ContinuousClock.now - renderStart) / .seconds(1)
let perPeriod = renderSeconds / Double(periods) * 1e9
let share = perPeriod * 48_000 / 256 / 1e9 * 100
print(
  "render path: \(String(format: "%.0f", perPeriod)) ns per 256-frame period = \(String(format: "%.3f", share)) % of one core in real time"
)
