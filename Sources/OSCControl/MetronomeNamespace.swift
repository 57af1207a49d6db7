import MetronomeControl
import MetronomeCore
import TerminalUI

/// metronome's own OSC namespace, beyond klick's: any key by the name key scripts give it (so
/// everything the keys do), the values the keys only step, and the state the display shows.
///
/// Like klick's, a query answers to the address given or the sender, and a change answers the
/// registered clients (the same clients as klick's namespace) with the whole state after it.
public enum MetronomeNamespace {
  /// The paths it answers start so.
  public static let prefix = "/metronome/"

  /// Handles `message` from `sender` with the metronome in `state`; `perform` hands an input to
  /// the session and returns the state after it.
  public static func handle(
    _ message: OSCMessage, from sender: OSCEndpoint, clients: [OSCEndpoint], state: MetronomeState,
    perform: (SessionInput) -> MetronomeState
  ) -> KlickNamespace.Outcome {
    var outcome = KlickNamespace.Outcome()
    guard message.path == "/metronome/query" else {
      switch input(for: message, state: state) {
      case .success(let input):
        let after = perform(input)
        if !clients.isEmpty { outcome.replies = report(after).map { OSCReply($0, to: clients) } }
      case .failure(let refusal):
        outcome.errors.append(refusal.line)
      }
      return outcome
    }
    guard let arguments = message.arguments(matching: ["", "s"]) else {
      outcome.errors.append(unknown(message))
      return outcome
    }
    var target = sender
    if case .string(let address)? = arguments.first {
      guard let endpoint = OSCCodec.endpoint(address) else {
        outcome.errors.append("\(message.path): '\(address)' is not an address: write osc.udp://HOST:PORT/ or a port")
        return outcome
      }
      target = endpoint
    }
    outcome.replies = report(state).map { OSCReply($0, to: [target]) }
    return outcome
  }

  /// klick's line for a message it has no method for.
  private static func unknown(_ message: OSCMessage) -> String {
    "unknown message: \(message.path) ,\(message.typeTags)"
  }

  /// A line for standard error.
  private struct Refusal: Error {
    let line: String
  }

  /// The session input `message` asks for, or why it is refused.
  private static func input(for message: OSCMessage, state: MetronomeState) -> Result<SessionInput, Refusal> {
    let path = message.path
    func argument(_ spec: String) -> [OSCArgument]? { message.arguments(matching: [spec]) }
    switch path {
    case "/metronome/key":
      guard case .string(let name)? = argument("s")?.first else { break }
      guard let key = Key(name: name), let command = KeyBindings.command(for: key) else {
        return .failure(Refusal(line: "\(path): no key '\(name)': name one as key scripts do (space, up, ], 1, …)"))
      }
      return .success(.command(command))
    case "/metronome/set_tempo":
      guard case .float32(let bpm)? = argument("f")?.first else { break }
      return .success(.action(.setTempo(Double(bpm))))
    case "/metronome/set_meter":
      guard let values = argument("ii"), case .int32(let beats) = values[0], case .int32(let note) = values[1] else {
        break
      }
      do {
        return .success(.action(.setMeter(try Meter(Int(beats), Int(note), cap: .widest))))
      } catch {
        return .failure(Refusal(line: "\(path): \(error)"))
      }
    case "/metronome/set_pattern":
      guard case .string(let text)? = argument("s")?.first else { break }
      if text.isEmpty { return .success(.action(.setPattern(nil))) }
      do {
        return .success(.action(.setPattern(try AccentPattern(parsing: text))))
      } catch {
        return .failure(Refusal(line: "\(path): \(error)"))
      }
    case "/metronome/set_subdivision":
      guard let values = message.arguments(matching: ["i", "if"]), case .int32(let count) = values[0] else { break }
      var swing = state.subdivision.swing
      if values.count == 2, case .float32(let percent) = values[1] {
        swing = Subdivision.swing(percent: Double(percent))
      }
      do {
        return .success(.action(.setSubdivision(try Subdivision(Int(count), swing: swing))))
      } catch {
        return .failure(Refusal(line: "\(path): \(error)"))
      }
    default:
      break
    }
    return .failure(Refusal(line: unknown(message)))
  }

  /// The state the display shows, as messages: tempo, meter, playing, the levels in force,
  /// subdivision and swing (%), muted, the second voice's clicks (0: none) and whether it is
  /// muted, the song (from 1; 0 without a setlist) and whether a section loops.
  static func report(_ state: MetronomeState) -> [OSCMessage] {
    [
      OSCMessage("/metronome/tempo", [.float32(Float(state.tempo.bpm))]),
      OSCMessage("/metronome/meter", [.int32(Int32(state.meter.numerator)), .int32(Int32(state.meter.denominator))]),
      OSCMessage("/metronome/playing", [.int32(state.isPlaying ? 1 : 0)]),
      OSCMessage("/metronome/pattern", [.string(state.pattern.description)]),
      OSCMessage(
        "/metronome/subdivision",
        [.int32(Int32(state.subdivision.count)), .float32(Float(state.subdivision.swing * 100))]),
      OSCMessage("/metronome/muted", [.int32(state.isMuted ? 1 : 0)]),
      OSCMessage(
        "/metronome/second_voice",
        [.int32(Int32(state.polyrhythm ?? 0)), .int32(state.isPolyrhythmMuted ? 1 : 0)]),
      OSCMessage("/metronome/song", [.int32(Int32(state.songPlaying.map { $0 + 1 } ?? 0))]),
      OSCMessage("/metronome/looping", [.int32(state.programme.loopsSection ? 1 : 0)]),
    ]
  }
}
