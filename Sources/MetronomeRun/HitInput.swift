import ALSAOutput
import AudioListening
import JACKOutput
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import PracticeListening

/// Wires the player's hits to a run: the JACK client's MIDI port `hits` and audio port `mic`, or
/// the ALSA sequencer's port `hits`, read with each period, the note-ons and attacks placed on the
/// run's frames where the clicks are heard.
enum HitInput {
  /// Registers the MIDI port `hits` and the audio port `mic` on `server`, each connected from
  /// `request`'s sources of its kind once started; each cycle, the hits they received go to
  /// `deliver` (on JACK's thread).
  ///
  /// A note at offset `o` of a cycle that starts on the run's frame `s` reached the port on frame
  /// `s + o`; it was played the port's capture latency before that. A click rendered on frame `f`
  /// is heard the output's playback latency after it. So the hit is placed on
  /// `s + o - capture - playback - inputOffset` (`NotePlacement`), where a hit exactly on the click
  /// it heard has the click's frame.
  ///
  /// The output is taken out of what `mic` hears by the room canceller (`EchoPathCanceller`),
  /// which learns the whole path from the output to the input from `roundTrip` (as `calibrate
  /// --loopback` measured it, else the two latencies JACK reports) on. An attack on `mic` is
  /// placed on its frame less the round trip (the click's own, where its direct sound is heard;
  /// else `roundTrip`, which the summary names as `unheard`) and `audioOffset` (`Placement`).
  ///
  /// What `mic` notices of itself (cut at full scale, the click's path changed) goes to
  /// `noticed` (on JACK's thread), and so do the cycles the server ran without metronome, in
  /// which neither input was heard (nor `mic` for the listener's eleven milliseconds after, in
  /// which it hears anew).
  ///
  /// A tap-along (`hearsAudio` false) has `hits` alone: what it measures is saved for MIDI.
  static func listen(
    _ request: ListenRequest, inputOffset: Double, audioOffset: Double, roundTrip: Int64?, unheard: HitPlacement,
    hearsAudio: Bool,
    of engine: ClickEngine, through server: JACKSink, deliver: @escaping @Sendable (Hit) -> Void,
    noticed: @escaping @Sendable (InputNotice) -> Void
  ) throws(RunError) {
    let audioSources = hearsAudio ? request.sources.filter { server.isAudioPort($0) == true } : []
    let input: JACKSink.MIDIInput
    let microphone: JACKSink.AudioInput?
    do {
      input = try server.addMIDIInput(named: "hits", connections: request.sources.filter { !audioSources.contains($0) })
      microphone = hearsAudio ? try server.addAudioInput(named: "mic", connections: audioSources) : nil
    } catch {
      throw .runtime("\(error)")
    }
    let filter = request.filter
    let rate = Double(server.sampleRate.hz)
    let notePlacement = NotePlacement(inputOffset: inputOffset, sampleRate: server.sampleRate)
    let cycle = PeriodStart()
    var nextCycle: Int64?
    let listener = microphone.map { _ in
      AudioHitListener(
        canceller: EchoPathCanceller(roundTrip: roundTrip ?? 0), sampleRate: server.sampleRate, settings: request.onsets
      )
    }
    engine.beforeEachPeriod { cycleStart in
      // The player skips the cycles the server ran without metronome (xruns) before it renders the
      // next: what reached the inputs in them never reached metronome, and what `mic` hears next
      // jumps from what it heard before, which the listener must not take for an attack.
      if let nextCycle, cycleStart > nextCycle {
        heardAnew(at: cycleStart, unheard: cycleStart - nextCycle, by: listener, rate: server.sampleRate, noticed)
      }
      nextCycle = cycleStart + Int64(server.bufferFrames)
      cycle.set(cycleStart)
      let latency = server.latencyFrames(of: input)
      server.receiveMIDI(on: input) { frame, status, first, second in
        let played = notePlacement.frame(
          arrivedOn: cycleStart + Int64(frame), latency: Int64(latency.capture + latency.playback))
        if let hit = filter.hit(status: status, first, second, atFrame: played) { deliver(hit) }
      }
    }
    guard let microphone, let listener else { return }
    let audioShift = NotePlacement(inputOffset: audioOffset, sampleRate: server.sampleRate).offsetFrames
    server.afterEachCycle { output in
      // Nothing is heard before something is connected to 'mic': listening starts then.
      guard server.isConnected(microphone) else { return }
      listener.roundTrip =
        roundTrip ?? Int64(server.captureLatencyFrames(of: microphone) + server.playbackLatencyFrames)
      listener.listen(input: server.audio(of: microphone), output: output, from: cycle.frame, noticed: noticed) {
        attack, placement in
        let placedBy: HitPlacement =
          placement.heard
          ? .heardClick(milliseconds: Double(placement.roundTrip) * 1000 / rate)
          : unheard
        deliver(
          Hit(
            frame: placement.frame(ofAttackAt: attack.frame, offset: audioShift), note: Hit.audioNote,
            velocity: attack.velocity, placement: placedBy))
      }
    }
  }

  /// Has `listener` hear its input anew from the run's frame `first`, where it follows frames lost
  /// (`AudioHitListener.lostInput(before:)`), and says how long the hits went unheard: `frames`
  /// before it, and the listener's milliseconds after in which no attack starts.
  static func heardAnew(
    at first: Int64, unheard frames: Int64, by listener: AudioHitListener?, rate: SampleRate,
    _ noticed: (InputNotice) -> Void
  ) {
    let deaf = listener?.lostInput(before: first) ?? 0
    noticed(.unheard(milliseconds: Double(frames + deaf) * 1_000 / Double(rate.hz)))
  }

  /// Subscribes `sequencer`'s port `hits` to `request`'s sources; each period, the note-ons it
  /// stamped, less `inputOffset` ms (`NotePlacement`, as for JACK), go to `deliver` (on the
  /// render thread).
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
    let notePlacement = NotePlacement(inputOffset: inputOffset, sampleRate: engine.settings.sampleRate)
    var heard = HeardTime(sampleRate: engine.settings.sampleRate)
    engine.beforeEachPeriod { periodStart in
      if let reading = sink.timedOutputDelay() {
        heard.read(frame: periodStart, heardInFrames: reading.frames, atMicros: reading.nanoseconds / 1000)
      }
      sequencer.receiveNotes { status, note, velocity, nanoseconds in
        guard let frame = heard.frame(atMicros: nanoseconds / 1000) else { return }
        if let hit = filter.hit(status: status, note, velocity, atFrame: notePlacement.frame(arrivedOn: frame)) {
          deliver(hit)
        }
      }
    }
  }
}

/// The run's frame the period being rendered starts on, kept for what hears or writes the period
/// once it is rendered; touched only on the thread that renders.
final class PeriodStart: @unchecked Sendable {
  /// The frame of the period being rendered, or the last rendered.
  private(set) var frame: Int64 = 0
  /// Whether `frame` is a period's not yet taken.
  private var isNew = false

  /// Keeps `frame` as the start of the period being rendered.
  func set(_ frame: Int64) { (self.frame, isNew) = (frame, true) }

  /// The frame of the period just rendered, once: a write that follows no rendered period (the
  /// silence a player waits after a glitch) plays none of the run's frames.
  func take() -> Int64? {
    defer { isNew = false }
    return isNew ? frame : nil
  }
}
