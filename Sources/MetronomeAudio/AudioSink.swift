import MetronomeCore

/// Where rendered audio goes: a sound card, a file, or nowhere.
public protocol AudioSink: AnyObject {
  /// The rate the sink plays or stores at.
  var sampleRate: SampleRate { get }
  /// Frames written but not yet heard; 0 for sinks that do not play.
  var outputDelayFrames: Int64 { get }
  /// How many times playback ran dry and had to recover.
  var underrunCount: Int { get }
  /// Plays or stores `period`; a live sink blocks until the device has room, which paces the render loop.
  func write(_ period: RenderedPeriod) throws
  /// Completes the output: plays out what is queued, or closes the file.
  func finish() throws
}
