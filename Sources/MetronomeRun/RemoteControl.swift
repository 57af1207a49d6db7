import JACKOutput
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeEngine
import OSCControl
import OpenCombine
import TerminalUI

/// klick's OSC remote control of a live run: its socket, opened before the run starts so that a
/// port in use is an error rather than a run without control, then its messages handled on the
/// session's main queue, where the keys are.
struct RemoteControl {
  private let socket: OSCSocket
  private let request: RemoteRequest
  private let engine: ClickEngine
  private let fixed: KlickState
  /// The seed a map loaded over OSC draws its random gaps with: the run's.
  private let seed: UInt64
  /// The outside clock whose tempo the run follows, if any.
  private let tempoFollows: String?

  /// Where it listens.
  var endpoint: OSCEndpoint { socket.endpoint }

  /// Listens as `remote` asks, for the run `request` makes.
  init(_ remote: RemoteRequest, _ request: PlayRequest, engine: ClickEngine) throws(RunError) {
    do { socket = try OSCSocket(host: remote.host, port: remote.port) } catch { throw .runtime("\(error)") }
    self.request = remote
    self.engine = engine
    seed = request.music.programme.seed
    tempoFollows = if case .midiClock? = request.clock { "MIDI clock" } else { nil }
    var fixed = KlickState()
    fixed.kind =
      if case .transport? = request.clock { .jack } else if request.music.programme.mapPath != nil { .map } else {
        .simple
      }
    fixed.volume = Float(request.music.volume)
    fixed.mapFile = request.music.programme.mapPath ?? ""
    self.fixed = fixed
  }

  /// The controls kept for as long as the process runs.
  @MainActor private static var running: [AnyObject] = []

  /// The remote control of the run, which its session is given to watch as it is made: it
  /// changes the engine's sounds, and `connections` are the output's, if it can connect.
  @MainActor
  func control(connections: (any OutputConnections)?) -> OSCRemoteControl {
    OSCRemoteControl(
      store: engine.viewModel, fixed: fixed, connections: connections,
      sounds: ClickSoundChange(settings: engine.settings, renderer: engine.renderer),
      loadMap: { [seed] path in try MusicRequest.tempoMap(at: path, seed: seed) }, tempoFollows: tempoFollows,
      send: socket.send,
      log: { _ = TextOutput.standardError.write("metronome: \($0)\n") })
  }

  /// Hands the messages that arrive to `control`, for `session`, on `mainQueue`, tells the clients
  /// the tempo as it changes, and says it is ready where asked.
  @MainActor
  func start<MainQueue: Scheduler & Sendable>(
    _ control: OSCRemoteControl, feeding session: any SessionInputReceiver, on mainQueue: MainQueue
  ) where MainQueue.SchedulerTimeType == AudioTime {
    let inFlight = InFlight()
    socket.startReceiving { packet, sender in
      guard inFlight.enter() else { return }
      mainQueue.schedule {
        MainActor.assumeIsolated { control.received(packet, from: sender, into: session) }
        inFlight.leave()
      }
    }
    // klick checks the tempo heard every 10 ms.
    let checks = mainQueue.schedule(after: mainQueue.now, interval: .milliseconds(10)) {
      MainActor.assumeIsolated { control.tellChanges() }
    }
    request.readyTo.map(control.announceReady)
    Self.running += [control, socket, checks as AnyObject]
  }
}

/// Packets handed to the main queue and not yet handled: beyond `most`, a flood is dropped, as
/// UDP itself drops what a busy receiver cannot take, instead of queueing without end while the
/// main queue also times the beats' lines.
private final class InFlight: @unchecked Sendable {
  private static let most = 256
  private let lock = Lock()
  /// Guarded by `lock`.
  private var count = 0

  /// Counts one more in flight; false, counting nothing, when `most` are.
  func enter() -> Bool {
    lock.withLock {
      guard count < Self.most else { return false }
      count += 1
      return true
    }
  }

  /// Counts one handled.
  func leave() { lock.withLock { count -= 1 } }
}

/// A JACK client's port is what klick's `/klick/config` messages connect.
extension JACKSink: OutputConnections {}
