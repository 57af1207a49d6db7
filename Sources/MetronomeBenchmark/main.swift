import CombineSchedulers
import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import OpenCombineShim

// Prints how fast the view model generates beats in virtual time, on the production audio
// clock and on combine-schedulers' TestScheduler. Figures only; nothing is asserted.
// `onsets FOLDER` instead writes drum takes and where metronome hears their attacks (OnsetBenchmark);
// `rooms [N]` scores the single-copy canceller beside the room canceller in N simulated rooms (RoomBenchmark),
// then the room canceller following the path as it changes in N/3 more (PathChangeBenchmark), and how
// well any canceller could learn a moved microphone's reflections there (MovedReflectionsBound);
// `recorded-rooms FOLDER` scores the room canceller in rooms simulated elsewhere (RecordedRoomBenchmark);
// `journal FILE [DAYS] [HITS]` writes a year of daily takes to a journal (JournalBenchmark).

if CommandLine.arguments.dropFirst().first == "onsets" {
  try OnsetBenchmark.run(into: CommandLine.arguments.dropFirst(2).first ?? ".")
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "recorded-rooms" {
  try RecordedRoomBenchmark.run(folder: CommandLine.arguments.dropFirst(2).first ?? ".")
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "journal", let path = CommandLine.arguments.dropFirst(2).first {
  let numbers = CommandLine.arguments.dropFirst(3).compactMap { Int($0) }
  try JournalBenchmark.run(path: path, days: numbers.first ?? 365, hits: numbers.dropFirst().first ?? 2_000)
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "rooms" {
  let rooms = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 24
  try RoomBenchmark.run(rooms: rooms)
  try PathChangeBenchmark.run(rooms: rooms / 3)
  try MovedReflectionsBound.run(rooms: rooms / 3)
  exit(0)
}

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

// The live render path without the device: render a 256-frame period and encode it as the
// ALSA sink does (float, into a buffer kept), for a plain click and for the densest rhythm.
func measureRender(_ name: String, _ settings: PlaybackSettings, periods: Int = 1_000_000) {
  let engine = ClickEngine(settings: settings)
  var buffer = [UInt8](repeating: 0, count: 256 * 4)
  let started = ContinuousClock.now
  for _ in 0..<periods {
    let period = engine.renderPeriod(frames: 256)
    buffer.withUnsafeMutableBytes { period.encode(into: $0, as: .float32) }
  }
  let perPeriod = (ContinuousClock.now - started) / .seconds(1) / Double(periods) * 1e9
  let share = perPeriod * 48_000 / 256 / 1e9 * 100
  print(
    "\(name): \(String(format: "%.0f", perPeriod)) ns per 256-frame period = \(String(format: "%.3f", share)) % of one core in real time"
  )
}

measureRender("render path, a plain click at 137 BPM           ", PlaybackSettings(tempo: tempo))
// 1000 BPM in 4/4 with 9 clicks a beat and a second voice of 7 a bar, every voice its own
// 40 ms sample (as a player's own files would be, already at the output rate).
let sample: [Float] = (0..<1_920).map { (index: Int) in
  let time = Double(index)
  return Float(sin(time * 0.3) * exp(-time / 400))
}
let ownSamples: [SoundKit.Voice: [Float]] = Dictionary(
  uniqueKeysWithValues: SoundKit.Voice.allCases.map { ($0, sample) })
let densest = PlaybackSettings(
  tempo: try Tempo(bpm: 1000), subdivision: try Subdivision(9), polyrhythm: 7, samples: ownSamples)
measureRender("render path, 1000 BPM ×9 against 7, own samples", densest)

// A 100 000-bar tempo map, a section per bar in three meters, every seventh a ramp: read, then
// run through the view model in virtual time to its end.
let mapText = (0..<100_000).map { bar in
  let meter = ["4/4", "3/4", "7/8"][bar % 3]
  let tempo = 100 + bar % 50
  return "\(bar % 3 == 0 ? "part\(bar): " : "")1 \(meter) \(tempo)\(bar % 7 == 0 ? "-\(tempo + 20)" : "")"
}.joined(separator: "\n")
let parseStart = ContinuousClock.now
let map = try TempoMapParser.parse(mapText, source: "benchmark")
let parseSeconds = (ContinuousClock.now - parseStart) / .seconds(1)
let mapClock = AudioClockScheduler()
let mapViewModel = MetronomeViewModel(
  initialTempo: try Tempo(bpm: map.sections[0].bpm(ofBeat: 0)), programme: Programme(map: map), autoplay: true,
  beatScheduler: mapClock.eraseToBeatScheduler())
var mapBeats = 0
let counting = mapViewModel.beat.sink { _ in mapBeats += 1 }
let runStart = ContinuousClock.now
mapClock.advance(to: AudioTime(seconds: map.duration + 1))
let runSeconds = (ContinuousClock.now - runStart) / .seconds(1)
counting.cancel()
print(
  "a 100000-bar map (\(map.beatCount ?? 0) beats, \(Int(map.duration)) s of music): read in "
    + "\(String(format: "%.3f", parseSeconds)) s, run in virtual time in \(String(format: "%.3f", runSeconds)) s"
    + " (\(mapBeats) beats, \(String(format: "%.2f", Double(mapBeats) / runSeconds / 1e6)) M beats/s)")
