import Glibc
import MetronomeAudio
import MetronomeCore
import MetronomeEngine

/// Writes an export as FLAC, Ogg Vorbis or AIFF through libsndfile, chosen by the file's
/// extension as klick's `-W` chooses it.
///
/// These formats are written to regular files only (they are completed by going back to their
/// start), under a hidden name beside the destination, moved into place on `finish()`: a failed
/// or interrupted export leaves the destination as it was.
public final class SoundFileSink: AudioSink {
  /// The formats it writes, by extension.
  public enum Format: String, CaseIterable, Sendable {
    case flac
    case ogg
    case aiff

    /// The format a path's extension names (`.flac`, `.ogg` or `.oga`, `.aif` or `.aiff`), if any.
    public init?(path: String) {
      guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
      switch path[path.index(after: dot)...].lowercased() {
      case "flac": self = .flac
      case "ogg", "oga": self = .ogg
      case "aif", "aiff": self = .aiff
      default: return nil
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

  /// Opens a hidden file beside `destination` for `format` in `encoding` (Ogg Vorbis has no
  /// depth of its own; FLAC holds 16 or 24 bits, not floats), or throws `ExportError`.
  public init(destination: ExportDestination, format: Format, sampleRate: SampleRate, encoding: SampleEncoding)
    throws(ExportError)
  {
    guard case .replacing(let path) = destination else {
      throw .cannotWrite(
        path: destination.name,
        reason: "\(format.rawValue.uppercased()) is written to regular files only (a .wav name writes to pipes and"
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
