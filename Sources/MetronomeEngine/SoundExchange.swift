import MetronomeCore

/// Hands new click sounds from the thread that made them to the render thread, which never waits
/// for them and never frees memory: the sounds it gives back are freed by the next handing over.
///
/// `@unchecked Sendable`: both slots are touched only under `lock`.
final class SoundExchange: @unchecked Sendable {
  private let lock = Lock()
  /// Sounds handed over and not yet taken.
  private var pending: [[Float]]?
  /// Sounds the render thread gave back, to be freed off it.
  private var retired: [[Float]]?

  /// Hands `sounds` over, in place of any not yet taken.
  func offer(_ sounds: [[Float]]) {
    let freed = lock.withLock {
      defer { (pending, retired) = (sounds, nil) }
      return (pending, retired)
    }
    // Released here, on the offering thread, once the lock is let go.
    _ = freed
  }

  /// The sounds handed over, if any and if the lock is free, keeping `playing` (the ones they
  /// replace) to be freed by the next `offer`; call on the render thread.
  func take(replacing playing: [[Float]]) -> [[Float]]? {
    lock.withLockIfAvailable { () -> [[Float]]? in
      // While the last ones given back are still here, the new ones wait: dropping those here would free them.
      guard retired == nil, let new = pending else { return nil }
      pending = nil
      retired = playing
      return new
    } ?? nil
  }
}
