import Foundation

/// Runs `work` on a thread of its own and awaits its result.
///
/// A Swift Testing test that waits on child processes for minutes would otherwise hold one of the
/// few cooperative threads (two on a two-core machine) that every other suite runs on, and the
/// quick tests started beside it would wait past their time limits, which count from their start.
func onAThreadOfItsOwn<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
  }
}
