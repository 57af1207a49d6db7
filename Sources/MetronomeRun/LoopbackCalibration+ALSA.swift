import ALSAOutput
import AudioListening
import MetronomeAudio
import MetronomeCore
import PracticeListening
import Synchronization

extension LoopbackCalibration {
  /// Measures what the path from the ALSA playback device `device` back to the capture device
  /// `listenDevice`, both at `rate`, takes beyond what the two devices report, and saves it;
  /// returns the lines to say.
  ///
  /// The probe's bursts are written to the output from its second second on; the input's frames
  /// are placed among the output's as listening places them (`CaptureClock`), so what is found is
  /// what a later `--listen-device` run does not know of. Throws a one-line error when a device
  /// cannot be had or stops, when a stream moves during the measurement, or when nothing comes
  /// back or the path does not keep one delay: nothing is saved then.
  public static func run(device: String, listenDevice: String, sampleRate rate: SampleRate) throws(RunError)
    -> [String]
  {
    let sink: ALSASink
    let capture: ALSACapture
    do {
      // At real-time priority, so that a sound server's client threads started by ALSA's plugins run at it too.
      (sink, capture) = try RealtimePriority.whileRaised {
        (
          try ALSASink(device: device, sampleRate: rate, periodFrames: 256, bufferFrames: 1_024),
          try ALSACapture(device: listenDevice, sampleRate: rate, periodFrames: 1_024, bufferFrames: 8_192)
        )
      }
    } catch let error as ALSAError {
      throw .runtime("\(error.forARunThatMustBeHeard)")
    } catch {
      throw .runtime("\(error)")
    }
    let probe = LoopbackProbe(sampleRate: rate)
    let start = rate.hz
    // Recorded 10 ms early: the devices' reports may make the path look a little shorter than nothing.
    let margin = rate.hz / 100
    let output = sink.pcm.positionReader
    let clock = CaptureClock(sampleRate: rate, periodFrames: capture.pcm.periodFrames, output: { output.position() })
    let heard = Atomic<Bool>(false)
    // The placement of the input's frames as the bursts began, and the furthest it moved from it since.
    let placements = Mutex<(first: Int64?, moved: Int64)>((nil, 0))
    // Frames the input had taken in but not yet given, as last read.
    let inputDelay = Atomic<Int64>(0)
    let stopped = Mutex<String?>(nil)
    capture.start(
      deliver: { samples, firstFrame, position, lostFrames in
        if let position {
          inputDelay.store(position.heardFrames - firstFrame - Int64(samples.count), ordering: .relaxed)
        }
        guard let offset = clock.place(position, lostFrames: lostFrames).offset else { return }
        // A stream that moved once the bursts began (a sound server's glitch) moved the placement:
        // the bursts heard before and after it were measured on two different paths.
        let frame = Int(firstFrame + offset) - start + margin
        if frame >= 0 {
          placements.withLock { $0 = ($0.first ?? offset, max($0.moved, abs(offset - ($0.first ?? offset)))) }
        }
        probe.record(samples, from: frame)
        if probe.isDone { heard.store(true, ordering: .releasing) }
      }, failed: { error in stopped.withLock { $0 = "\(error)" } })
    defer { capture.stop() }
    let sounds = [probe.burst]
    var spans = [RenderedPeriod.Span(offset: 0, sound: 0, clickPosition: 0, count: 0)]
    var frame = 0
    let frames = sink.pcm.writeFrames
    // The probe's own time, a second before it and two after.
    while !heard.load(ordering: .acquiring), frame < start + probe.duration + 2 * rate.hz {
      var period = RenderedPeriod(silence: frames)
      if let part = probe.burst(from: frame - start, frames: frames) {
        spans[0] = RenderedPeriod.Span(offset: part.offset, sound: 0, clickPosition: part.position, count: part.count)
        period = RenderedPeriod(frames: frames, spans: spans[...], sounds: sounds)
      }
      do { try sink.write(period) } catch { throw .runtime("\(error); nothing was saved") }
      if let failure = stopped.withLock({ $0 }) { throw .runtime("\(failure); nothing was saved") }
      frame += frames
    }
    capture.stop()
    guard heard.load(ordering: .acquiring) else {
      throw .runtime(
        "'\(listenDevice)' did not bring the measurement's audio in time: is it running at \(rate.hz) Hz? nothing was saved"
      )
    }
    let moved = placements.withLock { $0.moved }
    if moved > 0 {
      throw .runtime(
        "a stream moved by \(moved) frames during the measurement (the sound server lost or held some audio):"
          + " nothing was saved; measure again")
    }
    let reported = (output: Int(sink.outputDelayFrames), input: Int(inputDelay.load(ordering: .relaxed)))
    return try conclude(
      probe.roundTrip(), reported: reported, recordedEarlyBy: margin, rate: rate.hz, saving: .alsaUnreportedLatency,
      on: "'\(listenDevice)'", takenOffBy: "later --listen-device runs take what the path adds off every attack")
  }
}
