import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeRun
import MetronomeTesting
import XCTest

/// The completions bash, zsh and fish offer: generated from the commands' own declarations, each
/// option's values completed as their kind wants, tried in each shell in a real terminal.
final class ShellCompletionTests: FolderTestCase {
  /// What each option taking a value is completed with, by its long name, in every command (or
  /// `COMMAND --NAME` where a command's own option takes other values than another's).
  ///
  /// An option added without a line here fails the first test: say what the shell should offer
  /// for it, or `nothing` where its value is a number or a word no list holds.
  private static let completions: [String: String] = [
    "map": "files .map", "setlist": "files", "keys": "files", "report": "files .svg .csv .ndjson",
    "samples": "files .wav .flac .ogg .opus .mp3 .aiff .aif", "output": "files .wav .flac .ogg .opus .mp3 .aiff .aif",
    "device": "looked up", "listen-device": "looked up", "connect": "looked up", "listen-from": "looked up",
    "midi-clock-from": "looked up", "midi-connect": "looked up",
    "sound": "one of " + ClickSound.allCases.map(\.rawValue).joined(separator: " "),
    "events": "one of " + PrintedBeats.allCases.map(\.rawValue).joined(separator: " "),
    "format": "one of " + SampleEncoding.allCases.map(\.rawValue).joined(separator: " "),
    "pattern": "nothing", "group": "nothing", "subdivide": "nothing", "swing": "nothing", "poly": "nothing",
    "max-numerator": "nothing", "beats": "nothing", "bars": "nothing", "duration": "nothing", "volume": "nothing",
    "rate": "nothing", "start-label": "nothing", "count-in": "nothing", "multiplier": "nothing", "gap": "nothing",
    "seed": "nothing", "step": "nothing", "to": "nothing", "loop-bars": "nothing", "period": "nothing",
    "buffer": "nothing", "client-name": "nothing", "osc": "nothing", "osc-return": "nothing", "osc-host": "nothing",
    "listen-notes": "nothing", "listen-velocity": "nothing", "onset-level": "nothing", "onset-rise": "nothing",
    "input-offset": "nothing", "tolerance": "nothing", "midi-note-map": "nothing", "voice-dir": "directory",
    "tag": "nothing", "journal": "files .sqlite3", "since": "nothing", "day": "nothing", "last": "nothing",
    "export": "files .ndjson", "journal --report": "files .html .svg .csv", "earn": "nothing", "earn-back": "nothing",
  ]

  func testEveryOptionTakingAValueIsCompletedAsItsKindWants() throws {
    var seen: Set<String> = []
    for (command, option, kind) in try Self.declared("option") {
      let own = "\(command) --\(option)"
      seen.insert(Self.completions[own] == nil ? option : own)
      guard let expected = Self.completions[own] ?? Self.completions[option] else {
        XCTFail("\(command) --\(option) has no completion: give it one, and a line in ShellCompletionTests")
        continue
      }
      XCTAssertEqual(kind, expected, "\(command) --\(option)")
    }
    XCTAssertEqual(Set(Self.completions.keys).subtracting(seen), [], "options no command declares any more")
  }

  func testWhereNoCommandIsNamedTheShellsOfferWhatPlayTakes() throws {
    let script = try MetronomeProcess.run(["--generate-completion-script", "bash"]).standardOutput
    let root = try XCTUnwrap(script.components(separatedBy: "\n_metronome() {").dropFirst().first)
    for kind in ["option", "flag"] {
      let play = Set(try Self.declared(kind).filter { $0.command == "play" }.map { "--" + $0.option })
      XCTAssertFalse(play.isEmpty)
      let line = try XCTUnwrap(root.split(separator: "\n").first { $0.contains("local -a non_repeating_\(kind)s=(") })
      let offered = Set(line.split(separator: "(")[1].dropLast().split(separator: " ").map(String.init))
      XCTAssertEqual(play.subtracting(offered), [], "play's \(kind)s the root does not offer")
    }
    XCTAssertTrue(root.contains("compgen -W 'play export devices klick calibrate journal help'"), "the commands' names")
  }

  func testAScriptAskedForWithoutAShellIsTheUsersShells() throws {
    for shell in ["bash", "zsh", "fish"] {
      let named = try MetronomeProcess.run(["--generate-completion-script", shell]).standardOutput
      let joined = try MetronomeProcess.run(["--generate-completion-script=\(shell)"]).standardOutput
      let own = try MetronomeProcess.run(["--generate-completion-script"], environment: ["SHELL": "/bin/\(shell)"])
      XCTAssertEqual(joined, named, shell)
      XCTAssertEqual(own.standardOutput, named, shell)
    }
  }

  func testBashCompletesOptionsMapFilesAndJACKPortsPastTheirColon() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let shell = try shellSession(
      "bash", script: "metronome.bash",
      start: "bash --norc --noprofile -i",
      load: "source /usr/share/bash-completion/bash_completion; source metronome.bash",
      environment: server.environment)
    // The first Tab adds what every choice shares; two more list them, as readline does.
    try shell.send("metronome --lis", "Tab")
    _ = try shell.waitForScreen { $0.contains("metronome --list") }
    try shell.send("Tab", "Tab")
    var screen = try shell.waitForScreen { $0.contains("--listen-velocity") }
    for option in ["--listen", "--listen-device", "--listen-from", "--listen-notes", "--list-devices"] {
      XCTAssertTrue(screen.contains(option), "\(option) in \(screen)")
    }
    try shell.send("C-u", "metronome 3/4 --map ", "Tab", "Tab")
    screen = try shell.waitForScreen { $0.contains("song.map") }
    XCTAssertTrue(screen.contains("maps/"), screen)
    XCTAssertFalse(screen.contains("notes.txt"), "a file that is not a map is offered: \(screen)")
    try shell.send("C-u", "metronome --jack --connect system:pl", "Tab", "Tab")
    screen = try shell.waitForScreen { $0.contains("playback_1  playback_2") }
    XCTAssertTrue(screen.contains("--connect system:playback_"), screen)
  }

  func testZshCompletesJACKPortsWhoseNamesHoldAColon() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let shell = try shellSession(
      "zsh", script: "_metronome", start: "zsh -f -i",
      load: "fpath=(\(folder.path) $fpath); autoload -Uz compinit; compinit -u", environment: server.environment)
    try shell.send("metronome --jack --connect sys", "Tab")
    let screen = try shell.waitForScreen { $0.contains("system:playback_1  system:playback_2") }
    XCTAssertTrue(screen.contains("--connect system:playback_"), screen)
  }

  func testFishCompletesTheListeningOptionsAndJACKPorts() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let shell = try shellSession(
      "fish", script: "metronome.fish", start: "fish --no-config", load: "source metronome.fish",
      environment: server.environment)
    try shell.send("metronome --listen-d", "Tab")
    _ = try shell.waitForScreen { $0.contains("metronome --listen-device ") }
    try shell.send("C-u", "metronome --jack --connect sys", "Tab")
    let screen = try shell.waitForScreen { $0.contains("…playback_1") && $0.contains("…playback_2") }
    XCTAssertTrue(screen.contains("--connect system:playback_"), screen)
  }

  func testPortsAreOfferedAfterTheOnesAlreadyNamed() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let offered = try offers(for: "--connect", after: "system:playback_2,sys", environment: server.environment)
    XCTAssertEqual(offered, ["system:playback_2,system:playback_1", "system:playback_2,system:playback_2"])
    let sources = try offers(for: "--listen-from", environment: server.environment)
    XCTAssertEqual(sources, ["system:capture_1", "system:capture_2"], "the server's outputs, not its inputs")
  }

  func testWithNoJACKServerRunningNoPortIsOffered() throws {
    let offered = try offers(for: "--connect", environment: ["JACK_DEFAULT_SERVER": "metronome-test-none-\(getpid())"])
    XCTAssertEqual(offered, [])
  }

  func testPlaybackDevicesAreOfferedToPlayAndCaptureDevicesToListen() throws {
    // ALSA reads a device's direction from the end of its description, as its plugins write it.
    let asoundrc = """
      pcm.metronome_out { type null; hint { show on; description "out|IOIDOutput" } }
      pcm.metronome_in { type null; hint { show on; description "in|IOIDInput" } }
      defaults.namehint.showall on

      """
    try write(asoundrc, to: ".asoundrc")
    let playback = try offers(for: "--device", environment: ["HOME": folder.path])
    let capture = try offers(for: "--listen-device", environment: ["HOME": folder.path])
    XCTAssertTrue(playback.contains("metronome_out") && !playback.contains("metronome_in"), "\(playback)")
    XCTAssertTrue(capture.contains("metronome_in") && !capture.contains("metronome_out"), "\(capture)")
    XCTAssertTrue(playback.contains("null") && capture.contains("null"), "a device of no direction goes both ways")
  }

  /// What metronome offers for `option`'s value in `metronome OPTION ⇥`, asked as the shells ask.
  private func offers(for option: String, after typed: String = "", environment: [String: String]) throws -> [String] {
    let asked = try MetronomeProcess.run(
      ["---completion", "play", "--", option, "2", "\(typed.count)", "metronome", option, typed],
      environment: environment)
    XCTAssertEqual(asked.status, 0, asked.standardError)
    return asked.standardOutput.split(separator: "\n").map(String.init)
  }

  /// An interactive `shell` in a terminal of its own, in the test's folder (a map, a text file
  /// and a folder in it), with metronome on its path and its completion script generated as
  /// `script` and loaded by `load`; once its prompt is back.
  private func shellSession(
    _ shell: String, script: String, start: String, load: String, environment: [String: String]
  ) throws -> TmuxSession {
    for name in ["song.map", "notes.txt", "maps/first.map"] { try write("", to: name) }
    let generated = try MetronomeProcess.run(["--generate-completion-script", shell])
    XCTAssertEqual(generated.status, 0, generated.standardError)
    try write(generated.standardOutput, to: script)
    var environment = environment
    environment["PATH"] = MetronomeProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
    let session = try TmuxSession(
      command: "cd '\(folder.path)' && \(start)", width: 160, height: 30, environment: environment)
    try session.send("\(load); echo loaded-\(shell)", "Enter")
    _ = try session.waitForScreen { $0.contains("\nloaded-\(shell)") }
    try session.send("clear", "Enter")
    _ = try session.waitForScreen { !$0.contains("loaded-\(shell)") }
    return session
  }

  /// Every option taking a value (`kind` "option") or flag in every command, by its long name,
  /// with what its declaration completes it with.
  private static func declared(_ kind: String) throws -> [(command: String, option: String, kind: String)] {
    let dump = try MetronomeProcess.run(["--experimental-dump-help"])
    let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
    let root = try XCTUnwrap(tree["command"] as? [String: Any])
    var options: [(String, String, String)] = []
    for command in root["subcommands"] as? [[String: Any]] ?? [] {
      let name = command["commandName"] as? String ?? ""
      for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == kind {
        let names = argument["names"] as? [[String: Any]] ?? []
        guard let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String,
          long != "generate-completion-script"
        else { continue }
        options.append((name, long, describe(argument["completionKind"] as? [String: Any])))
      }
    }
    return options
  }

  /// A completion as the table above says it.
  private static func describe(_ kind: [String: Any]?) -> String {
    guard let (name, value) = kind?.first else { return "nothing" }
    let values = value as? [String: Any]
    switch name {
    case "file":
      let extensions = values?["extensions"] as? [String] ?? []
      return (["files"] + extensions.map { "." + $0 }).joined(separator: " ")
    case "list": return "one of " + (values?["values"] as? [String] ?? []).joined(separator: " ")
    case "custom": return "looked up"
    default: return name
    }
  }
}
