/// A fixed number of floats for the audio thread, owned by one object and freed with it.
///
/// Read and written through a pointer: an array stored in a class costs a run-time exclusivity
/// check on every access in a debug build, most of a canceller's time there; a `let` of this costs none.
final class FloatBuffer {
  /// The floats.
  let pointer: UnsafeMutableBufferPointer<Float>

  /// `count` floats, each `value`.
  init(count: Int, repeating value: Float = 0) {
    pointer = .allocate(capacity: count)
    pointer.initialize(repeating: value)
  }

  deinit { pointer.deallocate() }

  /// How many floats it holds.
  var count: Int { pointer.count }

  /// The float at `index`.
  subscript(index: Int) -> Float {
    get { pointer[index] }
    set { pointer[index] = newValue }
  }

  /// The floats, to read.
  var buffer: UnsafeBufferPointer<Float> { UnsafeBufferPointer(pointer) }

  /// Sets every float to `value`.
  func fill(_ value: Float) { pointer.update(repeating: value) }
}
