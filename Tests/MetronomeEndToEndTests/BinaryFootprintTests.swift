import Foundation
import Testing

/// What the shipped binary holds: neither Foundation, nor Ableton Link unless asked for.
///
/// Foundation's ICU data and networking stack (libcurl, TLS, Kerberos) would more than double its
/// resident size; Ableton Link is GPL, and only a build with the AbletonLink trait may hold it.
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

  @Test func theVersionNamesTheCommitBuiltAndWhetherLinkIsIn() throws {
    let git = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/git"), ["-C", MetronomeProcess.repository.path, "rev-parse", "HEAD"])
    try #require(git.status == 0, "git failed: \(git.standardError)")
    let version = try MetronomeProcess.run(["--version"])
    #expect(version.standardOutput.hasPrefix("metronome 0.1.0 (commit \(git.standardOutput.prefix(12))"))
    if MetronomeProcess.holdsLink {
      #expect(version.standardOutput.hasSuffix("; with Ableton Link: GPL-2.0-or-later)\n"), "\(version.standardOutput)")
    } else {
      #expect(version.standardOutput.hasSuffix("; without Ableton Link: Apache-2.0)\n"), "\(version.standardOutput)")
    }
  }

  @Test func theBinaryHoldsAbletonLinkOnlyWithItsTrait() throws {
    let symbols = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/nm"), ["-C", MetronomeProcess.binary.path])
    try #require(symbols.status == 0, "nm failed: \(symbols.standardError)")
    let hasLinkSymbols = symbols.standardOutput.contains("ableton::")

    guard !MetronomeProcess.holdsLink else {
      #expect(hasLinkSymbols)
      return
    }
    #expect(!hasLinkSymbols, "the default build holds Ableton Link, which is GPL")
    let run = try MetronomeProcess.run(["--jack", "--link"])
    #expect(run.status == 64)
    #expect(
      run.standardError.hasPrefix(
        "Error: this metronome was built without Ableton Link: build it with scripts/install --link"),
      "\(run.standardError)")
  }
}
