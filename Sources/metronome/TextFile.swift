import FoundationEssentials
import Glibc

/// A kind of text file named on the command line (a tempo map, a setlist, a key script), read
/// whole, and what to say when it cannot be.
struct TextFile {
  /// Why a file cannot be read as text, and the status the program ends with.
  struct Unreadable: Error {
    let message: String
    let status: Int32
  }

  /// What the file is, as messages name it.
  let kind: String
  /// How its lines are laid out, for the message that it is not text.
  let layout: String

  /// klick's tempo map, `--map`.
  static let tempoMap = TextFile(kind: "tempo map", layout: "a section per line")
  /// A setlist, `--setlist`.
  static let setlist = TextFile(kind: "setlist", layout: "a song per line")
  /// Timed key presses, `--keys`.
  static let keyScript = TextFile(kind: "key script", layout: "one 'SECONDS KEY' per line")

  /// How messages name `path`: standard input ('-') as `<stdin>`.
  static func source(_ path: String) -> String {
    path == "-" ? "<stdin>" : path
  }

  /// The text of `path` ('-' for standard input); a file that cannot be opened fails with status
  /// 66, one that is not text with 65.
  func text(of path: String) -> Result<String, Unreadable> {
    let bytes: [UInt8]
    if path == "-" {
      bytes = Array(AnyIterator { readLine(strippingNewline: false) }.joined().utf8)
    } else {
      // Only a regular file: a device or a pipe could be read forever or never end.
      guard Self.isRegularFile(path), let data = FileManager.default.contents(atPath: path) else {
        return .failure(Unreadable(message: "cannot read the \(kind): \(Self.reason(path))", status: 66))
      }
      bytes = Array(data)
    }
    guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
      return .failure(Unreadable(message: "not a text file: a \(kind) is plain text, \(layout)", status: 65))
    }
    return .success(text)
  }

  /// The text of `path`, or the program ends with one line, `SOURCE: error: why`, and its status.
  func textOrExit(of path: String) -> String {
    switch text(of: path) {
    case .success(let text): text
    case .failure(let unreadable):
      Metronome.exit(saying: "\(Self.source(path)): error: \(unreadable.message)", status: unreadable.status)
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
