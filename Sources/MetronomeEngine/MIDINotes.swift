import MetronomeCore

/// A MIDI note for every click played, on the click's exact frame: the note and channel its kind
/// of click has in a `MIDINoteMap`, its velocity from how loud the click is (its kind, its
/// map's volume and the remote control's gains; not `--volume`, which only turns the audio down).
///
/// Each note is released `noteSeconds` later, or on the frame the same note sounds again if that
/// comes first (the release before the new note), and at the run's end on its last frame.
/// Silent clicks (a pattern's rest, a gap's bar) send nothing.
public struct MIDINotes: Sendable {
  /// A message it sends.
  public enum Message: Equatable, Sendable {
    /// Note on, 0x9n: `channel` from 1, `note` and `velocity` from 0 to 127.
    case noteOn(channel: Int, note: Int, velocity: Int)
    /// Note off, 0x8n, with velocity 0.
    case noteOff(channel: Int, note: Int)

    /// The message's three bytes.
    public var bytes: (UInt8, UInt8, UInt8) {
      switch self {
      case .noteOn(let channel, let note, let velocity):
        (0x90 | UInt8(truncatingIfNeeded: channel - 1) & 0x0F, UInt8(note & 0x7F), UInt8(velocity & 0x7F))
      case .noteOff(let channel, let note):
        (0x80 | UInt8(truncatingIfNeeded: channel - 1) & 0x0F, UInt8(note & 0x7F), 0)
      }
    }
  }

  /// How long a note is held when the same note does not come again sooner.
  public static let noteSeconds = 0.1

  /// The note and channel of each kind of click.
  public let map: MIDINoteMap
  /// Frames a note is held.
  private let noteFrames: Int64
  /// The notes sounding and the frames they are released on, at most one per key.
  private var sounding: [(frame: Int64, key: MIDINoteMap.Key)] = []

  /// Notes after `map` for frames counted at `sampleRate`.
  public init(map: MIDINoteMap, sampleRate: SampleRate) {
    self.map = map
    noteFrames = Int64((Self.noteSeconds * Double(sampleRate.hz)).rounded())
    sounding.reserveCapacity(SoundKit.Voice.allCases.count)
  }

  /// The velocity of `beat`'s note, 1 to 127; nil for a click that sounds nothing.
  public func velocity(of beat: Beat) -> Int? {
    guard !beat.isMapEnd, let voice = SoundKit.voice(of: beat), beat.volume > 0 else { return nil }
    return min(max(Int((127 * Double(voice.peak) * beat.volume).rounded()), 1), 127)
  }

  /// Sends the messages of a period through `send`, in the order of their frames.
  ///
  /// The period runs from frame `start` for `frames` frames, in which `beats` were played (in
  /// order); the run's last period (`endsRun`) releases every note still sounding on its last
  /// frame. A release that fell in frames never rendered (a glitch skipped them) is sent on the
  /// period's first frame.
  public mutating func messages(
    from start: Int64, frames: Int, beats: [Beat], endsRun: Bool = false, send: (Int64, Message) -> Void
  ) {
    let end = start + Int64(frames)
    for beat in beats {
      guard let velocity = velocity(of: beat), let voice = SoundKit.voice(of: beat) else { continue }
      let key = map[voice]
      release(before: beat.frame + 1, periodStart: start, send: send)
      if let again = sounding.firstIndex(where: { $0.key == key }) {
        sounding.remove(at: again)
        send(beat.frame, .noteOff(channel: key.channel, note: key.note))
      }
      send(beat.frame, .noteOn(channel: key.channel, note: key.note, velocity: velocity))
      sounding.append((beat.frame + noteFrames, key))
    }
    release(before: end, periodStart: start, send: send)
    if endsRun { release(before: .max, periodStart: start, send: send, atMost: max(end - 1, start)) }
  }

  /// Releases the notes due before `frame`, earliest first, none before `periodStart` and none
  /// after `atMost`.
  private mutating func release(
    before frame: Int64, periodStart: Int64, send: (Int64, Message) -> Void, atMost last: Int64 = .max
  ) {
    while let next = sounding.indices.min(by: { sounding[$0].frame < sounding[$1].frame }),
      sounding[next].frame < frame
    {
      let (due, key) = sounding.remove(at: next)
      send(min(max(due, periodStart), last), .noteOff(channel: key.channel, note: key.note))
    }
  }
}
