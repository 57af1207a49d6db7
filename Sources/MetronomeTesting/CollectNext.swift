import OpenCombineShim

extension Published.Publisher {
  /// The next `count` values of a `@Published` property, skipping the current one it replays on
  /// subscription, as a single array.
  public func collectNext(_ count: Int) -> AnyPublisher<[Output], Never> {
    dropFirst().collect(count).first().eraseToAnyPublisher()
  }
}
