/// An OSC message: an address pattern and its arguments.
public struct OSCMessage: Hashable, Sendable, CustomStringConvertible {
  /// Where it goes, such as `/klick/simple/set_tempo`.
  public let path: String
  /// Its arguments, in order.
  public let arguments: [OSCArgument]

  /// The message to `path` with `arguments`.
  public init(_ path: String, _ arguments: [OSCArgument] = []) {
    self.path = path
    self.arguments = arguments
  }

  /// Its type tags, without OSC's leading comma: `"ii"` for a meter.
  public var typeTags: String { String(arguments.map(\.typeTag)) }

  /// As klick logs a message: `/klick/simple/set_tempo ,f 96.0`.
  public var description: String {
    ([path, "," + typeTags] + arguments.map(\.description)).joined(separator: " ")
  }

  /// The arguments as one of `typeSpecs` asks for, coerced as liblo's dispatch would; nil when
  /// they match none.
  public func arguments(matching typeSpecs: [String]) -> [OSCArgument]? {
    for spec in typeSpecs where spec.count == arguments.count {
      let coerced = zip(spec, arguments).compactMap { $1.coerced(to: $0) }
      if coerced.count == arguments.count { return coerced }
    }
    return nil
  }
}
