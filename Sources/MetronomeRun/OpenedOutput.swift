import ALSAOutput
import JACKOutput
import MetronomeAudio
import MetronomeCore
import MetronomeEngine

/// A live output opened for a run: the sink, how many frames it takes at a time, and how the
/// display names it.
struct OpenedOutput {
  let sink: any AudioSink
  let periodFrames: Int
  let name: String

  /// Opens `output` for `settings`.
  ///
  /// Says what was opened on standard error when `announce` is set; throws a runtime error when
  /// the device or server cannot be had.
  static func open(
    _ output: PlayRequest.Output, _ settings: PlaybackSettings, announce: Bool, mustBeHeard: Bool = false
  ) throws(RunError) -> OpenedOutput {
    switch output {
    case .virtual:
      // Every beat is rendered at once and shown as it is rendered, a tenth of a second per period.
      return OpenedOutput(
        sink: NullSink(sampleRate: settings.sampleRate), periodFrames: settings.sampleRate.hz / 10, name: "virtual")
    case .jack(let clientName, let connections):
      let server = try openJACK(clientName: clientName, connections: connections, sampleRate: settings.sampleRate)
      if announce {
        report(
          "playing \(settings.meter) at \(settings.tempo) as JACK client '\(server.clientName)': \(server.sampleRate.hz) Hz,"
            + " \(server.bufferFrames) frames a cycle")
      }
      return OpenedOutput(sink: server, periodFrames: server.bufferFrames, name: "JACK '\(server.portName)'")
    case .silent:
      if announce { report("playing \(settings.meter) at \(settings.tempo) silently") }
      // No device to keep fed: a long period means few wake-ups, while a key still takes effect
      // within one period (43 ms at 48 kHz).
      return OpenedOutput(sink: WallClockSink(sampleRate: settings.sampleRate), periodFrames: 2048, name: "silent")
    case .alsa(let device, let period, let buffer):
      let alsa: ALSASink
      do {
        // Opened at real-time priority, so that a sound server's client thread started by ALSA's
        // plugin runs at it too.
        alsa = try RealtimePriority.whileRaised {
          try ALSASink(
            device: device, sampleRate: settings.sampleRate, periodFrames: period,
            bufferFrames: buffer.startingFrames, maximumBufferFrames: buffer.maximumFrames)
        }
      } catch let error as ALSAError {
        throw .runtime("\(mustBeHeard ? error.forARunThatMustBeHeard : error)")
      } catch {
        throw .runtime("\(error)")
      }
      if announce {
        let latency = Tempo.format(Double(alsa.pcm.bufferFrames) / Double(settings.sampleRate.hz) * 1000)
        report(
          "playing \(settings.meter) at \(settings.tempo) on '\(device)': \(settings.sampleRate.hz) Hz, period"
            + " \(alsa.pcm.periodFrames) frames, buffer \(alsa.pcm.bufferFrames) frames (\(latency) ms)")
      }
      return OpenedOutput(sink: alsa, periodFrames: alsa.pcm.writeFrames, name: "ALSA '\(device)'")
    }
  }

  /// Joins the JACK server as a client of its own, connected to `connections`, at `sampleRate`.
  private static func openJACK(clientName: String, connections: [String]?, sampleRate: SampleRate) throws(RunError)
    -> JACKSink
  {
    let server: JACKSink
    do {
      server = try JACKSink(clientName: clientName, connections: connections)
    } catch {
      throw .runtime("\(error)")
    }
    guard server.sampleRate == sampleRate else {
      server.stop()
      throw .runtime(
        "the JACK server runs at \(server.sampleRate.hz) Hz: give --rate \(server.sampleRate.hz), or start it at \(sampleRate.hz)"
      )
    }
    return server
  }
}
