/// One element of an SVG picture as the reports write them, one a line: its name, its attributes
/// and its text, for tests that read a picture back as geometry.
public struct SVGElement: Sendable {
  /// The element's name: `circle`, `line`, `rect`, `text`, `polyline`.
  public let name: String
  /// Its attributes by name.
  public let attributes: [String: String]
  /// The text it holds, up to the next tag.
  public let text: String

  /// The attribute `name` as a number; NaN where it is none.
  public func number(_ name: String) -> Double { Double(attributes[name] ?? "") ?? .nan }

  /// The elements of `svg`, one a line, in order.
  public static func elements(of svg: String) -> [SVGElement] {
    svg.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("<"), let space = line.firstIndex(of: " ") else { return nil }
      let name = String(line[line.index(after: line.startIndex)..<space])
      var attributes: [String: String] = [:]
      var rest = line[space...]
      while let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].hasPrefix("\"") {
        let key = rest[..<equals].trimmingPrefix(" ")
        let valueStart = rest.index(equals, offsetBy: 2)
        guard let valueEnd = rest[valueStart...].firstIndex(of: "\"") else { break }
        attributes[String(key)] = String(rest[valueStart..<valueEnd])
        rest = rest[rest.index(after: valueEnd)...]
      }
      let text = line.firstIndex(of: ">").map { String(line[line.index(after: $0)...].prefix { $0 != "<" }) } ?? ""
      return SVGElement(name: name, attributes: attributes, text: text)
    }
  }
}
