import Foundation
import Testing

/// The shipped binary stays small in memory: it must not load Foundation, whose ICU data and
/// networking stack (libcurl, TLS, Kerberos) would more than double its resident size.
@Suite(.timeLimit(.minutes(1)))
struct BinaryFootprintTests {
  @Test func theBinaryLinksNeitherFoundationNorItsNetworkingStack() throws {
    let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [MetronomeProcess.binary.path])
    try #require(result.status == 0, "ldd failed: \(result.standardError)")
    let libraries = result.standardOutput.split(separator: "\n").compactMap {
      $0.split(whereSeparator: \.isWhitespace).first
    }
    .map(String.init)

    #expect(libraries.contains("libasound.so.2"))
    let heavy = libraries.filter {
      ["libFoundation.so", "libFoundationNetworking.so", "lib_FoundationICU.so"].contains($0)
        || $0.hasPrefix("libcurl")
    }
    #expect(heavy.isEmpty, "the binary links \(heavy)")
  }
}
