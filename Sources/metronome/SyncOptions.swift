import ArgumentParser
import MetronomeRun

/// `--jack` and the clocks: the JACK client, the transport it follows or leads, MIDI clock in and
/// out, the clicks as MIDI notes, and Ableton Link.
struct SyncOptions: ParsableArguments {
  @OptionGroup var client: JACKClientOptions

  @Flag(help: "Play with the JACK transport, on its beats.")
  var followTransport = false

  @Flag(help: ArgumentHelp("Lead the JACK transport as timebase master.", visibility: .fullHelpOnly))
  var timebaseMaster = false

  @Flag(help: "Follow MIDI clock received on midi_in.")
  var followMIDIClock = false

  @Option(
    help: ArgumentHelp("JACK ports to take MIDI clock from.", valueName: "ports", visibility: .fullHelpOnly),
    completion: .jackPorts([.midi], inputs: false))
  var midiClockFrom: String?

  @Flag(help: "Join an Ableton Link session (a GPL build).")
  var link = false

  @Flag(help: "Send MIDI clock on the beats' exact frames.")
  var midiClock = false

  @Flag(help: "Send each click as a MIDI note (channel 10).")
  var midiNotes = false

  @Option(
    help: ArgumentHelp("Notes per voice, as --samples: NOTE[/CHANNEL],…", valueName: "notes", visibility: .fullHelpOnly)
  )
  var midiNoteMap: String?

  @Option(
    help: ArgumentHelp("Ports to send MIDI clock and notes to (JACK or ALSA).", valueName: "ports"),
    completion: .jackPorts([.midi], inputs: true))
  var midiConnect: String?

  /// The JACK client's values, into `output`.
  func fill(_ output: inout RequestOptions.Output) { client.fill(&output) }

  /// The values given.
  var options: RequestOptions.Sync {
    var sync = RequestOptions.Sync()
    (sync.followTransport, sync.timebaseMaster) = (followTransport, timebaseMaster)
    (sync.followMIDIClock, sync.midiClockFrom, sync.link) = (followMIDIClock, midiClockFrom, link)
    (sync.midiClock, sync.midiNotes, sync.midiNoteMap, sync.midiConnect) = (
      midiClock, midiNotes, midiNoteMap, midiConnect
    )
    return sync
  }
}

/// `--jack`, `--client-name` and `--connect`: the JACK client played through, for playing and
/// calibrating alike.
struct JACKClientOptions: ParsableArguments {
  @Flag(help: "Play as a JACK client instead of through ALSA.")
  var jack = false

  @Option(help: ArgumentHelp("The JACK client's name.", valueName: "name", visibility: .fullHelpOnly))
  var clientName = "metronome"

  @Option(
    help: ArgumentHelp("JACK ports to play into; none for none.", valueName: "ports"),
    completion: .jackPorts([.audio], inputs: true))
  var connect: String?

  /// The values given, into `output`.
  func fill(_ output: inout RequestOptions.Output) {
    (output.jack, output.clientName, output.connect) = (jack, clientName, connect)
  }
}
