/// One argument of an OSC message, by its type tag.
public enum OSCArgument: Hashable, Sendable, CustomStringConvertible {
  /// `i`: a 32-bit integer.
  case int32(Int32)
  /// `f`: a 32-bit float.
  case float32(Float)
  /// `d`: a 64-bit float.
  case double(Double)
  /// `h`: a 64-bit integer.
  case int64(Int64)
  /// `s`: a string.
  case string(String)
  /// `S`: a symbol, a string by another tag.
  case symbol(String)
  /// `b`: bytes.
  case blob([UInt8])
  /// `c`: one ASCII character.
  case character(UInt8)
  /// `m`: four bytes of a MIDI message.
  case midi([UInt8])
  /// `t`: an NTP time tag.
  case timeTag(UInt64)
  /// `T` or `F`.
  case boolean(Bool)
  /// `N`.
  case null
  /// `I`: an impulse, "infinitum" in OSC 1.0.
  case impulse

  /// Its type tag.
  public var typeTag: Character {
    switch self {
    case .int32: "i"
    case .float32: "f"
    case .double: "d"
    case .int64: "h"
    case .string: "s"
    case .symbol: "S"
    case .blob: "b"
    case .character: "c"
    case .midi: "m"
    case .timeTag: "t"
    case .boolean(let value): value ? "T" : "F"
    case .null: "N"
    case .impulse: "I"
    }
  }

  /// The argument as the type `tag` asks for, as liblo's dispatch coerces it: numbers into one
  /// another (a float into an integer by truncation), strings and symbols into each other; nil when
  /// it cannot be.
  public func coerced(to tag: Character) -> OSCArgument? {
    if tag == typeTag { return self }
    switch (tag, self) {
    case ("i", _): return number.map { .int32(Int32(clamping: Int64($0.rounded(.towardZero)))) }
    case ("h", _): return number.map { .int64(Int64($0.rounded(.towardZero))) }
    case ("f", _): return number.map { .float32(Float($0)) }
    case ("d", _): return number.map { .double($0) }
    case ("s", .symbol(let text)): return .string(text)
    case ("S", .string(let text)): return .symbol(text)
    default: return nil
    }
  }

  /// A number's value; nil for other types.
  ///
  /// A non-finite one or one beyond 64 bits counts as none: it fits no integer.
  private var number: Double? {
    let value: Double? =
      switch self {
      case .int32(let value): Double(value)
      case .float32(let value): Double(value)
      case .double(let value): value
      case .int64(let value): Double(value)
      default: nil
      }
    return value.flatMap { $0.isFinite && abs($0) < 9.2e18 ? $0 : nil }
  }

  /// How it reads in logs and test failures: `96.0`, `"X.x"`.
  public var description: String {
    switch self {
    case .int32(let value): "\(value)"
    case .int64(let value): "\(value)"
    case .float32(let value): "\(value)"
    case .double(let value): "\(value)"
    case .string(let text), .symbol(let text): "\"\(text)\""
    case .blob(let bytes): "[\(bytes.count) bytes]"
    case .character(let code): "'\(Character(Unicode.Scalar(code)))'"
    case .midi(let bytes): "MIDI \(bytes)"
    case .timeTag(let tag): "\(tag)"
    case .boolean(let value): value ? "true" : "false"
    case .null: "nil"
    case .impulse: "impulse"
    }
  }
}
