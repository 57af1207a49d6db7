/// Names given as one value, comma-separated: JACK ports, ALSA sequencer ports, sound files.
public struct NameList: Hashable, Sendable, ExpressibleByArrayLiteral, ExpressibleByStringLiteral {
  /// The names in the order given; an empty one where two commas meet (a voice's own click in
  /// `--samples`).
  public let names: [String]

  /// The names `text` gives, split at its commas.
  public init(parsing text: String) {
    names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  /// The names a literal gives, comma-separated, as typed on the command line.
  public init(stringLiteral text: String) { self.init(parsing: text) }

  /// `names`, in order.
  public init(names: [String]) { self.names = names }

  /// The names given.
  public init(arrayLiteral names: String...) { self.names = names }

  /// The names that are not empty: ports to connect.
  public var ports: [String] { names.filter { !$0.isEmpty } }
}
