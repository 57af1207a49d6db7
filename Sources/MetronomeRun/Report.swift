import TerminalUI

/// Writes `metronome: line` to standard error (or `output`): a note, not an error.
public func report(_ line: String, to output: TextOutput = .standardError) {
  output.write("metronome: \(line)\n")
}
