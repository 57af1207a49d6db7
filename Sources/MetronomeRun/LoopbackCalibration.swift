import AudioListening
import Glibc
import JACKOutput
import MetronomeAudio
import PracticeListening
import Synchronization

/// `metronome calibrate --loopback --jack`: plays `LoopbackProbe`'s bursts on the JACK client's
/// output, finds them on its audio input `mic`, and saves the round trip, which later runs take
/// off every attack heard on `mic`.
public enum LoopbackCalibration {
  /// Measures the round trip from the output back to the input and saves it; returns the lines to say.
  ///
  /// The output plays into `connections` (nil for the physical playback ports), the input hears
  /// `sources` (nil for the physical capture ports). Throws a one-line error when nothing comes back, the path does not keep
  /// one delay, or nothing is connected to `mic` within 10 s: nothing is saved then.
  public static func run(clientName: String, connections: [String]?, sources: [String]?) throws(RunError) -> [String] {
    let server: JACKSink
    let microphone: JACKSink.AudioInput
    do {
      server = try JACKSink(clientName: clientName, connections: connections)
      microphone = try server.addAudioInput(
        named: "mic", connections: sources ?? server.physicalCapturePorts())
    } catch {
      throw .runtime("\(error)")
    }
    defer { server.stop() }
    let probe = LoopbackProbe(sampleRate: server.sampleRate)
    let run = ProbeRun(settle: server.sampleRate.hz)
    let sounds = [probe.burst]
    server.afterEachCycle { _ in
      guard let frame = run.frame else { return }
      probe.record(server.audio(of: microphone), from: frame)
      if probe.isDone { run.isDone.store(true, ordering: .releasing) }
    }
    do {
      try server.start(
        rendering: { frames in
          // The bursts start a second after something is connected to `mic`, so that it hears the first.
          guard run.connected || server.isConnected(microphone) else { return }
          run.connected = true
          let frame = run.advance(by: frames)
          guard let part = probe.burst(from: frame, frames: frames) else { return }
          run.spans[0] = RenderedPeriod.Span(
            offset: part.offset, sound: 0, clickPosition: part.position, count: part.count)
          try? server.write(RenderedPeriod(frames: frames, spans: run.spans[...], sounds: sounds))
        }, failed: { _ in run.serverWentAway.store(true, ordering: .releasing) })
    } catch {
      throw .runtime("\(error)")
    }
    let rate = server.sampleRate.hz
    // Ten seconds for something to be connected, then the probe's own time and two seconds more.
    var waited = 0
    while !run.isDone.load(ordering: .acquiring) {
      if run.serverWentAway.load(ordering: .acquiring) {
        throw .runtime("the JACK server went away during the measurement: nothing was saved")
      }
      if waited >= 10_000, !server.isConnected(microphone) {
        throw .runtime(
          "nothing was connected to '\(server.clientName):mic' within 10 s: give --listen-from PORT (what hears the"
            + " output), or connect it with jack_connect; nothing was saved")
      }
      if waited >= 10_000 + 2 * probe.duration * 1_000 / rate + 2_000 {
        throw .runtime("the JACK server did not run the measurement's cycles: is it stalled? nothing was saved")
      }
      usleep(20_000)
      waited += 20
    }
    // What JACK reports, read while the client is still in the server.
    let reported = (output: server.playbackLatencyFrames, input: server.captureLatencyFrames(of: microphone))
    server.stop()
    return try conclude(
      probe.roundTrip(), reported: reported, recordedEarlyBy: 0, rate: rate, saving: .jackRoundTrip,
      on: "'\(server.clientName):mic'", takenOffBy: "later --listen --jack runs take it off every attack on 'mic'")
  }

  /// What a probe's `result` says, saved as `source` when it can be trusted; else the one-line error.
  ///
  /// `source` keeps the whole round trip (JACK) or what the path adds to the `reported` latencies
  /// (ALSA). The input was recorded `margin` frames early, so that a path the devices
  /// report a little too long for is measured too.
  static func conclude(
    _ result: Result<LoopbackMeasurement, LoopbackError>, reported: (output: Int, input: Int),
    recordedEarlyBy margin: Int,
    rate: Int, saving source: Calibration.Source, on input: String, takenOffBy: String
  ) throws(RunError) -> [String] {
    switch result {
    case .failure(.nothingHeard):
      throw .runtime(
        "heard nothing of the test signal on \(input) within half a second: connect what hears the"
          + " output (--listen-from PORT) and turn it up; nothing was saved")
    case .failure(.unsteady(let burst, let frames)):
      throw .runtime(
        "burst \(burst) came back \(frames) frames away from where the others did: the path does not keep one delay;"
          + " nothing was saved")
    case .success(let found):
      let added = found.frames - margin
      let total = source == .jackRoundTrip ? found.frames : reported.output + reported.input + added
      let saved = Double(source == .jackRoundTrip ? total : added) * 1_000 / Double(rate)
      if let failure = CalibrationStore.save(source, saved) { throw .runtime(failure) }
      let level = 20 * log10(Double(max(abs(found.gain), 1e-9)))
      return [
        "round trip \(total) frames (\(HitLine.thousandths(Double(total) * 1_000 / Double(rate))) ms at \(rate) Hz),"
          + " back at \(HitStatistics.format(level)) dB\(found.gain < 0 ? " upside down" : ""): \(source == .jackRoundTrip ? "JACK reports" : "the devices report")"
          + " \(reported.output + reported.input) (output \(reported.output), input \(reported.input)), the path adds"
          + " \(total - reported.output - reported.input)",
        "saved in \(CalibrationStore.path ?? "the calibration file"): \(takenOffBy)",
      ]
    }
  }
}

/// Where a loopback measurement is: touched on JACK's thread, but for the flags the main thread
/// waits on.
private final class ProbeRun: @unchecked Sendable {
  /// Frames of silence between the input's being connected and the first burst.
  let settle: Int
  /// Whether something was connected to the input.
  var connected = false
  /// Frames played since it was.
  private var played = 0
  /// The one span a cycle plays, kept so that no cycle allocates one.
  var spans = [RenderedPeriod.Span(offset: 0, sound: 0, clickPosition: 0, count: 0)]
  /// The frame of the cycle being rendered, counted from the first burst's start.
  private(set) var frame: Int?
  let isDone = Atomic<Bool>(false)
  let serverWentAway = Atomic<Bool>(false)

  init(settle: Int) { self.settle = settle }

  /// The cycle of `frames` about to be played: its first frame from the first burst's start.
  func advance(by frames: Int) -> Int {
    let first = played - settle
    played += frames
    frame = first
    return first
  }
}
