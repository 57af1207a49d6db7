import Dispatch
import MetronomeAudio
import MetronomeCore

/// Plays an engine's run through a sink, period by period: on a thread of its own for live
/// playback (the sink's blocking writes pace the loop, so the device's clock is the beat clock),
/// in the cycles of a sink that calls back (a JACK client's process callback), or on the
/// caller's thread for a virtual run or a test.
///
/// After each period it reports how long until each of its beats is heard: the device's delay, less
/// how far before the end of what was written the beat falls. When the device says a glitch lost
/// frames, it skips as many of the run (reporting the beats in them as skipped) or waits in
/// silence as many, so that the clicks after it come back on their grid. When the run ends, is
/// stopped or fails, it says so once.
///
/// `@unchecked Sendable`: once started, the engine and the sink are used only by the thread that
/// renders, and the fields other threads read (`stopRequested`, the delay, the underruns) are
/// guarded by `lock`.
public final class LivePlayer: @unchecked Sendable {
  /// When a beat reaches the listener.
  public enum Hearing: Equatable, Sendable {
    /// In this many seconds from now.
    case inSeconds(Double)
    /// Never: it fell in frames a glitch lost, skipped so that the clicks after it keep their grid.
    /// The gap reaches the listener in this many seconds, once what was written before it is heard.
    case skipped(inSeconds: Double)
  }

  /// A beat and when it reaches the listener; called on the render thread.
  public typealias HeardHandler = @Sendable (Beat, Hearing) -> Void
  /// How the run ended: played out or stopped (success), or the sink failed; called on the render thread.
  public typealias EndHandler = @Sendable (Result<Void, any Error>) -> Void

  private let engine: ClickEngine
  private let sink: any AudioSink
  private let periodFrames: Int
  private let onHeard: HeardHandler
  private let onEnd: EndHandler
  private let lock = Lock()
  private var stopRequested = false
  private var delayFrames: Int64 = 0
  /// The frame the last write ended on: with `delayFrames`, what the device has heard.
  private var writtenEnd: Int64 = 0
  private var underruns = 0
  /// The run's frame of the period each of the first `underrunsPlaced` underruns was found
  /// writing, by index; written in place, so that the render thread never allocates.
  private var underrunFrames = [Int64](repeating: 0, count: LivePlayer.underrunsPlaced)
  private var lost: Int64 = 0
  private var buffer: (first: Int, now: Int)
  private var hasEnded = false

  /// A player of `engine` into `sink`, rendering `periodFrames` at a time.
  public init(
    engine: ClickEngine, sink: any AudioSink, periodFrames: Int, onHeard: @escaping HeardHandler,
    onEnd: @escaping EndHandler
  ) {
    self.engine = engine
    self.sink = sink
    self.periodFrames = periodFrames
    self.onHeard = onHeard
    self.onEnd = onEnd
    buffer = (sink.bufferFrames, sink.bufferFrames)
  }

  /// Plays on a render thread of its own, or in the cycles of a sink that calls back, and
  /// returns at once.
  public func start() {
    if let server = sink as? any CallbackAudioSink {
      do {
        try server.start(
          rendering: { [self] frames in playCycle(frames: frames) }, failed: { [self] error in end(.failure(error)) })
      } catch {
        end(.failure(error))
      }
      return
    }
    // A serial queue of its own runs on a thread of its own, which the blocking writes may hold.
    DispatchQueue(label: "metronome.render", qos: .userInteractive).async { [self] in
      ThreadName.set("render")
      RealtimePriority.whileRaised { run() }
    }
  }

  /// Plays on the calling thread until the run ends, is stopped or fails, then reports the end.
  public func run() { end(Result { try playUntilDone() }) }

  /// Reports how the run ended, once whatever ends it first.
  private func end(_ result: Result<Void, any Error>) {
    let isFirst = lock.withLock {
      defer { hasEnded = true }
      return !hasEnded
    }
    if isFirst { onEnd(result) }
  }

  /// One cycle of a sink that calls back: `frames` of the run, or nothing once it is over.
  private func playCycle(frames: Int) {
    guard !lock.withLock({ hasEnded }) else { return }
    guard !lock.withLock({ stopRequested }), !engine.isFinished else {
      end(.success(()))
      return
    }
    // A sound server knows as it calls that it ran cycles without the client (xruns): what was due
    // in them is skipped first, so that this cycle plays what is due in it, not what was due a
    // cycle or more before, late (a click there would sound late, and a beat due now be skipped).
    // A frame time behind the one expected (the callback run twice in one cycle) is counted: a
    // callback has nowhere to wait it out in silence.
    let missed = sink.takeLostFrames()
    if missed > 0 { skip(missed, heardIn: sink.outputDelayFrames) } else if missed < 0 { count(missed) }
    do { try playPeriod(frames: frames) } catch { end(.failure(error)) }
  }

  /// Asks the render loop to stop after the period it is writing.
  public func stop() { lock.withLock { stopRequested = true } }

  /// The device's delay after the last write, in seconds.
  public var latencySeconds: Double {
    Double(lock.withLock { delayFrames }) / Double(engine.settings.sampleRate.hz)
  }

  /// How long until `frame` is heard, as of the last write: how long a key that takes effect on
  /// that frame (the first not yet rendered) takes to reach the listener.
  public func secondsUntilHeard(frame: Int64) -> Double {
    let heard = lock.withLock { writtenEnd - delayFrames }
    return Double(max(frame - heard, 0)) / Double(engine.settings.sampleRate.hz)
  }

  /// Underruns the sink recovered from so far.
  public var underrunCount: Int { lock.withLock { underruns } }

  /// How many underruns are placed in the run (`underrunsAt`).
  public static let underrunsPlaced = 8

  /// Where in the run the first `underrunsPlaced` underruns came, in order: the run's frame of
  /// the period the device was found to have run dry before (several at one frame where one write
  /// found several).
  public var underrunsAt: [Int64] {
    lock.withLock { Array(underrunFrames.prefix(min(underruns, Self.underrunsPlaced))) }
  }

  /// Frames glitches cost so far, ahead or behind, all counted.
  public var lostFrames: Int64 { lock.withLock { lost } }

  /// The device's buffer when playback started and now, in frames: it may grow after underruns.
  public var bufferFrames: (first: Int, now: Int) { lock.withLock { buffer } }

  private func playUntilDone() throws {
    while !lock.withLock({ stopRequested }), !engine.isFinished { try playPeriod(frames: periodFrames) }
    if !lock.withLock({ stopRequested }) { try sink.finish() }
  }

  /// Renders and writes the next `frames` of the run, reports when its beats are heard, and
  /// brings the clicks back to their grid after a glitch.
  private func playPeriod(frames: Int) throws {
    let rate = Double(engine.settings.sampleRate.hz)
    let start = engine.renderer.cursor
    let period = engine.renderPeriod(frames: frames)
    try sink.write(period)
    let delay = sink.outputDelayFrames
    // The last period of a run is cut short: what was written ends there, not at the cursor.
    let writtenEnd = start + Int64(period.frames)
    for beat in engine.renderer.beatsInLastPeriod {
      onHeard(beat, .inSeconds(Double(max(delay - (writtenEnd - beat.frame), 0)) / rate))
    }
    let lostNow = sink.takeLostFrames()
    if lostNow > 0 {
      skip(lostNow, heardIn: delay)
    } else if lostNow < 0 {
      // In periods, as the sink's buffer was sized for them: nothing grows on this thread.
      var silence = lostNow.magnitude
      while silence > 0 {
        let frames = Int(min(silence, UInt64(periodFrames)))
        try sink.write(RenderedPeriod(silence: frames))
        silence -= UInt64(frames)
      }
      count(lostNow)
    }
    let underrunsNow = sink.underrunCount
    lock.withLock {
      delayFrames = delay
      self.writtenEnd = writtenEnd
      let placed = Self.underrunsPlaced
      for index in min(underruns, placed)..<min(max(underrunsNow, underruns), placed) { underrunFrames[index] = start }
      underruns = underrunsNow
      buffer.now = sink.bufferFrames
    }
  }

  /// Skips `frames` of the run that a glitch lost, reporting the beats in them as skipped, their
  /// gap heard in `delay` frames, once what was written before it is; counts them.
  private func skip(_ frames: Int64, heardIn delay: Int64) {
    let rate = Double(engine.settings.sampleRate.hz)
    for beat in engine.skip(frames: frames) { onHeard(beat, .skipped(inSeconds: Double(delay) / rate)) }
    count(frames)
  }

  /// Adds what a glitch cost, ahead or behind, to what glitches cost so far.
  private func count(_ frames: Int64) {
    lock.withLock {
      let (total, overflow) = lost.addingReportingOverflow(Int64(clamping: frames.magnitude))
      lost = overflow ? .max : total
    }
  }
}
