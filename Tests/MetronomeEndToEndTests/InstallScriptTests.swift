import Foundation
import MetronomeTesting
import XCTest

/// `scripts/install` as a user or a packager runs it, with the binary the tests were built with:
/// where it writes, what it writes, and that `--uninstall` takes away exactly that.
final class InstallScriptTests: FolderTestCase {
  /// Every file and folder under `url`, with each file's bytes' hash, to compare a tree before
  /// and after.
  private func tree(_ url: URL) -> [String: Int] {
    var entries: [String: Int] = [:]
    guard let walker = FileManager.default.enumerator(atPath: url.path) else { return entries }
    for case let path as String in walker {
      entries[path] = (try? Data(contentsOf: url.appendingPathComponent(path)))?.hashValue ?? 0
    }
    return entries
  }

  /// Runs `scripts/install` of `checkout` (this one unless told) with `arguments` and
  /// `environment`, as the user `asUser` where given.
  @discardableResult
  private func install(
    _ arguments: [String], _ environment: [String: String], asUser: String? = nil,
    checkout: URL = MetronomeProcess.repository
  ) throws -> ProcessResult {
    let script = checkout.appendingPathComponent("scripts/install").path
    let command = asUser.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=nogroup", "--clear-groups"] } ?? []
    let run = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      environment.map { "\($0.key)=\($0.value)" } + command + [script] + arguments, directory: folder)
    XCTAssertEqual(run.status, 0, run.standardError)
    return run
  }

  func testAStagedInstallWritesOnlyUnderTheStageAndUninstallLeavesItAsItWas() throws {
    let stage = folder.appendingPathComponent("stage")
    let prefix = stage.appendingPathComponent("usr")
    try write("someone else's\n", to: "stage/usr/bin/other")
    let before = tree(folder)
    let environment = ["DESTDIR": stage.path, "PREFIX": "/usr"]

    try install(["--binary", MetronomeProcess.binary.path, "--klick-link"], environment)
    let installed = Set(tree(prefix).keys)
    let expected: Set<String> = [
      "bin", "bin/other", "bin/metronome", "bin/klick", "share", "share/man", "share/man/man1",
      "share/man/man1/metronome.1.gz", "share/man/man5", "share/man/man5/metronome.5.gz", "share/bash-completion",
      "share/bash-completion/completions", "share/bash-completion/completions/metronome", "share/zsh",
      "share/zsh/vendor-completions", "share/zsh/vendor-completions/_metronome", "share/fish",
      "share/fish/vendor_completions.d", "share/fish/vendor_completions.d/metronome.fish", "share/doc",
      "share/doc/metronome", "share/doc/metronome/LICENSE", "share/doc/metronome/NOTICES",
      "share/doc/metronome/installed",
    ]
    XCTAssertEqual(installed, expected)
    XCTAssertEqual(Set(tree(folder).keys).subtracting(before.keys).filter { !$0.hasPrefix("stage/usr/") }, [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/share/doc/metronome/installed"))

    let page = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/gzip"), ["-dc", prefix.appendingPathComponent("share/man/man1/metronome.1.gz").path])
    let source = try String(
      contentsOf: MetronomeProcess.repository.appendingPathComponent("man/metronome.1"), encoding: .utf8)
    XCTAssertEqual(page.standardOutput, source)
    let bash = try String(
      contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/metronome"), encoding: .utf8)
    XCTAssertEqual(bash, try MetronomeProcess.run(["--generate-completion-script", "bash"]).standardOutput)
    let link = try FileManager.default.destinationOfSymbolicLink(
      atPath: prefix.appendingPathComponent("bin/klick").path)
    XCTAssertEqual(link, "metronome")

    // A second install over the first, then one uninstall: the first's folders go too.
    try install(["--binary", MetronomeProcess.binary.path], environment)
    try install(["--uninstall"], environment)
    XCTAssertEqual(tree(folder), before)
  }

  func testWithoutRootItInstallsIntoTheHomeFolderAndUninstallsFromIt() throws {
    let home = folder.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
    var (user, binary, checkout): (String?, String, URL) =
      (nil, MetronomeProcess.binary.path, MetronomeProcess.repository)
    if getuid() == 0 {
      // As root, the script runs as nobody, which owns only this home, from a checkout of what
      // the install reads and with a binary where nobody may read them, as a user's own checkout
      // is theirs: this one may be in a folder closed to others (a clone in `mktemp -d`).
      user = "nobody"
      try FileManager.default.setAttributes([.ownerAccountName: "nobody"], ofItemAtPath: home.path)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
      checkout = folder.appendingPathComponent("checkout")
      for file in ["scripts/install", "scripts/NOTICES", "man/metronome.1", "man/metronome.5", "LICENSE"] {
        let copy = checkout.appendingPathComponent(file)
        try FileManager.default.createDirectory(
          at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: MetronomeProcess.repository.appendingPathComponent(file), to: copy)
      }
      binary = folder.appendingPathComponent("metronome").path
      try FileManager.default.copyItem(atPath: MetronomeProcess.binary.path, toPath: binary)
    }

    let run = try install(["--binary", binary], environment, asUser: user, checkout: checkout)
    XCTAssertTrue(run.standardOutput.contains("under \(home.path)/.local"), run.standardOutput)
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: home.appendingPathComponent(".local/bin/metronome").path))
    XCTAssertTrue(
      run.standardError.contains("add \(home.path)/.local/share/zsh/site-functions to it"), run.standardError)
    try install(["--uninstall"], environment, asUser: user, checkout: checkout)
    XCTAssertEqual(tree(home), [:])
  }

  func testUninstallingWhatWasNeverInstalledSaysSoAndTouchesNothing() throws {
    try write("kept\n", to: "prefix/bin/metronome")
    let before = tree(folder)
    let script = MetronomeProcess.repository.appendingPathComponent("scripts/install").path
    let run = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["PREFIX=\(folder.path)/prefix", script, "--uninstall"])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.standardError,
      "install: nothing to uninstall: \(folder.path)/prefix/share/doc/metronome/installed is not there\n")
    XCTAssertEqual(tree(folder), before)
  }
}
