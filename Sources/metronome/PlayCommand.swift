import ArgumentParser
import MetronomeRun
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

  @Flag(help: "List the ALSA playback devices and exit.")
  var listDevices = false

  @Flag(help: "Play no audio, paced in real time by the system clock.")
  var silent = false

  @Flag(help: "Run in virtual time: no audio and no waiting; print the exact beat timeline at once.")
  var virtual = false

  @Flag(help: "Print beats instead of showing the display, even in a terminal.")
  var headless = false

  @Option(help: "How headless runs print each beat: text, ndjson, or none (sound only).")
  var events: RequestOptions.BeatEvents = .text

  @Option(help: ArgumentHelp("Replay timed key presses from FILE ('-' for standard input).", valueName: "file"))
  var keys: String?

  /// The request the options make, checked.
  private var request: PlayRequest {
    get throws(RunError) {
      var output = RequestOptions.Output()
      (output.device, output.period, output.buffer) = (device, period, buffer)
      (output.silent, output.virtual, output.headless, output.events, output.keys) =
        (silent, virtual, headless, events, keys)
      var sync = RequestOptions.Sync()
      jackOptions.fill(&output)
      jackOptions.fill(&sync)
      midiClockOptions.fill(&sync)
      let music = try MusicRequest(meterAndTempo.options, length.options, sound.options, program.options)
      return try PlayRequest(music: music, output: output, sync: sync)
    }
  }

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      let request = try request
      if listDevices {
        DevicesCommand.printDevices()
        return
      }
      try Player.play(request)
    }
  }
}

extension RequestOptions.BeatEvents: ExpressibleByArgument {}
