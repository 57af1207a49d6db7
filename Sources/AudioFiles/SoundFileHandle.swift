import CSndfile

/// An open sound file: the only place metronome calls libsndfile, each call wrapped once.
final class SoundFileHandle {
  /// A failure in libsndfile's words, without its full stop.
  struct Failure: Error {
    let message: String
  }

  private var file: OpaquePointer?
  /// Frames, channels and rate, as the file's header gives them (as asked, for a file written).
  let frames: Int64
  let channels: Int
  let sampleRate: Int

  /// Opens the file at `path` to read.
  init(reading path: String) throws(Failure) {
    var info = SF_INFO()
    guard let opened = sf_open(path, Int32(SFM_READ), &info) else { throw Self.failure(of: nil) }
    file = opened
    (frames, channels, sampleRate) = (Int64(info.frames), Int(info.channels), Int(info.samplerate))
  }

  /// Creates the file at `path` to write one channel at `sampleRate` in `format` (libsndfile's
  /// major format and encoding, or-ed).
  init(writing path: String, format: Int32, sampleRate: Int) throws(Failure) {
    var info = SF_INFO()
    info.samplerate = Int32(sampleRate)
    info.channels = 1
    info.format = format
    guard sf_format_check(&info) != 0 else { throw Failure(message: "the format cannot hold these samples") }
    guard let opened = sf_open(path, Int32(SFM_WRITE), &info) else { throw Self.failure(of: nil) }
    file = opened
    (frames, channels, self.sampleRate) = (0, 1, sampleRate)
  }

  deinit { close() }

  /// Reads every frame, interleaved; fewer than `frames` if the file ends early.
  func readAll() -> [Float] {
    guard let file, frames > 0, channels > 0 else { return [] }
    var samples = [Float](repeating: 0, count: Int(frames) * channels)
    let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, frames) }
    return Array(samples.prefix(max(Int(read), 0) * channels))
  }

  /// Writes `samples`, one channel.
  func write(_ samples: UnsafeBufferPointer<Float>) throws(Failure) {
    guard let file else { return }
    guard sf_writef_float(file, samples.baseAddress, sf_count_t(samples.count)) == samples.count else {
      throw Self.failure(of: file)
    }
  }

  /// Closes the file, completing what was written; whether that worked.
  @discardableResult
  func close() -> Bool {
    guard let file else { return true }
    self.file = nil
    return sf_close(file) == 0
  }

  /// What libsndfile says went wrong with `file` (or with the last open).
  private static func failure(of file: OpaquePointer?) -> Failure {
    var message = Substring(String(cString: sf_strerror(file)))
    if message.hasPrefix("System error : ") { message = message.dropFirst("System error : ".count) }
    while message.hasSuffix(".") { message = message.dropLast() }
    return Failure(message: String(message))
  }
}

/// The libsndfile formats metronome writes, besides its own WAV.
enum SoundFileFormat {
  static let flac = Int32(SF_FORMAT_FLAC)
  static let ogg = Int32(SF_FORMAT_OGG)
  static let aiff = Int32(SF_FORMAT_AIFF)
  static let vorbis = Int32(SF_FORMAT_VORBIS)
  static let opus = Int32(SF_FORMAT_OPUS)
  static let mpeg = Int32(SF_FORMAT_MPEG)
  static let mpegLayerIII = Int32(SF_FORMAT_MPEG_LAYER_III)
  static let pcm16 = Int32(SF_FORMAT_PCM_16)
  static let pcm24 = Int32(SF_FORMAT_PCM_24)
  static let float = Int32(SF_FORMAT_FLOAT)
}
