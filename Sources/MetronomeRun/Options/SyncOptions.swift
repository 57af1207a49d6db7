import ArgumentParser
import MetronomeCore

/// The clocks: the JACK transport followed or led, MIDI clock in and out, the clicks as MIDI
/// notes, and Ableton Link.
public struct SyncOptions: ParsableArguments, Sendable {
  /// `--follow-transport`.
  @Flag(help: "Play with the JACK transport, on its beats.")
  public var followTransport = false

  /// `--timebase-master`.
  @Flag(help: ArgumentHelp("Lead the JACK transport as timebase master.", visibility: .fullHelpOnly))
  public var timebaseMaster = false

  /// `--follow-midi-clock`.
  @Flag(help: "Follow MIDI clock received on midi_in.")
  public var followMIDIClock = false

  /// `--midi-clock-from`: JACK ports.
  @Option(
    help: ArgumentHelp("JACK ports to take MIDI clock from.", valueName: "ports", visibility: .fullHelpOnly),
    completion: .jackPorts([.midi], inputs: false), transform: NameList.init(parsing:))
  public var midiClockFrom: NameList?

  /// `--link`: Ableton Link.
  @Flag(help: "Join an Ableton Link session (a GPL build).")
  public var link = false

  /// `--midi-clock`: send MIDI clock.
  @Flag(help: "Send MIDI clock on the beats' exact frames.")
  public var midiClock = false

  /// `--midi-notes`: send a note for each click.
  @Flag(help: "Send each click as a MIDI note (channel 10).")
  public var midiNotes = false

  /// `--midi-note-map`: the notes per voice.
  @Option(
    help: ArgumentHelp(
      "Notes per voice, as --samples: NOTE[/CHANNEL],…", valueName: "notes", visibility: .fullHelpOnly),
    transform: { try MIDINoteMap(parsing: $0) })
  public var midiNoteMap: MIDINoteMap?

  /// `--midi-connect`: where the clock and the notes go.
  @Option(
    help: ArgumentHelp("Ports to send MIDI clock and notes to (JACK or ALSA).", valueName: "ports"),
    completion: .jackPorts([.midi], inputs: true), transform: NameList.init(parsing:))
  public var midiConnect: NameList?

  /// The metronome's own clock, sending nothing.
  public init() {}
}

/// `--jack`, `--client-name` and `--connect`: the JACK client played through, for playing and
/// calibrating alike.
public struct JACKClientOptions: ParsableArguments, Sendable {
  /// `--jack`: a JACK client of its own.
  @Flag(help: "Play as a JACK client instead of through ALSA.")
  public var jack = false

  /// `--client-name`.
  @Option(help: ArgumentHelp("The JACK client's name.", valueName: "name", visibility: .fullHelpOnly))
  public var clientName = "metronome"

  /// `--connect`: JACK ports to play into, `none` for none; nil for the server's playback ports.
  @Option(
    help: ArgumentHelp("JACK ports to play into; none for none.", valueName: "ports"),
    completion: .jackPorts([.audio], inputs: true), transform: NameList.init(parsing:))
  public var connect: NameList?

  /// Through ALSA.
  public init() {}

  /// The ports `--connect` names: nil (the server's playback ports) where it is not given, none
  /// for `none`.
  public var connections: [String]? { connect.map { $0 == ["none"] ? [] : $0.ports } }
}
