import MetronomeCore

/// Where rendered audio goes: a sound card, a file, or nowhere.
public protocol AudioSink: AnyObject {
  /// The rate the sink plays or stores at.
  var sampleRate: SampleRate { get }
  /// Frames written but not yet heard; 0 for sinks that do not play.
  var outputDelayFrames: Int64 { get }
  /// How many times playback ran dry and had to recover.
  var underrunCount: Int { get }
  /// Frames the device's buffer holds now (a device may grow it after an underrun); 0 for sinks
  /// that do not play.
  var bufferFrames: Int { get }
  /// Frames the device played without the stream (positive) or dropped from it (negative) since
  /// last asked: what a glitch cost, so that the player can bring the clicks back to their grid.
  /// The player asks after each write, once it has read `outputDelayFrames`.
  func takeLostFrames() -> Int64
  /// Frames written but not yet heard, read now, and the monotonic clock's nanoseconds at the
  /// reading: when the next frame written will be heard. Nil while the device has not started
  /// playing (it may then start later than its delay says) or could not tell promptly, and for
  /// sinks that do not play.
  func timedOutputDelay() -> (frames: Int64, nanoseconds: Int64)?
  /// Plays or stores `period`; a live sink blocks until the device has room, which paces the render loop.
  func write(_ period: RenderedPeriod) throws
  /// Completes the output: plays out what is queued, or closes the file.
  func finish() throws
}

extension AudioSink {
  /// Files and silent sinks lose nothing.
  public func takeLostFrames() -> Int64 { 0 }
  /// Files and silent sinks hold nothing back.
  public var bufferFrames: Int { 0 }
  /// Files play nothing.
  public func timedOutputDelay() -> (frames: Int64, nanoseconds: Int64)? { nil }
}
