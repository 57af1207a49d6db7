import Glibc
import MetronomeEngine

/// Writes a listening report where `--report` said, as exports are written: a regular file beside
/// itself first, then moved into place whole; a device or a FIFO in place, never replaced.
enum ReportFile {
  /// Where `path`, given to `option`, is written, checked as far as can be before anything is:
  /// not a folder (`example` is a file to name in it), and in a folder that can be written.
  static func destination(_ path: String, for option: String, example: String) throws(RunError) -> ExportDestination {
    let destination: ExportDestination
    do { destination = try ExportDestination(resolving: path) } catch {
      if case .isDirectory = error {
        throw .usage("\(option): '\(path)' is a folder: name a file in it, such as \(path)/\(example)")
      }
      throw .usage("\(option): cannot write '\(path)': it is a loop of links")
    }
    guard case .replacing(let file) = destination else { return destination }
    let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? "."
    guard access(folder, W_OK) == 0 else {
      throw .usage("\(option): cannot write in '\(folder)': \(String(cString: strerror(errno)))")
    }
    return destination
  }

  /// Writes `text` to `destination`; returns what went wrong, with what to do, if anything.
  static func write(_ text: String, to destination: ExportDestination) -> String? {
    let path: String
    let temporary: String?
    switch destination {
    case .replacing(let file):
      path = file
      temporary = ExportDestination.partialPath(beside: file)
    case .direct(let file):
      path = file
      temporary = nil
    case .standardOutput:
      return "the report needs a file"
    }
    let descriptor =
      temporary.map { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) } ?? open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return failure(path) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      guard written > 0 else {
        let message = failure(path)
        close(descriptor)
        if let temporary { unlink(temporary) }
        return message
      }
      bytes = bytes.dropFirst(written)
    }
    guard close(descriptor) == 0, temporary.map({ rename($0, path) == 0 }) ?? true else {
      let message = failure(path)
      if let temporary { unlink(temporary) }
      return message
    }
    return nil
  }

  private static func failure(_ path: String) -> String {
    "cannot write the report to '\(path)': \(String(cString: strerror(errno)))"
  }
}
