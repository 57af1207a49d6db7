import MetronomeCore

/// MIDI sent as the beats are heard: the clock, a note for each click, or both, on one port.
public struct MIDIRequest: Sendable, Equatable {
  /// Whether MIDI clock is sent.
  public let sendsClock: Bool
  /// The notes each kind of click is sent as; nil sends no notes.
  public let notes: MIDINoteMap?
  /// Where it goes: JACK ports with `--jack`, sequencer ports otherwise.
  public let destinations: [String]

  /// What `sync` asks to send, if anything; throws a usage error for a connection or a note map
  /// given without what it is for, or MIDI asked of a virtual run, which no one hears.
  static func make(_ sync: SyncOptions, virtual: Bool) throws(RunError) -> MIDIRequest? {
    if sync.midiConnect != nil, !sync.midiClock, !sync.midiNotes {
      throw .usage("--midi-connect connects the MIDI clock and notes: add --midi-clock or --midi-notes")
    }
    if sync.midiNoteMap != nil, !sync.midiNotes {
      throw .usage("--midi-note-map sets the notes --midi-notes sends: add --midi-notes")
    }
    if virtual, sync.midiClock {
      throw .usage("--midi-clock sends the clock as the beats are heard: drop --virtual")
    }
    if virtual, sync.midiNotes {
      throw .usage("--midi-notes sends the notes as the clicks are heard: drop --virtual")
    }
    guard sync.midiClock || sync.midiNotes else { return nil }
    return MIDIRequest(
      sendsClock: sync.midiClock, notes: sync.midiNotes ? sync.midiNoteMap ?? MIDINoteMap() : nil,
      destinations: sync.midiConnect?.ports ?? [])
  }

  /// MIDI as given.
  public init(sendsClock: Bool, notes: MIDINoteMap?, destinations: [String]) {
    self.sendsClock = sendsClock
    self.notes = notes
    self.destinations = destinations
  }

  /// What it sends, as messages name it: `MIDI clock`, `MIDI notes` or `MIDI clock and notes`.
  public var name: String { "MIDI " + sequencerPort }

  /// The name of the ALSA sequencer's port it goes out on: `clock`, `notes` or `clock and notes`.
  var sequencerPort: String {
    [sendsClock ? "clock" : nil, notes != nil ? "notes" : nil].compactMap(\.self).joined(separator: " and ")
  }
}
