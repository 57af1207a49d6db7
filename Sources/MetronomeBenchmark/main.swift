import CombineSchedulers
import Foundation
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import OpenCombineShim

// Prints how fast the view model generates beats in virtual time, on the production audio
// clock and on combine-schedulers' TestScheduler. Figures only; nothing is asserted.

let beatCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2_000_000
let tempo = try! Tempo(bpm: 137)
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
measure("view model on the audio clock   ", scheduler: clock.eraseToAnyScheduler()) {
  clock.advance(to: $0.advanced(by: .seconds(0.001)))
}
let test = TestScheduler<AudioTime, Never>(now: 0)
measure("view model on TestScheduler     ", scheduler: test.eraseToAnyScheduler()) {
  test.advance(to: $0.advanced(by: .seconds(0.001)))
}
