import ArgumentParser

/// A failure after the arguments were accepted: printed as `Error: …` with exit status 1.
struct RuntimeError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
