import MetronomeCore

/// A short sound read from a file in any format libsndfile reads (WAV, FLAC, Ogg Vorbis, AIFF, …),
/// at any rate and bit depth, as mono samples at the rate metronome plays at.
public enum SampleFile {
  /// The longest sound a click may be: a click is short, and a longer file is a mistake.
  public static let longestSeconds = 10.0

  /// The sound in the file at `path`, its channels averaged to one, converted to `sampleRate`
  /// with a band-limited resampler of `quality` (the best, unless speech is all it holds).
  public static func load(path: String, sampleRate: SampleRate, quality: Resampler.Quality = .best)
    throws(SampleFileError) -> [Float]
  {
    let file: SoundFileHandle
    do {
      file = try SoundFileHandle(reading: path)
    } catch {
      throw .unreadable(path: path, reason: error.message)
    }
    let channels = file.channels
    guard file.frames > 0, channels > 0, file.sampleRate > 0 else { throw .empty(path: path) }
    let seconds = Double(file.frames) / Double(file.sampleRate)
    guard seconds <= longestSeconds else { throw .tooLong(path: path, seconds: seconds) }
    let interleaved = file.readAll()
    var mono = [Float](repeating: 0, count: interleaved.count / channels)
    for frame in mono.indices {
      var sum: Float = 0
      for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
      mono[frame] = sum / Float(channels)
    }
    guard mono.contains(where: { $0 != 0 }) else { throw .empty(path: path) }
    do {
      return try Resampler.convert(mono, from: file.sampleRate, to: sampleRate.hz, quality: quality)
    } catch {
      throw .unreadable(path: path, reason: error.message)
    }
  }
}

/// Why a sound file cannot serve as a click.
public enum SampleFileError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case empty(path: String)
  case tooLong(path: String, seconds: Double)

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read the sound '\(path)': \(reason); give a WAV, FLAC, Ogg Vorbis or AIFF file"
    case .empty(let path):
      return "the sound '\(path)' is silent or empty: give a file with a click in it"
    case .tooLong(let path, let seconds):
      return "the sound '\(path)' lasts \(Tempo.format(seconds)) s: a click may last at most"
        + " \(Tempo.format(SampleFile.longestSeconds)) s; trim it"
    }
  }
}
