import MetronomeAudio
import MetronomeCore

/// Renders a whole run into a sink as fast as the sink takes it: a WAV export.
public enum ClickTrackExporter {
  /// Renders `engine`'s run, which must end (a length, or a tempo map that ends), into `sink` in periods of
  /// `periodFrames`, then finishes the sink.
  ///
  /// `progress` is called after each period with the frames written so far; `isCancelled` is
  /// checked before each period, and a cancelled export throws `ExportError.interrupted` before
  /// finishing the sink.
  public static func export(
    _ engine: ClickEngine, to sink: any AudioSink, periodFrames: Int = 65_536,
    progress: (Int64) -> Void = { _ in }, isCancelled: () -> Bool = { false }
  ) throws -> Int64 {
    precondition(engine.expectedFrames != nil, "an export needs a run that ends")
    var written: Int64 = 0
    while !engine.isFinished {
      if isCancelled() { throw ExportError.interrupted }
      let period = engine.renderPeriod(frames: periodFrames)
      try sink.write(period)
      written += Int64(period.frames)
      progress(written)
    }
    try sink.finish()
    return written
  }
}
