import ALSAOutput
import ArgumentParser
import Glibc
import JACKOutput
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeSession
import OpenCombine
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

      PATTERN gives each beat a level, as klick takes it: X strong, x normal, o weak, . silent \
      (metronome 6/8 120 X..x..); by default beat one is strong and the others normal. A \
      pattern waits out a meter of another length, which plays the default levels. \
      --subdivide divides each beat (3: triplets, 4: sixteenths), --swing swings even ones \
      (66.7: the triplet feel), --poly adds a second voice against the beats (3 in 4/4: 3 against 4).

      TEMPO may be klick's speed trainer START-TARGET/BARS: 80-120/10 rises evenly from 80 to 120 \
      over 10 bars per BPM, then holds 120. --map plays a song in klick's tempo-map format, a \
      section per line, '[label:] bars [meter] tempo [pattern] [volume]' (tempo t, a ramp t1-t2 or \
      one per beat t1,t2,…; # starts a comment), and after them what klick lacks: sub=3, \
      swing=66.7, gap=3:1, count-in=1, loop=2, step=5 to=120; tempo keys scale the map. A line \
      that does not parse is reported as FILE:LINE:COLUMN: error: … (status 65). --step 5/4 --to \
      120 raises the tempo by 5 every 4 bars up to 120 (--loop starts again). --count-in counts \
      bars in first; --gap 3:1 mutes every fourth bar, --gap 25% a random quarter of them, still \
      counted, to test your inner clock; --loop-bars 5-8 starts at bar 5 of the map and loops to \
      bar 8 until l releases it.

      --setlist plays songs one after another, a song per line, '[title:] song': a map file, a \
      map line (bars [meter] tempo …) or a tempo line (tempo [meter] [pattern]), each counted \
      in. On the display a song's end stops on the next one (Space counts it in); N and B move \
      between songs; printed and exported runs play the set through.

      When standard output is not a terminal (or with --headless) it prints one line per beat \
      as the beat is heard: seconds, bar, beat, 'sub K' for a subdivision's click or 'poly J/M' for \
      the second voice's, and its level (accent, regular, weak or silent); with --events none \
      it prints nothing and only plays.

      --jack plays as a JACK client of its own, rendering in the server's cycles (no ALSA, no \
      render thread), connected to the server's playback ports or to those --connect names; \
      --follow-transport then plays while the JACK transport rolls, on its master's beats, and \
      --timebase-master publishes the metronome's own bars, beats and tempo as that master.

      --midi-clock sends MIDI clock, 24 ticks a quarter on their exact frames: with --jack on the \
      client's JACK MIDI port, otherwise on the ALSA sequencer port metronome:clock, each tick \
      queued for the moment its frame is heard.

      The defaults play without underruns through PipeWire, a desktop's usual default device, \
      too. Should the device run dry although the metronome wrote in time (PulseAudio may, once), \
      the buffer doubles, up to four times its first size, unless --buffer was given. Where the \
      system allows it, the audio threads run at real-time priority. When the device plays on without the metronome for a moment (the process stopped, the machine \
      busy), the clicks come back on their grid: the beats in the gap are skipped, marked \
      'skipped' and counted at the end.

      Keys (in the display, and in --keys scripts as 'SECONDS KEY', keys named space, up, down, \
      left, right, esc or by their character; a script's keys land on their exact audio frame):
        \(KeyBindings.helpItems.joined(separator: "\n  "))
      """
  )

  @OptionGroup var meterAndTempo: MeterTempoOptions
  @OptionGroup var length: LengthOptions
  @OptionGroup var sound: SoundOptions
  @OptionGroup var program: ProgramOptions
  @OptionGroup var jackOptions: JACKOptions
  @OptionGroup var midiClockOptions: MIDIClockOptions

  @Option(help: "ALSA playback device (see `metronome devices`).")
  var device = "default"

  @Option(help: "ALSA period size in frames; each wake-up writes half the buffer, in whole periods.")
  var period = 256

  @Option(
    help: """
      ALSA buffer size in frames (at least two periods); it bounds the output latency. Without \
      it the buffer starts at 1024 (or two periods, if more) and doubles after each underrun, up \
      to four times that.
      """)
  var buffer: Int?

  /// The buffer to start with when `--buffer` is not given.
  private var startingBuffer: Int { max(1024, 2 * period) }

  @Flag(help: "List the ALSA playback devices and exit.")
  var listDevices = false

  @Flag(help: "Play no audio, paced in real time by the system clock.")
  var silent = false

  @Flag(help: "Run in virtual time: no audio and no waiting; print the exact beat timeline at once.")
  var virtual = false

  @Flag(help: "Print beats instead of showing the display, even in a terminal.")
  var headless = false

  @Option(help: "How headless runs print each beat: text, ndjson, or none (sound only).")
  var events: HeadlessEvents = .text

  @Option(help: ArgumentHelp("Replay timed key presses from FILE ('-' for standard input).", valueName: "file"))
  var keys: String?

  func validate() throws {
    guard (16...65_536).contains(period) else { throw ValidationError("--period must be from 16 to 65536 frames") }
    if jackOptions.jack, device != "default" || silent || period != 256 || buffer != nil {
      throw ValidationError(
        "--jack plays through the JACK server, which sets the period: drop --device, --period, --buffer and --silent")
    }
    if virtual, midiClockOptions.midiClock {
      throw ValidationError("--midi-clock sends the clock as the beats are heard: drop --virtual")
    }
    if let buffer, buffer < 2 * period || buffer > 1 << 20 {
      throw ValidationError("--buffer must be at least two periods (\(2 * period) frames) and at most 1048576")
    }
    _ = try PlaybackSettings(meterAndTempo, length, sound, program)
    if program.map == "-" || program.setlist == "-", keys == "-" {
      throw ValidationError(
        "--\(program.map == nil ? "setlist" : "map") - and --keys - both read standard input: give one of them a file")
    }
  }

  /// The key script, read once: standard input cannot be read twice.
  private var keyScript: KeyScript {
    get throws {
      guard let keys else { return KeyScript() }
      let text = TextFile.keyScript.textOrExit(of: keys)
      do { return try KeyScript(parsing: text) } catch { throw ValidationError("\(error)") }
    }
  }

  mutating func run() throws {
    if listDevices {
      DevicesCommand.printDevices()
      return
    }
    // Signals are watched before the terminal is touched, so none can leave it raw.
    let interrupts = virtual ? nil : InterruptWatcher()
    let interactive = !virtual && !headless && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    var settings: PlaybackSettings
    do {
      settings = try PlaybackSettings(
        meterAndTempo, length, sound, program, map: program.loadMap(), setlist: program.loadSetlist(),
        ownSounds: sound.ownSounds(for: Self.self))
    } catch {
      Metronome.exitWithUsage(of: Self.self, error)
    }
    // On the display a song's end waits for the player; a printed run plays the set through.
    settings.program.setlist = settings.program.setlist?.waiting(interactive)
    jackOptions.adapt(&settings)
    let script: KeyScript
    do {
      script = try keyScript
      let quits = script.presses.contains { KeyBindings.command(for: $0.key) == .quit }
      if virtual, settings.length == nil, !settings.program.ends, !quits {
        throw ValidationError(
          "a --virtual run needs --beats, --bars, --duration, a map that ends or a 'q' in --keys to end")
      }
    } catch {
      Metronome.exitWithUsage(of: Self.self, error)
    }
    let engine = ClickEngine(settings: settings)
    if virtual {
      try MainActor.assumeIsolated {
        // Every beat is rendered at once and shown as it is rendered, a tenth of a second per
        // period. Nothing to clean up, so signals keep their default action: Ctrl-C ends it.
        try play(
          engine, into: NullSink(sampleRate: settings.sampleRate), periodFrames: settings.sampleRate.hz / 10,
          script: script, outputName: "virtual", interrupts: nil, interactive: false, rendering: .inline,
          mainQueue: InlineScheduler())
      }
      return
    }
    let (sink, periodFrames, outputName) = try openOutput(settings, announce: !interactive)
    let syncStatus = try (sink as? JACKSink).flatMap { try jackOptions.connect(engine, to: $0) }
    let mainLoop = MainLoop()
    try MainActor.assumeIsolated {
      let midiClock = try midiClockOptions.send(of: engine, through: sink, announce: !interactive)
      try play(
        engine, into: sink, periodFrames: periodFrames, script: script, outputName: outputName,
        interrupts: interrupts, interactive: interactive, rendering: .onItsOwnThread, mainQueue: mainLoop,
        syncStatus: Self.status(syncStatus, midiClockPort: midiClock?.port), beforeExit: midiClock?.finish)
    }
    mainLoop.run()
  }

  /// Starts a session of `engine` into `sink` on `mainQueue`, with the display if `interactive`
  /// (showing `syncStatus`, if given), ending it cleanly on the signals `interrupts` catches and
  /// calling `beforeExit` last.
  @MainActor
  private func play<MainQueue: Scheduler & Sendable>(
    _ engine: ClickEngine, into sink: any AudioSink, periodFrames: Int, script: KeyScript, outputName: String,
    interrupts: InterruptWatcher?, interactive: Bool, rendering: MetronomeSession<MainQueue>.Rendering,
    mainQueue: MainQueue, syncStatus: (@Sendable () -> String)? = nil, beforeExit: (@Sendable () -> Void)? = nil
  ) throws {
    let presentation: SessionPresentation
    if interactive {
      let variable = { (name: String) in getenv(name).map { String(cString: $0) } }
      let colors = (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
      do {
        presentation = .display(try TerminalSession(), colors: colors)
      } catch {
        throw RuntimeError("\(error)")
      }
    } else {
      presentation = events.format.map(SessionPresentation.headless) ?? .soundOnly
    }
    let session = MetronomeSession(
      engine: engine, sink: sink, periodFrames: periodFrames, keys: script, presentation: presentation,
      outputName: outputName, reportsUnderruns: !silent && !virtual, rendering: rendering, mainQueue: mainQueue,
      outputs: .init(
        standardOutput: TextOutput.standardOutput.write, standardError: { TextOutput.standardError.write($0) },
        exit: { status in
          // A sound server's client leaves it before the process goes, so no cycle calls into an exiting process.
          (sink as? any CallbackAudioSink)?.stop()
          beforeExit?()
          Glibc.exit(status)
        }))
    session.syncStatus = syncStatus
    Self.running = (
      session,
      interrupts.map { SystemEvents(session: session, interrupts: $0, readsKeys: interactive, mainQueue: mainQueue) }
    )
    session.start()
  }

  /// What the display says of the sync: `status`, then the port the MIDI clock goes out on, if any.
  private static func status(_ status: (@Sendable () -> String)?, midiClockPort port: String?) -> (
    @Sendable () -> String
  )? {
    guard let port else { return status }
    let clock = "MIDI clock on \(port)"
    guard let status else { return { clock } }
    return { status() + " · " + clock }
  }

  /// The session and its event sources, kept for as long as the program runs.
  @MainActor private static var running: (AnyObject, AnyObject?)?

  /// Opens the audio output; says what was opened on standard error when `announce` is set.
  private func openOutput(_ settings: PlaybackSettings, announce: Bool) throws -> (any AudioSink, Int, String) {
    if jackOptions.jack {
      let server = try jackOptions.open(settings)
      if announce {
        report(
          "playing \(settings.meter) at \(settings.tempo) as JACK client '\(server.clientName)': \(server.sampleRate.hz) Hz,"
            + " \(server.bufferFrames) frames a cycle")
      }
      return (server, server.bufferFrames, "JACK '\(server.portName)'")
    }
    guard !silent else {
      if announce { report("playing \(settings.meter) at \(settings.tempo) silently") }
      // No device to keep fed: a long period means few wake-ups, while a key still takes effect
      // within one period (43 ms at 48 kHz).
      return (WallClockSink(sampleRate: settings.sampleRate), 2048, "silent")
    }
    let alsa: ALSASink
    do {
      // Opened at real-time priority, so that a sound server's client thread started by ALSA's
      // plugin runs at it too.
      alsa = try RealtimePriority.whileRaised {
        try ALSASink(
          device: device, sampleRate: settings.sampleRate, periodFrames: period,
          bufferFrames: buffer ?? startingBuffer, maximumBufferFrames: buffer ?? 4 * startingBuffer)
      }
    } catch {
      throw RuntimeError("\(error)")
    }
    if announce {
      let latency = Tempo.format(Double(alsa.pcm.bufferFrames) / Double(settings.sampleRate.hz) * 1000)
      report(
        "playing \(settings.meter) at \(settings.tempo) on '\(device)': \(settings.sampleRate.hz) Hz, period"
          + " \(alsa.pcm.periodFrames) frames, buffer \(alsa.pcm.bufferFrames) frames (\(latency) ms)")
    }
    return (alsa, alsa.pcm.writeFrames, "ALSA '\(device)'")
  }
}

/// What a headless run prints for each beat.
enum HeadlessEvents: String, CaseIterable, ExpressibleByArgument {
  case text
  case ndjson
  case none

  /// The format of its lines; nil when it prints nothing.
  var format: BeatEventFormat? { BeatEventFormat(rawValue: rawValue) }
}
