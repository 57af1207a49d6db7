import ArgumentParser
import MetronomeRun

/// `--jack` and what goes with it: the client's name and connections, following the transport or
/// being its timebase master, MIDI clock followed, and Ableton Link.
struct JACKOptions: ParsableArguments {
  @Flag(help: "Play as a JACK client of its own, rendering in the server's cycles, instead of through ALSA.")
  var jack = false

  @Option(help: ArgumentHelp("The JACK client's name.", valueName: "name"))
  var clientName = "metronome"

  @Flag(
    help: """
      With --jack, follow the JACK transport: play while it rolls, on its beats (a timebase master's bar, beat, \
      tempo and meter, or else its frame at this tempo).
      """)
  var followTransport = false

  @Flag(
    help: """
      With --jack, be the JACK transport's timebase master: publish bar, beat, tempo and meter, counted from the \
      transport's frame 0 at this tempo, and play while it rolls.
      """)
  var timebaseMaster = false

  @Flag(
    help: """
      With --jack, follow MIDI clock received on a JACK MIDI port, midi_in: play from its Start or Continue (at its \
      Song Position) to its Stop, on its ticks, at the tempo they beat.
      """)
  var followMIDIClock = false

  @Option(
    help: ArgumentHelp("JACK MIDI output ports to connect to midi_in, comma-separated.", valueName: "ports"))
  var midiClockFrom: String?

  @Flag(
    help: """
      With --jack, join (or start) an Ableton Link session on the local network: play on its tempo and beats, a bar \
      the quantum; tempo keys, play and pause go to every peer. Only in a build with the AbletonLink trait (GPL).
      """)
  var link = false

  @Option(
    help: ArgumentHelp(
      "JACK input ports to connect the click to, comma-separated; 'none' for none. Default: the server's"
        + " physical playback ports.", valueName: "ports"))
  var connect: String?

  /// The output's values given, into `output`.
  func fill(_ output: inout RequestOptions.Output) {
    (output.jack, output.clientName, output.connect) = (jack, clientName, connect)
  }

  /// The sync values given, into `sync`.
  func fill(_ sync: inout RequestOptions.Sync) {
    (sync.followTransport, sync.timebaseMaster) = (followTransport, timebaseMaster)
    (sync.followMIDIClock, sync.midiClockFrom, sync.link) = (followMIDIClock, midiClockFrom, link)
  }
}

/// `--midi-clock` and `--midi-connect`: MIDI clock sent for the beats played.
struct MIDIClockOptions: ParsableArguments {
  @Flag(
    help: """
      Send MIDI clock: 24 ticks a quarter note on their exact frames, Song Position and Start on bar one, Stop when \
      paused and when the run ends. With --jack on the client's JACK MIDI port midi_out, else on the ALSA \
      sequencer port metronome:clock, each tick timed to when its frame is heard.
      """)
  var midiClock = false

  @Option(
    help: ArgumentHelp(
      "Ports to connect the MIDI clock to, comma-separated: JACK MIDI input ports with --jack, else ALSA"
        + " sequencer ports (client:port, as `aconnect -o` lists them).", valueName: "ports"))
  var midiConnect: String?

  /// The values given, into `sync`.
  func fill(_ sync: inout RequestOptions.Sync) {
    (sync.midiClock, sync.midiConnect) = (midiClock, midiConnect)
  }
}
