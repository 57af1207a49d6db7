import Glibc

/// Where an export goes, as `cp` and `sox` treat their destinations: a regular file (or a new
/// one) is written beside itself and moved into place when complete; a symbolic link is followed
/// and its target treated the same way, the link kept; `-` is standard output; a device or a
/// FIFO is written directly and never replaced; a directory is an error.
public enum ExportDestination: Equatable, Sendable {
  /// A regular file, new or to be replaced whole once the export is complete.
  case replacing(path: String)
  /// A device, FIFO or other special file, written in place.
  case direct(path: String)
  /// Standard output, for a pipe: `metronome export … -o - | aplay`.
  case standardOutput

  /// The destination `output` names, following symbolic links; throws for a directory or a
  /// chain of links that never ends.
  public init(resolving output: String) throws(ExportError) {
    guard output != "-" else {
      self = .standardOutput
      return
    }
    var path = output
    // Linux gives up after 40 links too (ELOOP).
    for _ in 0..<40 {
      var info = stat()
      guard lstat(path, &info) == 0 else {
        self = .replacing(path: path)
        return
      }
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        path = Self.target(ofLink: path)
      case S_IFREG:
        self = .replacing(path: path)
        return
      case S_IFDIR:
        throw .isDirectory(path: output)
      default:
        self = .direct(path: path)
        return
      }
    }
    throw .cannotWrite(path: output, reason: String(cString: strerror(ELOOP)))
  }

  /// Where a file that replaces `path` is written until it is complete: `.NAME.partial-PID` in
  /// the same folder, so that moving it into place is one rename.
  public static func partialPath(beside path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(folder).\(name).partial-\(getpid())"
  }

  /// How the destination is named in messages.
  public var name: String {
    switch self {
    case .replacing(let path), .direct(let path): return path
    case .standardOutput: return "standard output"
    }
  }

  /// The path a link points to, relative targets taken from the link's own directory.
  private static func target(ofLink link: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(link, &buffer, buffer.count - 1)
    guard count > 0 else { return link }
    let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard !target.hasPrefix("/"), let slash = link.lastIndex(of: "/") else { return target }
    return String(link[...slash]) + target
  }
}
