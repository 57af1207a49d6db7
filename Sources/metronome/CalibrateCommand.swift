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
      is saved and taken off every attack heard on 'mic' by later --listen --jack runs.
      """
  )

  @Argument(help: ArgumentHelp("The tempo to hit along with.", valueName: "tempo"))
  var tempo = "100"

  @Option(help: "ALSA playback device.")
  var device = "default"

  @OptionGroup var client: JACKClientOptions

  @OptionGroup(title: "Listening") var notes: HitSourceOptions

  @Flag(help: "Measure the round trip from the output back to the input 'mic' (with --jack).")
  var loopback = false

  @Flag(help: "Print the hits instead of showing the display (with MIDI).")
  var headless = false

  @Option(help: "Lines.")
  var events: RequestOptions.BeatEvents = .text

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      if loopback {
        guard client.jack else {
          throw .usage("--loopback measures through JACK: add --jack (ALSA devices are not measured yet)")
        }
        for line in try LoopbackCalibration.run(
          clientName: client.clientName, connections: client.connect, sources: notes.listenFrom)
        {
          TextOutput.standardError.write("metronome: \(line)\n")
        }
        return
      }
      var music = RequestOptions.Music()
      music.words = [tempo]
      var programme = RequestOptions.Programme()
      programme.countIn = "1"
      var output = RequestOptions.Output()
      client.fill(&output)
      (output.device, output.headless, output.events) = (device, headless, events)
      var listening = RequestOptions.Listen()
      notes.fill(&listening)
      // MIDI through JACK, or through the ALSA sequencer from the ports named; else the keys.
      listening.listen = client.jack || notes.listenFrom != nil
      try Player.play(
        PlayRequest(
          music: try MusicRequest(music, RequestOptions.Length(), RequestOptions.Sound(), programme), output: output,
          sync: RequestOptions.Sync(), listen: listening, calibrates: true))
    }
  }
}
