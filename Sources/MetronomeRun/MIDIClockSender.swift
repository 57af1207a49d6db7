import ALSAOutput
import JACKOutput
import MetronomeAudio
import MetronomeEngine

/// MIDI clock sent for the beats played: on the JACK client's MIDI port with `--jack`, else on a
/// port of the ALSA sequencer, each message timed to when its frame is heard.
enum MIDIClockSender {
  /// What the run needs of the clock it sends: the port the display names, and what to do
  /// before the process ends so that no message is lost.
  struct Started {
    let port: String
    let finish: (@Sendable () -> Void)?
  }

  /// Sends MIDI clock to `destinations` for the beats `engine` renders into `sink`: on the JACK
  /// client's port, else on `sequencer`'s output port.
  ///
  /// Says on which port if `announce` is set. A JACK client that cannot add its port leaves the server.
  static func start(
    of engine: ClickEngine, through sink: any AudioSink, to destinations: [String], announce: Bool,
    sequencer: ALSASequencer?
  ) throws(RunError) -> Started {
    if let server = sink as? JACKSink {
      do {
        try server.addMIDIOutput(connections: destinations)
      } catch {
        server.stop()
        throw .runtime("\(error)")
      }
      engine.sendMIDIClock { start, frame, message in
        let bytes = message.bytes
        server.sendMIDI((bytes.0, bytes.1, bytes.2), count: bytes.count, atOffset: Int(frame - start))
      }
      return Started(port: "\(server.clientName):midi_out", finish: nil)
    }
    guard let sequencer, let address = sequencer.address else { return Started(port: "", finish: nil) }
    do {
      for destination in destinations { try sequencer.connect(to: destination) }
    } catch {
      throw .runtime("\(error)")
    }
    if announce {
      report(
        "MIDI clock on ALSA sequencer port \(address) (metronome:clock)"
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
    return Started(
      port: address,
      finish: {
        let dropped = sequencer.finish()
        if dropped > 0 {
          report(
            "\(dropped) MIDI clock messages were lost: the sequencer had no room for them (try a smaller --buffer)")
        }
      })
  }
}
