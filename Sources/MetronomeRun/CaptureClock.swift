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
  private let output: @Sendable () -> PlaybackPosition?
  private let runFrames: RunFrameMap?
  private var input = EarliestReading()
  private var heard = EarliestReading()
  private var alignment: CaptureAlignment
  private let doubted: DoubtedPeriods

  /// A clock for an input read `periodFrames` at a time, placed among the frames of the output
  /// whose position `output` reads, both counted at `sampleRate`: the run's frames that
  /// `runFrames` says the output's play, or the output's own without it.
  init(
    sampleRate: SampleRate, periodFrames: Int, output: @escaping @Sendable () -> PlaybackPosition?,
    runFrames: RunFrameMap? = nil
  ) {
    self.sampleRate = sampleRate
    self.output = output
    self.runFrames = runFrames
    alignment = CaptureAlignment(sampleRate: sampleRate)
    doubted = DoubtedPeriods(frames: periodFrames)
  }

  /// Places `period`, read from the input's frame `firstFrame` (with its `position`, and whether
  /// frames were lost before it), and gives `hear` what may be heard now, on the run's frames;
  /// calls `lost` first where the input lost frames or moved (`place`).
  ///
  /// What is read while the input's readings come late is held until they say whether it moved
  /// (`DoubtedPeriods`), and never heard if it did: it was read after a skipped cycle, and the
  /// offset would place it a cycle early.
  func take(
    _ period: UnsafeBufferPointer<Float>, from firstFrame: Int64, position: PlaybackPosition?, lostFrames: Bool,
    lost: () -> Void, hear: (UnsafeBufferPointer<Float>, Int64) -> Void
  ) {
    let placed = place(position, lostFrames: lostFrames)
    if placed.lostFrames { lost() }
    doubted.take(
      period, placedAt: placed.offset.map { firstFrame + $0 }, doubted: placed.doubted, moved: placed.lostFrames,
      hear: hear)
  }

  /// Takes what a period read says (the input's `position`, whether frames were lost before it)
  /// and reads the output's: the run's frame the input's frame 0 heard, nil until both have
  /// settled; whether the input lost frames; and whether its position is in doubt
  /// (`EarliestReading.isDoubted`: what was read since may be a cycle later than the offset says).
  ///
  /// It moves when the input's stream did (a clock drifting), which keeps an echo where it was
  /// among the run's frames; what the devices say moves it by less than half a millisecond. Where
  /// the input lost frames, it is nil until the input has settled again: the device said so (an
  /// overrun), or its position moved (`EarliestReading`): by more than 50 ms (a sound server's
  /// plugin that drops what a reader held too long did not take, and says nothing: PipeWire's), or
  /// later than its readings' spread allows (a server's cycle skipped on a stalled machine).
  func place(_ position: PlaybackPosition?, lostFrames: Bool) -> (offset: Int64?, lostFrames: Bool, doubted: Bool) {
    if lostFrames { input = EarliestReading() }
    let moved = position.map { read($0, into: &input) } ?? false
    if lostFrames || moved { alignment.restart() }
    if let position = output() {
      let heardFrames = runFrames?.runFrame(ofStreamFrame: position.heardFrames) ?? position.heardFrames
      read(PlaybackPosition(heardFrames: heardFrames, nanoseconds: position.nanoseconds), into: &heard)
    }
    alignment.update(
      inputFrameZeroMicros: input.isSettled ? input.estimate : nil,
      outputFrameZeroMicros: heard.isSettled ? heard.estimate : nil)
    return (alignment.offset, lostFrames || moved, input.isDoubted)
  }

  /// Takes `position` into `earliest` as when the stream's frame 0 was heard; returns whether it
  /// moved by more than 50 ms.
  @discardableResult
  private func read(_ position: PlaybackPosition, into earliest: inout EarliestReading) -> Bool {
    let micros = position.nanoseconds / 1000
    return earliest.read(
      Double(micros) - Double(position.heardFrames) * 1e6 / Double(sampleRate.hz), atMicros: micros)
  }
}
