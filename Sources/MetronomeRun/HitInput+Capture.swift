import ALSAOutput
import AudioListening
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import PracticeListening

extension HitInput {
  /// Listens through the ALSA capture device `device` on a thread of its own, which it returns:
  /// its attacks go to `deliver` as hits, what it notices of itself (cut at full scale, the
  /// click's path changed) to `noticed`, and `failed` gets one line if it stops.
  ///
  /// The device keeps its own clock. Its frames are placed on the output's by when each device
  /// says it hears them (`CaptureAlignment`, from half a second into the run), which is only as
  /// exact as the devices' positions; the room canceller (`EchoPathCanceller`) learns the path
  /// from the output `sink` plays to what the device hears from `EchoPathCanceller.lead` frames
  /// before that alignment plus `unreported` (what `calibrate --loopback` measured beyond the
  /// devices' own reports), and takes it out.
  ///
  /// An attack is placed on its frame less that round trip and `audioOffset` ms (`Placement`), as
  /// an attack on JACK's `mic` is. Where the device hears the click (a microphone beside the
  /// speaker, a cable), the round trip is the click's own, where its direct sound is heard,
  /// whatever error the positions have; where it does not (headphones), it is the positions'
  /// alignment plus `unreported`, which the summary names as `unheard` (a calibration, or the
  /// devices' reports).
  static func listen(
    capturing device: String, _ request: ListenRequest, unreported: Int64, unheard: HitPlacement, audioOffset: Double,
    of engine: ClickEngine, through sink: ALSASink, deliver: @escaping @Sendable (Hit) -> Void,
    noticed: @escaping @Sendable (InputNotice) -> Void,
    failed: @escaping @Sendable (String) -> Void
  ) throws(RunError) -> ALSACapture {
    let rate = engine.settings.sampleRate
    let capture: ALSACapture
    do {
      // Opened at real-time priority, as the output is, so that a sound server's client thread
      // started by ALSA's plugin runs at it too.
      capture = try RealtimePriority.whileRaised {
        try ALSACapture(device: device, sampleRate: rate, periodFrames: 1_024, bufferFrames: 8_192)
      }
    } catch {
      throw .runtime("\(error)")
    }
    // Everything heard is placed on the run's frames, which a glitch of the output does not move
    // once the player has skipped or waited to keep the clicks on their grid: the stream's do.
    let played = PlayedRing()
    let runFrames = RunFrameMap(sampleRate: rate)
    let period = PeriodStart()
    engine.beforeEachPeriod { period.set($0) }
    sink.beforeEachWrite { samples, streamFrame in
      guard let runFrame = period.take() else { return }
      runFrames.note(
        streamFrame: streamFrame, frames: samples.count, plays: runFrame, sounds: samples.contains { $0 != 0 },
        ranDryAt: sink.pcm.ranDryAt, bufferFrames: sink.bufferFrames)
      played.write(samples, from: runFrame)
    }
    let output = sink.pcm.positionReader
    let clock = CaptureClock(
      sampleRate: rate, periodFrames: capture.pcm.periodFrames, output: { output.position() }, runFrames: runFrames)
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: unreported), sampleRate: rate, settings: request.onsets)
    let shift = Int64((audioOffset * Double(rate.hz) / 1000).rounded())
    let gaps = InputGaps()
    capture.start(
      deliver: { samples, firstFrame, position, lostFrames in
        // Frames the input lost went unheard, and so did those it gave from its first late reading
        // until it said it moved, and while its clock was placed anew; what is heard next jumps
        // from what was heard before.
        clock.take(samples, from: firstFrame, position: position, lostFrames: lostFrames, lost: gaps.lostFrames) {
          samples, first in
          if let unheard = gaps.heard(from: first, frames: samples.count) {
            heardAnew(at: first, unheard: unheard, by: listener, rate: rate, noticed)
          }
          played.readNew { listener.played($0, from: $1) }
          listener.listen(
            input: samples, output: UnsafeBufferPointer(start: nil, count: 0), from: first, noticed: noticed
          ) {
            attack, placement in
            guard !runFrames.glitched(runFrame: placement.frame(ofAttackAt: attack.frame, offset: 0)) else {
              noticed(.heardWhereTheOutputGlitched)
              return
            }
            // The round trip beyond the devices' positions is all that is known here, not the whole.
            let placedBy: HitPlacement =
              placement.heard ? .heardClick(milliseconds: nil) : unheard
            deliver(
              Hit(
                frame: placement.frame(ofAttackAt: attack.frame, offset: shift), note: Hit.audioNote,
                velocity: attack.velocity, placement: placedBy))
          }
        }
      },
      failed: { error in failed("\(error) (listening stopped there)") })
    return capture
  }
}
