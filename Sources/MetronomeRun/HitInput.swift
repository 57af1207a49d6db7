import JACKOutput
import MetronomeEngine
import PracticeListening

/// Wires the player's hits to a run: the JACK client's MIDI port `hits`, read at the start of
/// each cycle, its note-ons placed on the run's frames where the clicks are heard.
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
}
