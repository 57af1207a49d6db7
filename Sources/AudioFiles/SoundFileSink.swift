import Glibc
import MetronomeAudio
import MetronomeCore
import MetronomeEngine

/// Writes an export as FLAC, Ogg Vorbis, Opus, MP3 or AIFF through libsndfile, chosen by the
/// file's extension as klick's `-W` chooses it.
///
/// These formats are written to regular files only (they are completed by going back to their
/// start), under a hidden name beside the destination, moved into place on `finish()`: a failed
/// or interrupted export leaves the destination as it was.
public final class SoundFileSink: AudioSink {
  /// The formats it writes, by extension.
  public enum Format: String, CaseIterable, Sendable {
    case flac
    case ogg
    case opus
    case mp3
    case aiff

    /// The format a path's extension names (`.flac`, `.ogg` or `.oga`, `.opus`, `.mp3`, `.aif`
    /// or `.aiff`), if any.
    public init?(path: String) {
      switch Self.fileExtension(of: path) {
      case "flac": self = .flac
      case "ogg", "oga": self = .ogg
      case "opus": self = .opus
      case "mp3": self = .mp3
      case "aif", "aiff": self = .aiff
      default: return nil
      }
    }

    /// The extension of `path`'s last component, lowercased; nil where it has none (a name that
    /// starts with its only dot, such as `.click`, has none).
    public static func fileExtension(of path: String) -> String? {
      let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
      return name[name.index(after: dot)...].lowercased()
    }

    /// The sample rates the format holds, where it does not hold every rate metronome plays at.
    public var sampleRates: [Int]? {
      switch self {
      case .opus: [8_000, 12_000, 16_000, 24_000, 48_000]
      case .mp3: [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
      case .flac, .ogg, .aiff: nil
      }
    }

    /// The format's name, as a user knows it.
    public var name: String {
      switch self {
      case .flac: "FLAC"
      case .ogg: "Ogg Vorbis"
      case .opus: "Opus"
      case .mp3: "MP3"
      case .aiff: "AIFF"
      }
    }
  }

  /// The rate written.
  public let sampleRate: SampleRate
  /// Always 0: a file is not heard.
  public let outputDelayFrames: Int64 = 0
  /// Always 0: a file never runs dry.
  public let underrunCount = 0
  /// The file it becomes.
  public let path: String
  private let partial: String
  private var file: SoundFileHandle?
  private var samples: [Float] = []

  /// Opens a hidden file beside `destination` for `format` in `encoding` (Ogg Vorbis, Opus and
  /// MP3 have no depth of their own; FLAC holds 16 or 24 bits, not floats), or throws
  /// `ExportError`.
  public init(destination: ExportDestination, format: Format, sampleRate: SampleRate, encoding: SampleEncoding)
    throws(ExportError)
  {
    guard case .replacing(let path) = destination else {
      throw .cannotWrite(
        path: destination.name,
        reason: "\(format.name) is written to regular files only (a .wav name writes to pipes and"
          + " devices)")
    }
    let depth: Int32 =
      switch encoding {
      case .pcm16: SoundFileFormat.pcm16
      case .pcm24: SoundFileFormat.pcm24
      case .float32: SoundFileFormat.float
      }
    let major: Int32 =
      switch format {
      case .flac: SoundFileFormat.flac | depth
      case .ogg: SoundFileFormat.ogg | SoundFileFormat.vorbis
      case .opus: SoundFileFormat.ogg | SoundFileFormat.opus
      case .mp3: SoundFileFormat.mpeg | SoundFileFormat.mpegLayerIII
      case .aiff: SoundFileFormat.aiff | depth
      }
    self.path = path
    self.sampleRate = sampleRate
    partial = ExportDestination.partialPath(beside: path)
    do {
      file = try SoundFileHandle(writing: partial, format: major, sampleRate: sampleRate.hz)
    } catch {
      unlink(partial)
      let reason = format == .flac && encoding == .float32 ? "FLAC holds 16 or 24 bits, not floats" : error.message
      throw .cannotWrite(path: path, reason: reason)
    }
  }

  deinit { abandon() }

  /// Appends `period`'s samples.
  public func write(_ period: RenderedPeriod) throws {
    if samples.count < period.frames { samples = [Float](repeating: 0, count: period.frames) }
    samples.withUnsafeMutableBytes { period.encode(into: $0, as: .float32) }
    do {
      try samples.withUnsafeBufferPointer { try file?.write(UnsafeBufferPointer(rebasing: $0[..<period.frames])) }
    } catch let failure as SoundFileHandle.Failure {
      abandon()
      throw ExportError.cannotWrite(path: path, reason: failure.message)
    }
  }

  /// Completes the file and moves it into place.
  public func finish() throws {
    guard let file else { return }
    self.file = nil
    guard file.close(), rename(partial, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(partial)
      throw ExportError.cannotWrite(path: path, reason: reason)
    }
  }

  /// Drops the hidden file; the destination is untouched.
  public func abandon() {
    guard let file else { return }
    self.file = nil
    file.close()
    unlink(partial)
  }
}
