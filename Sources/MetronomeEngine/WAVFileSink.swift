import FoundationEssentials
import Glibc
import MetronomeCore

/// Writes a mono WAV file. It writes to a hidden temporary file beside the destination and moves
/// it into place only on `finish()`, so a failed or interrupted export leaves nothing half-written.
public final class WAVFileSink: AudioSink {
  public let sampleRate: SampleRate
  public let outputDelayFrames: Int64 = 0
  public let underrunCount = 0
  /// The file written on success.
  public let destination: URL
  private let encoding: SampleEncoding
  private let temporary: URL
  private var file: UnsafeMutablePointer<FILE>?
  private var bytes: [UInt8] = []
  private var dataBytes: Int64 = 0

  /// Opens a temporary file beside `destination`, or throws `ExportError.cannotWrite`.
  public init(destination: URL, sampleRate: SampleRate, encoding: SampleEncoding) throws {
    self.destination = destination
    self.sampleRate = sampleRate
    self.encoding = encoding
    temporary = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())")
    guard let file = fopen(temporary.path, "wb") else {
      throw ExportError.cannotWrite(path: destination.path, reason: String(cString: strerror(errno)))
    }
    self.file = file
    try put(header(dataBytes: 0))
  }

  deinit { abandon() }

  public func write(_ period: RenderedPeriod) throws {
    let count = period.frames * encoding.bytesPerSample
    if bytes.count < count { bytes = [UInt8](repeating: 0, count: count) }
    bytes.withUnsafeMutableBytes { period.encode(into: $0, as: encoding) }
    try put(bytes[..<count])
    dataBytes += Int64(count)
  }

  /// Writes the final sizes into the header and moves the file into place.
  public func finish() throws {
    guard let file else { return }
    guard dataBytes <= Int64(UInt32.max) - 44 else {
      abandon()
      throw ExportError.tooLong
    }
    fseek(file, 0, SEEK_SET)
    try put(header(dataBytes: dataBytes))
    let closed = fclose(file)
    self.file = nil
    guard closed == 0, rename(temporary.path, destination.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw ExportError.cannotWrite(path: destination.path, reason: reason)
    }
  }

  /// Closes and removes the temporary file; the destination is untouched.
  public func abandon() {
    guard let file else { return }
    fclose(file)
    self.file = nil
    unlink(temporary.path)
  }

  private func put(_ chunk: some ContiguousBytes) throws {
    let (written, expected) = chunk.withUnsafeBytes { (fwrite($0.baseAddress, 1, $0.count, file), $0.count) }
    guard written == expected else {
      let reason = String(cString: strerror(errno))
      abandon()
      throw ExportError.cannotWrite(path: destination.path, reason: reason)
    }
  }

  /// The 44-byte RIFF/WAVE header: format 1 (PCM) or 3 (IEEE float), one channel.
  private func header(dataBytes: Int64) -> [UInt8] {
    var header: [UInt8] = []
    func text(_ string: String) { header.append(contentsOf: Array(string.utf8)) }
    func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { header.append(contentsOf: $0) } }
    func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { header.append(contentsOf: $0) } }
    let bytesPerSample = encoding.bytesPerSample
    text("RIFF")
    u32(36 + Int(dataBytes))
    text("WAVEfmt ")
    u32(16)
    u16(encoding == .float32 ? 3 : 1)
    u16(1)
    u32(sampleRate.hz)
    u32(sampleRate.hz * bytesPerSample)
    u16(bytesPerSample)
    u16(bytesPerSample * 8)
    text("data")
    u32(Int(dataBytes))
    return header
  }
}

/// Why an export did not produce its file.
public enum ExportError: Error, Equatable, CustomStringConvertible {
  case cannotWrite(path: String, reason: String)
  case tooLong
  case interrupted

  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)': \(reason); choose a writable path with --output"
    case .tooLong:
      return "the export is longer than a WAV file can hold (4 GiB); export fewer bars or a lower rate"
    case .interrupted:
      return "export interrupted; no file was written"
    }
  }
}
