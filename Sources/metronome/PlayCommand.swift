import ArgumentParser
import FoundationEssentials
import Glibc
import MetronomeCore
import MetronomeEngine
import TerminalUI

/// `metronome [METER] [TEMPO]`: plays the metronome.
struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Play the metronome (the default command).",
    discussion: """
      METER is beats/note (4/4, 7/8, 6/8); TEMPO counts quarter notes per minute, fractions \
      allowed (97.5), from 1 to 1000, so 7/8 at 200 clicks every 0.15 s. By default a bar holds \
      at most as many beats as the denominator; --max-numerator raises that cap for 5/4 or 7/4.

      When standard output is not a terminal (or with --headless) it prints one line per beat \
      as the beat is heard: seconds, bar, beat, accent or regular.

      Keys (in the display, and in --keys scripts as 'SECONDS KEY', keys named space, up, down, \
      left, right, esc or by their character):
        \(KeyBindings.helpItems.joined(separator: "\n  "))
      """
  )

  @OptionGroup var meterAndTempo: MeterTempoOptions
  @OptionGroup var length: LengthOptions
  @OptionGroup var sound: SoundOptions

  @Option(help: "ALSA playback device (see `metronome devices`).")
  var device = "default"

  @Option(help: "ALSA period size in frames; each wake-up writes half the buffer, in whole periods.")
  var period = 256

  @Option(help: "ALSA buffer size in frames (at least two periods); it bounds the output latency.")
  var buffer = 1024

  @Flag(help: "List the ALSA playback devices and exit.")
  var listDevices = false

  @Flag(help: "Play no audio, paced in real time by the system clock.")
  var silent = false

  @Flag(help: "Run in virtual time: no audio and no waiting; print the exact beat timeline at once.")
  var virtual = false

  @Flag(help: "Print beats instead of showing the display, even in a terminal.")
  var headless = false

  @Option(help: "How headless runs print each beat: text or ndjson.")
  var events: BeatEventFormat = .text

  @Option(help: ArgumentHelp("Replay timed key presses from FILE ('-' for standard input).", valueName: "file"))
  var keys: String?

  func validate() throws {
    guard (16...65_536).contains(period) else { throw ValidationError("--period must be from 16 to 65536 frames") }
    guard buffer >= 2 * period, buffer <= 1 << 20 else {
      throw ValidationError("--buffer must be at least two periods (\(2 * period) frames) and at most 1048576")
    }
  }

  var keyScript: KeyScript {
    get throws {
      guard let keys else { return KeyScript.empty }
      let text: String
      if keys == "-" {
        text = AnyIterator { readLine(strippingNewline: false) }.joined()
      } else {
        guard let data = FileManager.default.contents(atPath: keys) else {
          throw ValidationError("cannot read the keys file '\(keys)'")
        }
        text = String(decoding: data, as: UTF8.self)
      }
      do { return try KeyScript(parsing: text) } catch { throw ValidationError("\(error)") }
    }
  }

  mutating func run() throws {
    if listDevices {
      DevicesCommand.printDevices()
      return
    }
    let start = try meterAndTempo.parsed
    let settings = PlaybackSettings(
      meter: start.meter, tempo: start.tempo, cap: meterAndTempo.cap, sampleRate: try sound.sampleRate,
      sound: sound.sound, volume: sound.volume, length: length.length
    )
    // Read once, here rather than in validate(): standard input cannot be read twice.
    let script: KeyScript
    do {
      script = try keyScript
      let quits = script.presses.contains { KeyBindings.command(for: $0.key) == .quit }
      if virtual, length.length == nil, !quits {
        throw ValidationError("a --virtual run needs --beats, --bars, --duration or a 'q' in --keys to end")
      }
    } catch {
      Metronome.exitWithUsage(of: Self.self, error)
    }
    if virtual {
      VirtualRun(engine: ClickEngine(settings: settings), keys: script, format: events).run()
      return
    }
    let interactive = !headless && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    try LiveRun(
      engine: ClickEngine(settings: settings), keys: script,
      output: silent ? .silent : .alsa(device: device, periodFrames: period, bufferFrames: buffer),
      presentation: interactive ? .display : .headless(events)
    ).run()
  }
}

extension BeatEventFormat: ExpressibleByArgument {}

extension KeyScript {
  /// A script with no presses.
  static var empty: KeyScript { try! KeyScript(parsing: "") }
}
