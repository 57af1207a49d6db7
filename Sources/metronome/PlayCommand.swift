import ArgumentParser
import MetronomeCore
import MetronomeEngine
import MetronomeViewModel
import OpenCombineShim
import TerminalUI

/// `metronome [METER] [TEMPO]`: plays the metronome.
struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Play a click track (the default command).",
    discussion: """
      METER is beats/note (4/4, 7/8, 6/8); TEMPO counts quarter notes per minute, fractions \
      allowed (97.5), from 1 to 1000. By default a bar holds at most as many beats as the \
      denominator; --max-numerator raises that cap for meters such as 5/4 or 7/4.
      """
  )

  @Argument(help: ArgumentHelp("Meter and tempo, in either order (default 4/4 120).", valueName: "meter-or-tempo"))
  var words: [String] = []

  @Option(help: "Allow at least this many beats per bar, for 5/4 or 7/4 (1 to 64).")
  var maxNumerator: Int?

  @Flag(help: "Run in virtual time: no audio, no waiting; print the exact beat timeline at once.")
  var virtual = false

  @Option(help: "Stop after this many beats.")
  var beats: Int?

  @Option(help: "Stop after this many bars.")
  var bars: Int?

  @Option(help: "Stop after this many seconds.")
  var duration: Double?

  @Option(help: "How to print each beat: text or ndjson.")
  var events: BeatEventFormat = .text

  func validate() throws {
    if let maxNumerator, !(1...NumeratorCap.ceiling).contains(maxNumerator) {
      throw ValidationError("--max-numerator must be from 1 to \(NumeratorCap.ceiling)")
    }
    _ = try MeterAndTempo(words: words, cap: cap)
    guard [beats != nil, bars != nil, duration != nil].filter({ $0 }).count <= 1 else {
      throw ValidationError("give at most one of --beats, --bars and --duration")
    }
    if let beats, beats < 1 { throw ValidationError("--beats must be at least 1") }
    if let bars, bars < 1 { throw ValidationError("--bars must be at least 1") }
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError("--duration must be a positive number of seconds")
    }
    guard virtual else {
      throw ValidationError("live audio output is not built yet: add --virtual to print the beat timeline")
    }
    guard length != nil else { throw ValidationError("a --virtual run needs --beats, --bars or --duration") }
  }

  var cap: NumeratorCap { NumeratorCap(atLeast: maxNumerator) }

  var length: PlayLength? {
    if let beats { return .beats(beats) }
    if let bars { return .bars(bars) }
    return duration.map(PlayLength.seconds)
  }

  func run() throws {
    let start = try MeterAndTempo(words: words, cap: cap)
    guard let length else { return }
    let clock = AudioClockScheduler()
    let viewModel = MetronomeViewModel(
      initialMeter: start.meter, initialTempo: start.tempo, autoplay: true, cap: cap,
      beatScheduler: clock.eraseToAnyScheduler()
    )
    var finished = false
    let printing = viewModel.beat.sink { beat in
      guard !finished else { return }
      guard length.contains(beat) else {
        finished = true
        return
      }
      print(events.line(for: beat))
    }
    defer { printing.cancel() }
    let step = AudioTime.Stride.seconds(1)
    let end = length.endFrame(at: .standard).map { AudioTime(frame: $0, sampleRate: .standard) }
    while !finished {
      let next = clock.now.advanced(by: step)
      if let end, next >= end {
        clock.advance(to: end)
        break
      }
      clock.advance(to: next)
    }
  }
}

extension BeatEventFormat: ExpressibleByArgument {}
