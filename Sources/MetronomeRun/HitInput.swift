import ALSAOutput
import JACKOutput
import MetronomeAudio
import MetronomeEngine
import PracticeListening

/// Wires the player's hits to a run: the JACK client's MIDI port `hits`, or the ALSA sequencer's,
/// read at the start of each period, its note-ons placed on the run's frames where the clicks are
/// heard.
enum HitInput {
  /// Registers the port `hits` on `server`, connected from `request`'s sources once started;
  /// each cycle, the hits it received, less `inputOffset` ms, go to `deliver` (on JACK's thread).
  ///
  /// A note at offset `o` of a cycle that starts on the run's frame `s` reached the port on frame
  /// `s + o`; it was played the port's capture latency before that. A click rendered on frame `f`
  /// is heard the output's playback latency after it. So the hit is placed on
  /// `s + o - capture - playback - input offset`, where a hit exactly on the click it heard has the
  /// click's frame.
  static func listen(
    _ request: ListenRequest, inputOffset: Double, of engine: ClickEngine, through server: JACKSink,
    deliver: @escaping @Sendable (Hit) -> Void
  ) throws(RunError) {
    let input: JACKSink.MIDIInput
    do { input = try server.addMIDIInput(named: "hits", connections: request.sources) } catch {
      throw .runtime("\(error)")
    }
    let filter = request.filter
    let offset = Int64((inputOffset * Double(server.sampleRate.hz) / 1000).rounded())
    engine.beforeEachPeriod { cycleStart in
      let latency = server.latencyFrames(of: input)
      let shift = Int64(latency.capture + latency.playback) + offset
      server.receiveMIDI(on: input) { frame, status, first, second in
        if let hit = filter.hit(status: status, first, second, atFrame: cycleStart + Int64(frame) - shift) {
          deliver(hit)
        }
      }
    }
  }

  /// Subscribes `sequencer`'s port `hits` to `request`'s sources; each period, the note-ons it
  /// stamped, less `inputOffset` ms, go to `deliver` (on the render thread).
  ///
  /// The sequencer stamps a note on the monotonic clock as it arrives; the device's delay, read
  /// before each period, says when the run's frames are heard on that clock (`HeardTime`, which
  /// smooths the readings' jitter as the MIDI clock sent does); a note is placed on the frame
  /// heard when it arrived. Notes that arrive before the device has said when it plays (as it
  /// starts) are let go.
  static func listen(
    _ request: ListenRequest, inputOffset: Double, of engine: ClickEngine, through sink: any AudioSink,
    sequencer: ALSASequencer, deliver: @escaping @Sendable (Hit) -> Void
  ) throws(RunError) {
    do {
      for source in request.sources { try sequencer.connect(from: source) }
    } catch {
      throw .runtime("\(error)")
    }
    let filter = request.filter
    let offset = Int64((inputOffset * Double(engine.settings.sampleRate.hz) / 1000).rounded())
    var heard = HeardTime(sampleRate: engine.settings.sampleRate)
    engine.beforeEachPeriod { periodStart in
      if let reading = sink.timedOutputDelay() {
        heard.read(frame: periodStart, heardInFrames: reading.frames, atMicros: reading.nanoseconds / 1000)
      }
      sequencer.receiveNotes { status, note, velocity, nanoseconds in
        guard let frame = heard.frame(atMicros: nanoseconds / 1000) else { return }
        if let hit = filter.hit(status: status, note, velocity, atFrame: frame - offset) { deliver(hit) }
      }
    }
  }
}
