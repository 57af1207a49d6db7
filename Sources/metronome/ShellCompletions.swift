import ArgumentParser
import MetronomeRun

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
