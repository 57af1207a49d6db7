import Glibc
import MetronomeEngine
import PracticeListening

/// Where calibrations are kept: `$XDG_CONFIG_HOME/metronome/calibration`, or
/// `~/.config/metronome/calibration`; read by runs that listen, written by `metronome calibrate`.
enum CalibrationStore {
  /// The file's path; nil without a home to keep it in.
  static var path: String? {
    let variable = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    guard let folder = variable("XDG_CONFIG_HOME") ?? variable("HOME").map({ $0 + "/.config" }) else { return nil }
    return folder + "/metronome/calibration"
  }

  /// The calibrations saved; none when there is no file.
  static func load() throws(RunError) -> CalibrationFile {
    guard let path, access(path, F_OK) == 0 else { return CalibrationFile() }
    let text = try TextFile.calibration.read(path)
    do { return try CalibrationFile(parsing: text, source: path) } catch { throw RunError(.data, "\(error)") }
  }

  /// Saves what `scorer`'s hits from `source` calibrate to, beside the other source's; returns the
  /// lines to say and, if it cannot be trusted or saved, why.
  static func conclude(_ scorer: HitScorer, from source: Calibration.Source) -> (notes: [String], error: String?) {
    guard let path else { return ([], "no HOME to keep the calibration in: set HOME or XDG_CONFIG_HOME") }
    let statistics = scorer.statistics
    switch Calibration.offset(from: statistics) {
    case .failure(let error):
      return ([], "\(error)")
    case .success(let offset):
      if let failure = save(source, offset, at: path) { return ([], failure) }
      guard let statistics else { return ([], nil) }
      return (["calibrated: " + Calibration.saying(statistics, from: source, savedAt: path)], nil)
    }
  }

  /// Saves `milliseconds` for `source`, measured today, beside the other sources' (at `path`, else
  /// the file's place); returns why not, if it cannot.
  static func save(_ source: Calibration.Source, _ milliseconds: Double, at path: String? = path) -> String? {
    guard let path else { return "no HOME to keep the calibration in: set HOME or XDG_CONFIG_HOME" }
    let file: CalibrationFile
    do { file = try load() } catch { return error.message }
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    if let failure = makeFolders(folder) { return failure }
    return ReportFile.write(file.setting(source, to: milliseconds, on: today).text, to: .replacing(path: path))
  }

  /// Today in the local time, as `YYYY-MM-DD`; nil where the clock cannot say.
  private static var today: String? {
    var now = time(nil)
    var parts = tm()
    guard localtime_r(&now, &parts) != nil else { return nil }
    return "\(parts.tm_year + 1_900)-"
      + [parts.tm_mon + 1, parts.tm_mday].map { $0 < 10 ? "0\($0)" : "\($0)" }
      .joined(separator: "-")
  }

  /// Makes `folder` and those above it; returns why not, if it cannot.
  private static func makeFolders(_ folder: String) -> String? {
    let parts = folder.split(separator: "/")
    for index in parts.indices {
      let made = (folder.hasPrefix("/") ? "/" : "") + parts[...index].joined(separator: "/")
      if mkdir(made, 0o755) != 0, errno != EEXIST {
        return "cannot make the folder '\(made)' for the calibration: \(String(cString: strerror(errno)))"
      }
    }
    return nil
  }
}
