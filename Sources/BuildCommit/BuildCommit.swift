import Foundation
import PackagePlugin

/// Writes the Git commit being built into the executable, for `--version`.
///
/// The command runs again whenever Git's HEAD or index changes (a commit, a checkout, an amend
/// rewrites the index), and rewrites its one file only when the text differs, so an unchanged
/// commit rebuilds nothing. Outside a clone (a source tarball), the commit is "unknown".
@main
struct BuildCommit: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
    let git = context.package.directoryURL.appending(path: ".git")
    let script = """
      commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
      text="/// The Git commit this binary was built from, written by the BuildCommit plugin.
      let buildCommit = \\"$commit\\""
      [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" >"$2"
      """
    return [
      .buildCommand(
        displayName: "Reading the commit being built",
        executable: URL(filePath: "/bin/sh"),
        arguments: ["-c", script, "build-commit", context.package.directoryURL.path, output.path],
        inputFiles: ["HEAD", "index"].map { git.appending(path: $0) }
          .filter { FileManager.default.fileExists(atPath: $0.path) },
        outputFiles: [output])
    ]
  }
}
