/// A format a file is written in, named as the file's extension names it (`svg`, `csv`, `html`).
public protocol FileFormat: RawRepresentable where RawValue == String {}

extension FileFormat {
  /// The format the name `path` ends in (`take.SVG` is `svg`), in any case; nil for another, or a
  /// name with no extension.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), let format = Self(rawValue: path[dot...].dropFirst().lowercased()) else {
      return nil
    }
    self = format
  }
}
