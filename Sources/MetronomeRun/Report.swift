import TerminalUI

/// Writes `metronome: line` to standard error: a note, not an error.
public func report(_ line: String) {
  TextOutput.standardError.write("metronome: \(line)\n")
}
