import Foundation

/// A WAV file read back for checking: mono or the first channel, as floats in -1...1.
///
/// Reads 16- and 24-bit PCM and 32-bit float, the formats metronome and jack_rec write.
public struct WAVFile: Sendable {
  /// Frames per second.
  public let sampleRate: Int
  /// Bits per sample as stored.
  public let bitsPerSample: Int
  /// Whether samples are IEEE floats.
  public let isFloat: Bool
  /// The samples of the channel read (the first unless asked for another).
  public let samples: [Float]
  /// The size the RIFF header gives for the rest of the file.
  public let declaredRIFFBytes: Int
  /// The size the data chunk's header gives for the samples.
  public let declaredDataBytes: Int
  /// The file's size.
  public let fileBytes: Int

  /// Reads `channel` (from 0) of the file at `url`, or throws `WAVFileError`.
  public init(contentsOf url: URL, channel: Int = 0) throws {
    try self.init(data: try Data(contentsOf: url), channel: channel)
  }

  /// Reads `channel` (from 0) of a whole WAV file from `data`, or throws `WAVFileError`.
  public init(data bytes: Data, channel: Int = 0) throws {
    // Indices from 0, whatever slice the bytes came in.
    let data = Data([UInt8](bytes))
    guard data.count >= 12, data.prefix(4) == Data("RIFF".utf8), data[8..<12] == Data("WAVE".utf8) else {
      throw WAVFileError.notAWAVFile
    }
    func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    var offset = 12
    var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
    while offset + 8 <= data.count {
      let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
      let size = u32(offset + 4)
      let body = offset + 8
      if id == "fmt " {
        format = (u16(body), u16(body + 2), u32(body + 4), u16(body + 14))
      } else if id == "data", let format {
        let bytesPerSample = format.bits / 8
        let frameBytes = bytesPerSample * format.channels
        guard (0..<format.channels).contains(channel) else { throw WAVFileError.noSuchChannel }
        let end = min(body + size, data.count)
        let frames = (end - body) / frameBytes
        let isFloat = format.tag == 3 || (format.tag == 0xFFFE && format.bits == 32)
        samples = (0..<frames).map { frame in
          let at = body + frame * frameBytes + channel * bytesPerSample
          switch (isFloat, format.bits) {
          case (true, 32): return Float(bitPattern: UInt32(u32(at)))
          case (false, 16): return Float(Int16(truncatingIfNeeded: u16(at))) / 32_768
          case (false, 24):
            return Float(Int32(truncatingIfNeeded: (u16(at) | Int(data[at + 2]) << 16) << 8) >> 8) / 8_388_608
          default: return .nan
          }
        }
        sampleRate = format.rate
        declaredRIFFBytes = u32(4)
        declaredDataBytes = size
        fileBytes = data.count
        bitsPerSample = format.bits
        self.isFloat = isFloat
        return
      }
      offset = body + size + (size & 1)
    }
    throw WAVFileError.noAudioData
  }

  /// `samples` as the bytes of a mono 16-bit WAV file at `rate`.
  public static func bytes(of samples: [Int16], rate: Int) -> [UInt8] {
    let little = { (value: Int, bytes: Int) in (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let data = samples.flatMap { little(Int($0), 2) }
    return Array("RIFF".utf8) + little(36 + data.count, 4) + Array("WAVEfmt ".utf8) + little(16, 4) + little(1, 2)
      + little(1, 2) + little(rate, 4) + little(rate * 2, 4) + little(2, 2) + little(16, 2) + Array("data".utf8)
      + little(data.count, 4) + data
  }
}

/// Why a file could not be read as WAV.
public enum WAVFileError: Error, Equatable {
  case notAWAVFile
  case noAudioData
  case noSuchChannel
}
