/// What placed an audio hit against the click the player heard: the click itself, heard at the
/// microphone, or the round trip a calibration measured or the devices report, which a
/// microphone that does not hear the click (behind headphones) needs.
public enum HitPlacement: Hashable, Sendable {
  /// The click heard at the microphone, so many ms after it was played (nil where the input's
  /// clock is its own and only the part beyond the devices' positions is known).
  case heardClick(milliseconds: Double?)
  /// The round trip `calibrate --loopback` saved, on the day it says (`YYYY-MM-DD`; nil for a
  /// file that does not say).
  case calibration(day: String?)
  /// The latencies the devices report, with nothing measured beyond them.
  case reportedLatency

  /// How an attack the microphone does not hear the click for is placed: by `file`'s
  /// calibration of `source`, where it has one, else by the latencies the devices report.
  public init(unheardBy file: CalibrationFile, from source: Calibration.Source) {
    self = file.offsets[source] == nil ? .reportedLatency : .calibration(day: file.days[source])
  }

  /// The words the summary ends with: the display's (`displayWords`), and why where the click
  /// was not heard.
  public var description: String {
    switch self {
    case .heardClick: displayWords
    case .calibration: displayWords + " (the microphone did not hear the click)"
    case .reportedLatency:
      displayWords + " (the microphone did not hear the click: run metronome calibrate --loopback)"
    }
  }

  /// One word for what placed the hit, as the ndjson report's `placedBy` says it: `click`,
  /// `calibration` or `latencies`.
  public var word: String {
    switch self {
    case .heardClick: "click"
    case .calibration: "calibration"
    case .reportedLatency: "latencies"
    }
  }

  /// The words the display shows: what placed the hits.
  public var displayWords: String {
    switch self {
    case .heardClick(let milliseconds?):
      "placed by the click heard at the microphone, \(HitStatistics.format(milliseconds)) ms after it was played"
    case .heardClick(nil): "placed by the click heard at the microphone"
    case .calibration(let day?): "placed by the calibration of \(day)"
    case .calibration(nil): "placed by the saved calibration"
    case .reportedLatency: "placed by the latencies the devices report"
    }
  }
}
