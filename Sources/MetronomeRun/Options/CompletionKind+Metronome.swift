import ALSAOutput
import ArgumentParser
import JACKOutput

/// What the shells offer for values that name things: files of their kind, ALSA's devices and
/// the running JACK server's ports, looked up as the user presses Tab.
extension CompletionKind {
  /// Tempo maps in klick's format.
  static var tempoMaps: CompletionKind { .file(extensions: ["map"]) }

  /// Files of a sound format libsndfile reads and writes here.
  public static var soundFiles: CompletionKind {
    .file(extensions: ["wav", "flac", "ogg", "opus", "mp3", "aiff", "aif"])
  }

  /// Files a listening report may be written to, by their extensions.
  static var reportFiles: CompletionKind { .file(extensions: ["svg", "csv", "ndjson"]) }

  /// ALSA's playback devices, or its capture devices.
  static func alsaDevices(_ stream: ALSAPCM.Stream) -> CompletionKind {
    .custom { _, _, _ in ALSAPCM.devices(stream).map(\.name) }
  }

  /// The running JACK server's ports carrying `kinds` that take a signal in (`inputs`) or give
  /// one out, offered after a comma too, as the options take several.
  static func jackPorts(_ kinds: [JACKPorts.Kind], inputs: Bool) -> CompletionKind {
    .custom { _, _, typed in
      let earlier = typed.lastIndex(of: ",").map { typed[...$0] } ?? ""
      let ports = JACKPorts.names(of: kinds, inputs: inputs).map { String(earlier) + $0 }
      // zsh's script hands them to _describe, which reads what follows a colon as a description.
      return CompletionShell.requesting == .zsh ? ports.map { $0.replacing(":", with: "\\:") } : ports
    }
  }
}

extension ArgumentVisibility {
  /// An option for the seasoned: left out of `--help` to keep it to a screen, listed by
  /// `--help-hidden` and the man page, and still offered by the shells' completions (which
  /// ArgumentParser generates only from what it shows, so the scripts are made with it shown).
  public static var fullHelpOnly: ArgumentVisibility {
    CompletionShell.isAsked(by: Array(CommandLine.arguments.dropFirst())) ? .default : .hidden
  }
}

extension CompletionShell {
  /// Whether `arguments` ask for a completion script or for completions.
  public static func isAsked(by arguments: [String]) -> Bool {
    guard let first = arguments.first else { return false }
    return first == "---completion" || first.hasPrefix("--generate-completion-script")
  }
}
