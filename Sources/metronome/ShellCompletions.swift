import ALSAOutput
import ArgumentParser
import JACKOutput

/// What the shells offer for values that name things: files of their kind, ALSA's devices and
/// the running JACK server's ports, looked up as the user presses Tab.
extension CompletionKind {
  /// Tempo maps in klick's format.
  static var tempoMaps: CompletionKind { .file(extensions: ["map"]) }

  /// Files of a sound format libsndfile reads and writes here.
  static var soundFiles: CompletionKind { .file(extensions: ["wav", "flac", "ogg", "opus", "mp3", "aiff", "aif"]) }

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
  static var fullHelpOnly: ArgumentVisibility {
    CompletedCommandLine.isAsked(Array(CommandLine.arguments.dropFirst())) ? .default : .hidden
  }
}

/// The command line as the shells complete it: play's options where no command is named, as
/// the binary takes them, and each command's own after its name.
///
/// ArgumentParser completes a default command only after its name, so the scripts are generated
/// from this tree, and the values they ask for (`---completion`) are looked up in it. Play's
/// words are left out: a command with words has the shells take a command's name for one.
struct CompletedCommandLine: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metronome", version: Metronome.configuration.version, subcommands: Metronome.configuration.subcommands
  )

  @OptionGroup var play: PlayOptions

  /// Whether `arguments` ask for a completion script or for completions.
  static func isAsked(_ arguments: [String]) -> Bool {
    guard let first = arguments.first else { return false }
    return first == "---completion" || first.hasPrefix("--generate-completion-script")
  }

  /// Prints the script `arguments` ask for (the shell named, else the user's own), or the
  /// completions; bash's with the words JACK's port names split rejoined.
  static func answer(_ arguments: [String]) {
    guard let shell = askedShell(arguments), shell == .bash else {
      main(arguments)
      return
    }
    // A completion script is read by bash-completion, never run: it has no #! line (Debian's rule).
    let script = completionScript(for: .bash).split(separator: "\n", omittingEmptySubsequences: false)
    print(script.drop { $0.hasPrefix("#!") }.joined(separator: "\n") + bashPortNames, terminator: "")
  }

  /// The shell whose script `arguments` ask for, as ArgumentParser reads them: the one named, or
  /// where none is, the user's; nil where they ask for something else.
  private static func askedShell(_ arguments: [String]) -> CompletionShell? {
    let option = "--generate-completion-script"
    switch arguments.count {
    case 1 where arguments[0] == option: return CompletionShell.autodetected()
    case 1 where arguments[0].hasPrefix(option + "="):
      return CompletionShell(rawValue: String(arguments[0].dropFirst(option.count + 1)))
    case 2 where arguments[0] == option: return CompletionShell(rawValue: arguments[1])
    default: return nil
    }
  }

  /// bash splits words at a colon, which every JACK port name holds: where bash-completion is
  /// loaded (it is what loads this script from its folder), the words it rejoins are completed,
  /// and what follows the word's last colon is offered, as that is what bash replaces.
  private static let bashPortNames = """


    _metronome_rejoined() {
        if ! declare -F _get_comp_words_by_ref >/dev/null; then
            _metronome "${@}"
            return
        fi
        local cur prev words cword
        _get_comp_words_by_ref -n : cur prev words cword
        local -a COMP_WORDS=("${words[@]}")
        local -i COMP_CWORD="${cword}"
        _metronome "${1}" "${cur}" "${prev}"
        __ltrim_colon_completions "${cur}"
    }

    complete -o filenames -F _metronome_rejoined metronome

    """
}
