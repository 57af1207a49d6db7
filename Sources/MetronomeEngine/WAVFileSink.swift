import Glibc
import MetronomeAudio
import MetronomeCore

/// Writes a mono WAV file of a length known in advance, so its header is complete from the first
/// byte and it can go where nothing can be rewound: a pipe, a FIFO, a device.
///
/// A regular file is written under a hidden name beside its destination and moved into place only
/// on `finish()`, so a failed or interrupted export leaves the destination as it was.
public final class WAVFileSink: AudioSink {
  /// The rate written in the header.
  public let sampleRate: SampleRate
  /// Always 0: a file is not heard.
  public let outputDelayFrames: Int64 = 0
  /// Always 0: a file never runs dry.
  public let underrunCount = 0
  /// Where the file goes.
  public let destination: ExportDestination
  private let encoding: SampleEncoding
  private let expectedBytes: Int64
  private let temporary: String?
  private var descriptor: Int32?
  private var bytes: [UInt8] = []
  private var dataBytes: Int64 = 0

  /// The largest number of frames a WAV file holds in `encoding`: its sizes are 32-bit.
  public static func maximumFrames(in encoding: SampleEncoding) -> Int64 {
    (Int64(UInt32.max) - 36) / Int64(encoding.bytesPerSample)
  }

  /// Opens `destination` for `frames` frames and writes the header, or throws `ExportError`.
  public init(destination: ExportDestination, sampleRate: SampleRate, encoding: SampleEncoding, frames: Int64)
    throws(ExportError)
  {
    guard frames <= Self.maximumFrames(in: encoding) else { throw .tooLong }
    self.destination = destination
    self.sampleRate = sampleRate
    self.encoding = encoding
    expectedBytes = frames * Int64(encoding.bytesPerSample)
    let opened: Int32
    switch destination {
    case .replacing(let path):
      let hidden = ExportDestination.partialPath(beside: path)
      temporary = hidden
      opened = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    case .direct(let path):
      temporary = nil
      opened = open(path, O_WRONLY | O_CLOEXEC)
    case .standardOutput:
      temporary = nil
      opened = STDOUT_FILENO
    }
    guard opened >= 0 else { throw .cannotWrite(path: destination.name, reason: String(cString: strerror(errno))) }
    descriptor = opened
    try put(header(dataBytes: expectedBytes))
  }

  deinit { abandon() }

  /// Appends `period`'s samples.
  public func write(_ period: RenderedPeriod) throws {
    let count = period.frames * encoding.bytesPerSample
    if bytes.count < count { bytes = [UInt8](repeating: 0, count: count) }
    bytes.withUnsafeMutableBytes { period.encode(into: $0, as: encoding) }
    try put(bytes[..<count])
    dataBytes += Int64(count)
  }

  /// Closes the file and, for a regular file, moves it into place.
  ///
  /// If the run turned out longer or shorter than announced (its tempo changed while it played),
  /// the header is rewritten where the file can be rewound; a stream that cannot be is an error.
  public func finish() throws {
    guard let descriptor else { return }
    if dataBytes != expectedBytes {
      guard dataBytes <= Self.maximumFrames(in: encoding) * Int64(encoding.bytesPerSample) else {
        abandon()
        throw ExportError.tooLong
      }
      let header = header(dataBytes: dataBytes)
      guard header.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == header.count else {
        let reason = String(cString: strerror(errno))
        abandon()
        throw ExportError.cannotWrite(path: destination.name, reason: reason)
      }
    }
    self.descriptor = nil
    let closed = descriptor == STDOUT_FILENO ? 0 : close(descriptor)
    var failure = closed == 0 ? nil : errno
    if failure == nil, let temporary, case .replacing(let path) = destination, rename(temporary, path) != 0 {
      failure = errno
    }
    guard let failure else { return }
    if let temporary { unlink(temporary) }
    throw ExportError.cannotWrite(path: destination.name, reason: String(cString: strerror(failure)))
  }

  /// Closes the file and removes the hidden one; the destination is untouched.
  public func abandon() {
    guard let descriptor else { return }
    self.descriptor = nil
    if descriptor != STDOUT_FILENO { close(descriptor) }
    if let temporary { unlink(temporary) }
  }

  private func put(_ chunk: some Collection<UInt8>) throws(ExportError) {
    guard let descriptor else { return }
    let failure: Int32? =
      chunk.withContiguousStorageIfAvailable { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
          if written < 0, errno == EINTR { continue }
          guard written > 0 else { return written < 0 ? errno : EIO }
          offset += written
        }
        return nil
      } ?? EINVAL
    guard let failure else { return }
    abandon()
    throw .cannotWrite(path: destination.name, reason: String(cString: strerror(failure)))
  }

  /// The 44-byte RIFF/WAVE header for `dataBytes` of samples: format 1 (PCM) or 3 (IEEE float), one channel.
  private func header(dataBytes: Int64) -> [UInt8] {
    var header: [UInt8] = []
    func text(_ string: String) { header.append(contentsOf: Array(string.utf8)) }
    func u32(_ value: Int64) { withUnsafeBytes(of: UInt32(value).littleEndian) { header.append(contentsOf: $0) } }
    func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { header.append(contentsOf: $0) } }
    let bytesPerSample = encoding.bytesPerSample
    text("RIFF")
    u32(36 + dataBytes)
    text("WAVEfmt ")
    u32(16)
    u16(encoding == .float32 ? 3 : 1)
    u16(1)
    u32(Int64(sampleRate.hz))
    u32(Int64(sampleRate.hz * bytesPerSample))
    u16(bytesPerSample)
    u16(bytesPerSample * 8)
    text("data")
    u32(dataBytes)
    return header
  }
}

/// Why an export did not produce its file.
public enum ExportError: Error, Equatable, CustomStringConvertible {
  /// The destination could not be opened or written.
  case cannotWrite(path: String, reason: String)
  /// The destination is a folder.
  case isDirectory(path: String)
  /// The export is longer than a WAV or AIFF file can hold.
  case tooLong
  /// A signal stopped the export.
  case interrupted

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)': \(reason); choose a writable path with --output"
    case .isDirectory(let path):
      return "'\(path)' is a directory: name a file in it, such as --output \(path)/click.wav"
    case .tooLong:
      return "the export is longer than a WAV or AIFF file can hold (4 GiB); export fewer bars or a lower rate,"
        + " or write .flac or .ogg"
    case .interrupted:
      return "export interrupted; no file was written"
    }
  }
}
