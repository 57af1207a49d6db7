/// A sink that asks for audio rather than waiting for it: a sound server calls it once a cycle,
/// on the server's own thread, and it calls the player to render that cycle's frames, which the
/// player writes with `write` before the call returns.
public protocol CallbackAudioSink: AudioSink {
  /// Starts calling `render` with each cycle's frames, and `failed` once if the sound server goes
  /// away, after which `render` is no longer called.
  func start(rendering render: @escaping @Sendable (Int) -> Void, failed: @escaping @Sendable (any Error) -> Void)
    throws
  /// Stops the calls and leaves the sound server; not from within `render`.
  func stop()
}
