import MetronomeCore

/// A tempo map as it was loaded, and the file it was read from.
public struct LoadedMap: Hashable, Sendable {
  /// The map.
  public let map: TempoMap
  /// The file a remote control read it from; nil for the map the run started with, whose file
  /// the run itself names.
  public let file: String?

  /// `map`, read from `file`.
  public init(map: TempoMap, file: String?) {
    self.map = map
    self.file = file
  }
}
