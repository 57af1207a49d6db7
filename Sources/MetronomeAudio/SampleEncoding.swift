/// How a sample is stored in a file or sent to a device.
public enum SampleEncoding: String, CaseIterable, Sendable {
  /// 16-bit signed integer.
  case pcm16 = "16"
  /// 24-bit signed integer, packed in three bytes.
  case pcm24 = "24"
  /// 32-bit IEEE float.
  case float32 = "float"

  /// Bytes per sample.
  public var bytesPerSample: Int {
    switch self {
    case .pcm16: return 2
    case .pcm24: return 3
    case .float32: return 4
    }
  }

  /// Stores `sample`, little-endian, at `address`; integers are rounded and clamped to full scale.
  @inline(__always)
  public func store(_ sample: Float, at address: UnsafeMutableRawPointer) {
    switch self {
    case .pcm16:
      address.storeBytes(of: Int16(Self.scaled(sample, fullScale: 32_767)).littleEndian, as: Int16.self)
    case .pcm24:
      let value = UInt32(bitPattern: Int32(Self.scaled(sample, fullScale: 8_388_607)))
      address.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
      (address + 1).storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), as: UInt8.self)
      (address + 2).storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), as: UInt8.self)
    case .float32:
      address.storeBytes(of: sample.bitPattern.littleEndian, as: UInt32.self)
    }
  }

  /// The sample stored at `address`, as `store` wrote it, in -1...1.
  @inline(__always)
  public func load(from address: UnsafeRawPointer) -> Float {
    switch self {
    case .pcm16:
      return Float(Int16(littleEndian: address.loadUnaligned(as: Int16.self))) / 32_767
    case .pcm24:
      // The three bytes at the top of a 32-bit word, shifted back down with the sign.
      let low = UInt32(address.load(fromByteOffset: 0, as: UInt8.self)) << 8
      let middle = UInt32(address.load(fromByteOffset: 1, as: UInt8.self)) << 16
      let high = UInt32(address.load(fromByteOffset: 2, as: UInt8.self)) << 24
      return Float(Int32(bitPattern: low | middle | high) >> 8) / 8_388_607
    case .float32:
      return Float(bitPattern: UInt32(littleEndian: address.loadUnaligned(as: UInt32.self)))
    }
  }

  private static func scaled(_ sample: Float, fullScale: Float) -> Float {
    (min(max(sample, -1), 1) * fullScale).rounded()
  }
}
