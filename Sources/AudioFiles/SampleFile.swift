import CSndfile
import Glibc
import MetronomeCore

/// A short sound read from a file in any format libsndfile reads (WAV, FLAC, Ogg Vorbis, AIFF, …),
/// at any rate and bit depth, as mono samples at the rate metronome plays at.
///
/// This file is the only place metronome calls libsndfile to read.
public enum SampleFile {
  /// The longest sound a click may be: a click is short, and a longer file is a mistake.
  public static let longestSeconds = 10.0

  /// The sound in the file at `path`, its channels averaged to one, converted to `sampleRate`
  /// with a band-limited resampler.
  public static func load(path: String, sampleRate: SampleRate) throws(SampleFileError) -> [Float] {
    var info = SF_INFO()
    guard let file = sf_open(path, Int32(SFM_READ), &info) else {
      // libsndfile's messages end in a full stop, and its system errors read "System error : …".
      var message = Substring(String(cString: sf_strerror(nil)))
      if message.hasPrefix("System error : ") { message = message.dropFirst("System error : ".count) }
      while message.hasSuffix(".") { message = message.dropLast() }
      throw .unreadable(path: path, reason: String(message))
    }
    defer { sf_close(file) }
    let channels = Int(info.channels)
    guard info.frames > 0, channels > 0, info.samplerate > 0 else { throw .empty(path: path) }
    let seconds = Double(info.frames) / Double(info.samplerate)
    guard seconds <= longestSeconds else { throw .tooLong(path: path, seconds: seconds) }
    var interleaved = [Float](repeating: 0, count: Int(info.frames) * channels)
    let read = interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, info.frames) }
    guard read > 0 else { throw .empty(path: path) }
    var mono = [Float](repeating: 0, count: Int(read))
    for frame in mono.indices {
      var sum: Float = 0
      for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
      mono[frame] = sum / Float(channels)
    }
    guard mono.contains(where: { $0 != 0 }) else { throw .empty(path: path) }
    do {
      return try Resampler.convert(mono, from: Int(info.samplerate), to: sampleRate.hz)
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
