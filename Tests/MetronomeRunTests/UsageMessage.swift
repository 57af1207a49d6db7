import MetronomeRun
import Testing

/// The message of the usage error (status 64) that `make` throws, or nil when it throws none;
/// any other error fails the test.
func usageMessage(of make: () throws -> some Any) -> String? {
  do {
    _ = try make()
    return nil
  } catch let error as RunError {
    #expect(error.kind == .usage)
    #expect(error.status == 64)
    return error.message
  } catch {
    Issue.record("not a usage error: \(error)")
    return nil
  }
}
