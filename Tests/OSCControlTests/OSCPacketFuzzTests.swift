import CombineSchedulers
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OSCControl
import Testing

/// Packets generated and mutated from valid ones, thrown at the codec, both namespaces and a
/// remote control of a playing view model: 20 000 in all, never a crash, whatever reads as a
/// message reads the same once written again, and the metronome's state stays in its ranges.
@MainActor
@Suite(.timeLimit(.minutes(2)))
struct OSCPacketFuzzTests {
  private struct Unreadable: Error {}

  /// Sounds that take whatever they are given.
  private final class Sounds: ClickSounds {
    var inForce = (sound: KlickState.Sound.builtIn(0), pitch: KlickState.SoundPair(emphasis: 1, normal: 1))
    func play(_ sound: KlickState.Sound, pitch: KlickState.SoundPair) { inForce = (sound, pitch) }
  }

  private static let seed: UInt64 = 20_261_124
  private static let valid: [OSCMessage] = [
    OSCMessage("/klick/ping", [.string("osc.udp://localhost:9001/")]),
    OSCMessage("/klick/simple/set_tempo", [.float32(96)]),
    OSCMessage("/klick/simple/set_meter", [.int32(5), .int32(4)]),
    OSCMessage("/klick/simple/set_pattern", [.string("X.x")]),
    OSCMessage("/klick/simple/tap", [.double(1.5)]),
    OSCMessage("/klick/config/set_sound", [.string("a.wav"), .string("b.wav")]),
    OSCMessage("/klick/config/set_sound_pitch", [.float32(2), .float32(0.5)]),
    OSCMessage("/klick/config/set_sound_volume", [.float32(2), .float32(0.5)]),
    OSCMessage("/klick/config/set_volume", [.float32(0.5)]),
    OSCMessage("/klick/simple/set_tempo_increment", [.float32(4)]),
    OSCMessage("/klick/simple/set_tempo_limit", [.float32(140)]),
    OSCMessage("/klick/metro/set_type", [.string("map")]),
    OSCMessage("/klick/map/set_preroll", [.int32(2)]),
    OSCMessage("/klick/map/load_file", [.string("song.map")]),
    OSCMessage("/klick/map/set_tempo_multiplier", [.float32(1.5)]),
    OSCMessage("/klick/metro/start"),
    OSCMessage("/klick/register_client"),
    OSCMessage("/klick/query"),
    OSCMessage("/metronome/key", [.string("up")]),
    OSCMessage("/metronome/set_subdivision", [.int32(3), .float32(60)]),
    OSCMessage("/m", [.blob([1, 2, 3, 4, 5]), .int64(-1), .midi([0xF8, 0, 0, 0]), .boolean(true), .null]),
  ]

  @Test func mutatedAndRandomPacketsNeverCrashAndReadBackTheSame() {
    var generator = SeededGenerator(seed: Self.seed)
    var namespace = KlickNamespace()
    let sender = OSCEndpoint(host: "127.0.0.1", port: 9000)
    var (read, refused) = (0, 0)
    let state = MetronomeState(tempo: .standard, meter: .fourFour, isPlaying: true, cap: .denominator)
    let scheduler = TestScheduler<AudioTime, Never>(now: 0)
    let viewModel = MetronomeViewModel(autoplay: true, beatScheduler: scheduler.limited().eraseToBeatScheduler())
    let session = RecordingSession(store: viewModel)
    let control = OSCRemoteControl(
      store: viewModel, fixed: KlickState(), sounds: Sounds(), loadMap: { _ in throw Unreadable() }, send: { _, _ in },
      log: { _ in })
    for run in 0..<20_000 {
      control.received(Self.packet(run, using: &generator), from: sender, into: session)
      scheduler.advance(by: 0.01)
      let packet = Self.packet(run, using: &generator)
      do {
        let messages = try OSCCodec.messages(in: packet)
        read += 1
        for message in messages {
          // Compared as bytes, so that a NaN read back counts as the same.
          let written = OSCCodec.packet(for: message)
          let again = (try? OSCCodec.messages(in: written))?.map(OSCCodec.packet(for:))
          #expect(again == [written], "seed \(Self.seed), run \(run): \(packet)")
          _ = namespace.handle(message, from: sender, state: KlickState()) { _ in KlickState() }
          _ = MetronomeNamespace.handle(message, from: sender, clients: [sender], state: state) { _ in state }
        }
      } catch {
        refused += 1
        #expect(!error.description.isEmpty)
      }
    }
    // Both kinds were thrown at it: neither the reader nor the refusals went untried.
    #expect(read > 1_000 && refused > 1_000, "read \(read), refused \(refused)")
    let after = viewModel.currentState
    #expect(Tempo.range.contains(after.tempo.bpm))
    let gains = [after.gains.overall, after.gains.accented, after.gains.unaccented]
    #expect(gains.allSatisfy { (0...ClickGains.loudest).contains($0) }, "\(after.gains)")
    let trainer = after.programme.speedTrainer
    #expect([trainer.increment, trainer.start, trainer.limit].allSatisfy { $0.isFinite }, "\(trainer)")
  }

  /// Run `run`'s packet: a valid one, one with a byte changed, cut, grown, or wrapped in a bundle
  /// with a wrong size, or random bytes.
  private static func packet(_ run: Int, using generator: inout SeededGenerator) -> [UInt8] {
    var bytes = OSCCodec.packet(for: valid[run % valid.count])
    switch run % 6 {
    case 0: break
    case 1:
      let index = Int.random(in: 0..<bytes.count, using: &generator)
      bytes[index] = UInt8.random(in: 0...255, using: &generator)
    case 2: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
    case 3:
      bytes += (0..<Int.random(in: 1...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    case 4:
      let size = UInt32(bytes.count) &+ UInt32.random(in: 0...8, using: &generator) &- 4
      bytes =
        Array("#bundle".utf8) + [0] + [UInt8](repeating: 0, count: 8)
        + [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + bytes
    default:
      bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if Bool.random(using: &generator) { bytes = Array("/klick/".utf8) + bytes }
    }
    return bytes
  }
}
