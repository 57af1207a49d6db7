/// Turns the bytes a raw-mode terminal sends into keys.
///
/// Arrows arrive as `ESC [ A` (or `ESC O A`); an ESC that no sequence follows within the same read
/// is the Esc key itself.
public struct KeyDecoder: Sendable {
  /// A decoder.
  public init() {}

  /// The keys in one read of `bytes`.
  ///
  /// Unknown escape sequences and non-UTF-8 bytes are skipped.
  public func decode(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B {
        if index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F {
          let arrows: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left]
          if let arrow = arrows[bytes[index + 2]] { keys.append(arrow) }
          index += 3
          // Skip the rest of a longer sequence such as `ESC [ 5 ~`.
          while index - 1 < bytes.count, !(0x40...0x7E).contains(bytes[index - 1]) { index += 1 }
        } else {
          keys.append(.escape)
          index += 1
        }
        continue
      }
      let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
      let end = min(index + length, bytes.count)
      if let character = String(validating: bytes[index..<end], as: UTF8.self)?.first {
        keys.append(.character(character))
      }
      index = end
    }
    return keys
  }
}
