import ArgumentParser
import MetronomeRun
import TerminalUI

/// `metronome calibrate [TEMPO]`: a tap-along that measures how late the player's hits arrive.
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Hit along with the click to measure your latency for --listen, or measure the round trip.",
    discussion: """
      After a bar of count-in, hit along with the click (100 BPM unless TEMPO is given) until 32 \
      hits are scored: on a MIDI kit, keyboard or pad, with --jack (its port 'hits') or \
      --listen-from (the ALSA sequencer's port metronome:hits), else on any key but q in a \
      terminal. Their median offset is saved in ~/.config/metronome/calibration \
      and taken off every note of later --listen runs (--input-offset overrides it); hits that \
      spread more than 30 ms (standard deviation) are refused, and nothing is saved.

      With --loopback --jack it plays a test signal instead and finds it on the audio port \
      'mic' (connected from --listen-from, else the physical capture ports): a cable from the \
      output to the input, or a microphone in front of the speaker. The round trip it measures \
      is saved and taken off every attack heard on 'mic' by later --listen --jack runs where \
      the microphone does not hear the click (behind headphones; one that hears it is placed \
      by the click itself). With --loopback --listen-device NAME it plays on --device and finds \
      the signal on that ALSA capture device; what the path takes beyond what the two devices \
      report is saved and taken off every attack of later --listen-device runs that do not \
      hear the click.
      """
  )

  @OptionGroup var options: CalibrateOptions

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      for line in try CalibrateRequest(options).run() { TextOutput.standardError.write("metronome: \(line)\n") }
    }
  }
}
