import Dispatch
import MetronomeCore

/// Plays an engine's run through a sink in real time on a thread of its own. The sink's
/// blocking writes pace the loop, so the device's clock is the beat clock. After each period
/// it reports how long until each of its beats is heard: the device's delay, less how far before
/// the end of what was written the beat falls.
public final class LivePlayer: @unchecked Sendable {
  /// A beat and the seconds from now until it reaches the listener.
  public typealias HeardHandler = @Sendable (Beat, Double) -> Void

  private let engine: ClickEngine
  private let sink: any AudioSink
  private let periodFrames: Int
  private let onHeard: HeardHandler
  private let lock = Lock()
  private var stopRequested = false
  private var outcome: Result<Void, any Error>?
  private let finished = DispatchSemaphore(value: 0)
  private var delayFrames: Int64 = 0
  private var underruns = 0

  /// A player of `engine` into `sink`, rendering `periodFrames` at a time.
  public init(engine: ClickEngine, sink: any AudioSink, periodFrames: Int, onHeard: @escaping HeardHandler) {
    self.engine = engine
    self.sink = sink
    self.periodFrames = periodFrames
    self.onHeard = onHeard
  }

  /// Starts the render thread.
  public func start() {
    // A serial queue of its own runs on a thread of its own, which the blocking writes may hold.
    DispatchQueue(label: "metronome.render", qos: .userInteractive).async { [self] in
      let result = Result { try self.playUntilDone() }
      self.lock.withLock { self.outcome = result }
      self.finished.signal()
    }
  }

  /// Asks the render thread to stop after the period it is writing.
  public func stop() { lock.withLock { stopRequested = true } }

  /// Waits until the run has ended or been stopped, and rethrows what failed on the thread.
  public func wait() throws {
    finished.wait()
    finished.signal()
    try lock.withLock { outcome }?.get()
  }

  /// The device's delay after the last write, in seconds.
  public var latencySeconds: Double {
    Double(lock.withLock { delayFrames }) / Double(engine.settings.sampleRate.hz)
  }

  /// Underruns the sink recovered from so far.
  public var underrunCount: Int { lock.withLock { underruns } }

  private func playUntilDone() throws {
    let rate = Double(engine.settings.sampleRate.hz)
    while !lock.withLock({ stopRequested }), !engine.isFinished {
      let start = engine.renderer.cursor
      let period = engine.renderPeriod(frames: periodFrames)
      try sink.write(period)
      let delay = sink.outputDelayFrames
      // The last period of a run is cut short: what was written ends there, not at the cursor.
      let writtenEnd = start + Int64(period.frames)
      for beat in engine.renderer.beatsInLastPeriod {
        onHeard(beat, Double(max(delay - (writtenEnd - beat.frame), 0)) / rate)
      }
      lock.withLock {
        delayFrames = delay
        underruns = sink.underrunCount
      }
    }
    if !lock.withLock({ stopRequested }) { try sink.finish() }
  }
}
