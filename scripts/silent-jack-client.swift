// The least a Swift program can be as a JACK client, for scripts/bench-sound to set beside
// metronome --jack and klick: a client named "silent-swift" that connects one output port to the
// server's first playback port, writes silence every cycle and leaves after SECONDS (default 30).
// Linked like metronome (the Swift runtime statically), its memory is the floor under any Swift
// JACK client's.
import CJACK
import Glibc

let seconds = CommandLine.arguments.dropFirst().first.flatMap { UInt32($0) } ?? 30
var status = jack_status_t(rawValue: 0)
guard let client = metronome_jack_client_open("silent-swift", &status),
  let port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
else {
  fputs("silent-jack-client: no JACK server\n", stderr)
  exit(1)
}
jack_set_process_callback(
  client,
  { frames, port in
    if let samples = jack_port_get_buffer(OpaquePointer(port), frames) {
      memset(samples, 0, Int(frames) * MemoryLayout<Float>.size)
    }
    return 0
  }, UnsafeMutableRawPointer(port))
jack_activate(client)
if let playback = jack_get_ports(client, nil, nil, UInt(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue)) {
  if let first = playback[0] { jack_connect(client, jack_port_name(port), first) }
  jack_free(playback)
}
sleep(seconds)
jack_client_close(client)
