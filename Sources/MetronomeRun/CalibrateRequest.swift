import MetronomeCore

/// `metronome calibrate`, checked: the tap-along, a run that ends once enough hits are scored and
/// saves their median, or a loopback measurement of the round trip through JACK or between two
/// ALSA devices.
public enum CalibrateRequest: Sendable {
  /// Hit along with the click, after a bar of count-in.
  case tapAlong(PlayRequest)
  /// The round trip from a JACK client's output (connected to `connections`; nil: the
  /// server's playback ports) back to its port `mic` (connected from `sources`; nil: the
  /// physical capture ports).
  case jackLoopback(clientName: String, connections: [String]?, sources: [String]?)
  /// What the path from the playback `device` back to the capture `listenDevice` adds beyond
  /// what the two report.
  case alsaLoopback(device: String, listenDevice: String, sampleRate: SampleRate)

  /// The calibration the options ask for; throws a usage error for a loopback with no input to
  /// find its signal on, a capture device given where it is not heard, notes chosen where keys are
  /// the hits, or a value out of range.
  public init(_ options: CalibrateOptions) throws(RunError) {
    let (client, hits) = (options.client, options.hits)
    guard options.loopback else {
      if hits.listenDevice != nil {
        throw .usage("--listen-device is for --loopback: the tap-along hears MIDI notes or keys")
      }
      // MIDI through JACK, or through the ALSA sequencer from the ports named; else the keys.
      let hearsMIDI = client.jack || hits.listenFrom != nil
      if !hearsMIDI,
        let given = hits.listenNotes != nil ? "--listen-notes" : hits.listenVelocity != 1 ? "--listen-velocity" : nil
      {
        throw .usage("\(given) chooses MIDI notes, and the tap-along hears keys here: add --jack or --listen-from")
      }
      var words = RhythmWords.givenNone
      words.words = [options.tempo]
      var play = PlayOptions.givenNone
      play.programme.countIn = .bars(1)
      play.sound.rate = options.rate
      (play.output.device, play.output.headless, play.output.events) = (
        options.device, options.headless, options.events
      )
      play.client = client
      play.listen.listen = hearsMIDI
      play.listen.hits = hits
      self = .tapAlong(try PlayRequest(words: words, options: play, calibrates: true))
      return
    }
    if client.jack {
      if hits.listenDevice != nil {
        throw .usage("with --jack the signal comes back on the port 'mic': connect it with --listen-from")
      }
      self = .jackLoopback(
        clientName: client.clientName, connections: client.connections, sources: hits.listenFrom?.ports)
    } else if let listenDevice = hits.listenDevice {
      let sampleRate: SampleRate
      do { sampleRate = try SampleRate(options.rate) } catch { throw .usage("\(error)") }
      self = .alsaLoopback(device: options.device, listenDevice: listenDevice, sampleRate: sampleRate)
    } else {
      throw .usage(
        "--loopback needs an input to find the signal on: --listen-device NAME (an ALSA capture device), or --jack")
    }
  }

  /// Runs it: plays the tap-along until it ends the process, or measures the round trip and
  /// returns what to tell of it.
  public func run() throws(RunError) -> [String] {
    switch self {
    case .tapAlong(let request):
      try Player.play(request)
      return []
    case .jackLoopback(let clientName, let connections, let sources):
      return try LoopbackCalibration.run(clientName: clientName, connections: connections, sources: sources)
    case .alsaLoopback(let device, let listenDevice, let sampleRate):
      return try LoopbackCalibration.run(device: device, listenDevice: listenDevice, sampleRate: sampleRate)
    }
  }
}
