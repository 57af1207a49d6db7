import ALSAOutput
import AudioListening
import MetronomeAudio
import MetronomeCore

/// Where an ALSA capture device's frames fall among the output's: the output's frame each input
/// frame heard (`CaptureAlignment`), from both devices' positions read as the input wakes.
///
/// Both are read then, the moment the input has just moved: the output's position, read on the
/// thread that writes it, which wakes in step with its own writes, can be late by as much as a
/// period every time, and the earliest of the readings would keep that error.
///
/// `@unchecked Sendable`: touched only by the capture thread.
final class CaptureClock: @unchecked Sendable {
  private let sampleRate: SampleRate
  private let output: ALSAPCM.PositionReader
  private var input = EarliestReading()
  private var heard = EarliestReading()
  private var alignment: CaptureAlignment

  /// A clock for an input placed among the frames of `output`, both counted at `sampleRate`.
  init(sampleRate: SampleRate, output: ALSAPCM.PositionReader) {
    self.sampleRate = sampleRate
    self.output = output
    alignment = CaptureAlignment(sampleRate: sampleRate)
  }

  /// Takes what a period read says (the input's `position`, whether frames were lost before it)
  /// and reads the output's: the output's frame the input's frame 0 heard; nil until both have
  /// settled.
  ///
  /// It moves when a stream did (frames lost, a clock drifting), which keeps an echo where it was
  /// among the output's frames; what the devices say moves it by less than half a millisecond.
  func place(_ position: PlaybackPosition?, lostFrames: Bool) -> Int64? {
    if lostFrames { (input, alignment) = (EarliestReading(), CaptureAlignment(sampleRate: sampleRate)) }
    if let position { read(position, into: &input) }
    if let position = output.position() { read(position, into: &heard) }
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
