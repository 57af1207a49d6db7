import ALSAOutput
import ArgumentParser
import JACKOutput
import MetronomeAudio
import MetronomeEngine

/// `--midi-clock` and `--midi-connect`: MIDI clock sent for the beats played, on the JACK
/// client's MIDI port with `--jack`, else on a port of the ALSA sequencer; and the wiring of
/// either to the engine.
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

  func validate() throws {
    if midiConnect != nil, !midiClock {
      throw ValidationError("--midi-connect connects the MIDI clock: add --midi-clock")
    }
  }

  /// Sends MIDI clock, if asked, for the beats `engine` renders into `sink`.
  ///
  /// Says on which port if `announce` is set; returns the port, as the display names it, and
  /// what the program must do before it ends so that no message is lost, if anything. A JACK
  /// client that cannot add its port leaves the server.
  func send(of engine: ClickEngine, through sink: any AudioSink, announce: Bool) throws -> (
    port: String, finish: (@Sendable () -> Void)?
  )? {
    guard midiClock else { return nil }
    if let server = sink as? JACKSink {
      do {
        try server.addMIDIOutput(connections: JACKOptions.ports(midiConnect))
      } catch {
        server.stop()
        throw RuntimeError("\(error)")
      }
      engine.sendMIDIClock { start, frame, message in
        let bytes = message.bytes
        server.sendMIDI((bytes.0, bytes.1, bytes.2), count: bytes.count, atOffset: Int(frame - start))
      }
      return ("\(server.clientName):midi_out", nil)
    }
    let sequencer: ALSASequencer
    do {
      sequencer = try ALSASequencer(clientName: "metronome", portName: "clock")
      for destination in JACKOptions.ports(midiConnect) { try sequencer.connect(to: destination) }
    } catch {
      throw RuntimeError("\(error)")
    }
    if announce {
      report(
        "MIDI clock on ALSA sequencer port \(sequencer.address) (metronome:clock)"
          + (sequencer.isPrecise ? "" : ", timed by the system timer: late by up to a kernel tick"))
    }
    var timing = HeardClockMessages(
      sampleRate: engine.settings.sampleRate,
      room: HeardClockMessages.room(forFrames: 2 * max(sink.bufferFrames, 1), at: engine.settings.sampleRate))
    engine.sendMIDIClock { start, frame, message in
      timing.send(
        message, atFrame: frame, periodStart: start, nowNanoseconds: MonotonicClock.nanoseconds,
        // A closure rather than the method itself, whose partial application would allocate on
        // the render thread for every message.
        delay: { sink.timedOutputDelay() },
        to: { message, micros in
          let bytes = message.bytes
          sequencer.send(bytes.0, bytes.1, bytes.2, inMicros: micros)
        })
    }
    return (
      sequencer.address,
      {
        let dropped = sequencer.finish()
        if dropped > 0 {
          report(
            "\(dropped) MIDI clock messages were lost: the sequencer had no room for them (try a smaller --buffer)")
        }
      }
    )
  }
}
