import FoundationEssentials
import Glibc

/// A kind of text file named on the command line (a tempo map, a setlist, a key script), read
/// whole, and what to say when it cannot be.
public struct TextFile: Sendable {
  /// Why a file cannot be read as text, and the status the process ends with.
  public struct Unreadable: Error {
    /// Why, in words.
    public let message: String
    /// The kind of fault: `.input` for a file that cannot be opened, `.data` for one that is not text.
    public let kind: RunError.Kind
  }

  /// What the file is, as messages name it.
  public let kind: String
  /// How its lines are laid out, for the message that it is not text.
  public let layout: String

  /// klick's tempo map, `--map`.
  public static let tempoMap = TextFile(kind: "tempo map", layout: "a section per line")
  /// A setlist, `--setlist`.
  public static let setlist = TextFile(kind: "setlist", layout: "a song per line")
  /// The saved calibrations, `metronome calibrate`'s.
  public static let calibration = TextFile(kind: "calibration", layout: "'midi MS' or 'keys MS' per line")
  /// Timed key presses, `--keys`.
  public static let keyScript = TextFile(kind: "key script", layout: "one 'SECONDS KEY' per line")

  /// How messages name `path`: standard input ('-') as `<stdin>`.
  public static func source(_ path: String) -> String {
    path == "-" ? "<stdin>" : path
  }

  /// The text of `path` ('-' for standard input); a file that cannot be opened fails with status
  /// 66, one that is not text with 65.
  public func text(of path: String) -> Result<String, Unreadable> {
    let bytes: [UInt8]
    if path == "-" {
      bytes = Array(AnyIterator { readLine(strippingNewline: false) }.joined().utf8)
    } else {
      // Only a regular file: a device or a pipe could be read forever or never end.
      guard Self.isRegularFile(path), let data = FileManager.default.contents(atPath: path) else {
        return .failure(Unreadable(message: "cannot read the \(kind): \(Self.reason(path))", kind: .input))
      }
      bytes = Array(data)
    }
    guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
      return .failure(Unreadable(message: "not a text file: a \(kind) is plain text, \(layout)", kind: .data))
    }
    return .success(text)
  }

  /// The text of `path`; throws one line, `SOURCE: error: why`, when it cannot be read as text.
  public func read(_ path: String) throws(RunError) -> String {
    switch text(of: path) {
    case .success(let text): return text
    case .failure(let unreadable):
      throw RunError(unreadable.kind, "\(Self.source(path)): error: \(unreadable.message)")
    }
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  private static func reason(_ path: String) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else { return String(cString: strerror(errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return "it is a directory"
    case S_IFREG: return access(path, R_OK) == 0 ? "a read error" : String(cString: strerror(errno))
    default: return "it is not a regular file"
    }
  }
}
