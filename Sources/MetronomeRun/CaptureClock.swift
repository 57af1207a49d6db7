import ALSAOutput
import AudioListening
import MetronomeAudio
import MetronomeCore

/// Where an ALSA capture device's frames fall among the run's: the run's frame each input frame
/// heard (`CaptureAlignment`), from both devices' positions read as the input wakes.
///
/// The output's position is read in the run's frames (`RunFrameMap`), which a glitch of the output
/// does not move once the player has kept the clicks on their grid: the input stays where it was
/// among them.
///
/// Both are read then, the moment the input has just moved: the output's position, read on the
/// thread that writes it, which wakes in step with its own writes, can be late by as much as a
/// period every time, and the earliest of the readings would keep that error.
///
/// `@unchecked Sendable`: touched only by the capture thread.
final class CaptureClock: @unchecked Sendable {
  private let sampleRate: SampleRate
  private let output: ALSAPCM.PositionReader
  private let runFrames: RunFrameMap?
  private var input = EarliestReading()
  private var heard = EarliestReading()
  private var alignment: CaptureAlignment

  /// A clock for an input placed among the frames of `output`, both counted at `sampleRate`: the
  /// run's frames that `runFrames` says the output's play, or the output's own without it.
  init(sampleRate: SampleRate, output: ALSAPCM.PositionReader, runFrames: RunFrameMap? = nil) {
    self.sampleRate = sampleRate
    self.output = output
    self.runFrames = runFrames
    alignment = CaptureAlignment(sampleRate: sampleRate)
  }

  /// Takes what a period read says (the input's `position`, whether frames were lost before it)
  /// and reads the output's: the run's frame the input's frame 0 heard; nil until both have
  /// settled.
  ///
  /// It moves when the input's stream did (frames lost, a clock drifting), which keeps an echo
  /// where it was among the run's frames; what the devices say moves it by less than half a
  /// millisecond.
  func place(_ position: PlaybackPosition?, lostFrames: Bool) -> Int64? {
    if lostFrames { (input, alignment) = (EarliestReading(), CaptureAlignment(sampleRate: sampleRate)) }
    if let position { read(position, into: &input) }
    if let position = output.position() {
      let heardFrames = runFrames?.runFrame(ofStreamFrame: position.heardFrames) ?? position.heardFrames
      read(PlaybackPosition(heardFrames: heardFrames, nanoseconds: position.nanoseconds), into: &heard)
    }
    alignment.update(
      inputFrameZeroMicros: input.isSettled ? input.estimate : nil,
      outputFrameZeroMicros: heard.isSettled ? heard.estimate : nil)
    return alignment.offset
  }

  /// Takes `position` into `earliest` as when the stream's frame 0 was heard.
  private func read(_ position: PlaybackPosition, into earliest: inout EarliestReading) {
    let micros = position.nanoseconds / 1000
    earliest.read(Double(micros) - Double(position.heardFrames) * 1e6 / Double(sampleRate.hz), atMicros: micros)
  }
}
