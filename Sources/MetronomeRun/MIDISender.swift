import ALSAOutput
import JACKOutput
import MetronomeAudio
import MetronomeEngine

/// MIDI clock and the clicks' notes sent for the beats played: on the JACK client's MIDI port with
/// `--jack`, else on a port of the ALSA sequencer, each message timed to when its frame is heard.
enum MIDISender {
  /// What the run needs of the MIDI it sends: what the display says of it (`MIDI notes on
  /// metronome:midi_out`), and what to do before the process ends so that no message is lost.
  struct Started {
    let status: String
    let finish: (@Sendable () -> Void)?
  }

  /// Sends what `request` asks for the beats `engine` renders into `sink`: on the JACK client's
  /// port, else on `sequencer`'s output port.
  ///
  /// Says on which port if `announce` is set. A JACK client that cannot add its port leaves the server.
  static func start(
    _ request: MIDIRequest, of engine: ClickEngine, through sink: any AudioSink, announce: Bool,
    sequencer: ALSASequencer?
  ) throws(RunError) -> Started {
    if let server = sink as? JACKSink {
      do {
        try server.addMIDIOutput(connections: request.destinations)
      } catch {
        server.stop()
        throw .runtime("\(error)")
      }
      engine.sendMIDI(clock: request.sendsClock, notes: request.notes) { start, frame, message in
        let bytes = message.bytes
        server.sendMIDI((bytes.0, bytes.1, bytes.2), count: bytes.count, atOffset: Int(frame - start))
      }
      return Started(status: "\(request.name) on \(server.clientName):midi_out", finish: nil)
    }
    guard let sequencer, let address = sequencer.address else { return Started(status: request.name, finish: nil) }
    do {
      for destination in request.destinations { try sequencer.connect(to: destination) }
    } catch {
      throw .runtime("\(error)")
    }
    if announce {
      report(
        "\(request.name) on ALSA sequencer port \(address) (metronome:\(request.sequencerPort))"
          + (sequencer.isPrecise ? "" : ", timed by the system timer: late by up to a kernel tick"))
    }
    var timing = HeardMIDIMessages<MIDIMessage>(
      sampleRate: engine.settings.sampleRate,
      room: HeardMIDIMessages<MIDIMessage>.room(
        forFrames: 2 * max(sink.bufferFrames, 1), at: engine.settings.sampleRate, notes: request.notes != nil))
    engine.sendMIDI(clock: request.sendsClock, notes: request.notes) { start, frame, message in
      timing.send(
        message, atFrame: frame, periodStart: start, nowNanoseconds: MonotonicClock.nanoseconds,
        // A closure rather than the method itself, whose partial application would allocate on
        // the render thread for every message.
        delay: { sink.timedOutputDelay() },
        to: { message, micros in
          let bytes = message.bytes
          sequencer.send(bytes.0, bytes.1, bytes.2, atMicros: micros)
        })
    }
    return Started(
      status: "\(request.name) on \(address)",
      finish: {
        let dropped = sequencer.finish()
        if dropped > 0 {
          report("\(dropped) MIDI messages were lost: the sequencer had no room for them (try a smaller --buffer)")
        }
      })
  }
}
