/// The MIDI note and channel each kind of click is sent as: by default General MIDI 2's
/// Metronome Bell (34) for the accent and Metronome Click (33) for every other click, on channel
/// 10, where General MIDI keeps its drums.
public struct MIDINoteMap: Hashable, Sendable {
  /// A note on a channel.
  public struct Key: Hashable, Sendable {
    /// The note, 0 to 127.
    public let note: Int
    /// The channel, 1 to 16, as musicians count them.
    public let channel: Int

    /// A note on a channel, as given.
    public init(note: Int, channel: Int) {
      self.note = note
      self.channel = channel
    }
  }

  /// General MIDI 2's Metronome Click.
  public static let click = 33
  /// General MIDI 2's Metronome Bell.
  public static let bell = 34
  /// General MIDI's drum channel.
  public static let drumChannel = 10

  /// The key of each voice, in the order of `SoundKit.Voice`.
  private let keys: [Key]

  /// The standard map: the bell on the accent, the click on the rest, channel 10.
  public init() {
    keys = SoundKit.Voice.allCases.map {
      Key(note: $0 == .strong ? Self.bell : Self.click, channel: Self.drumChannel)
    }
  }

  /// The map `text` gives, as `--samples` names its files: up to six entries, comma-separated,
  /// for the strong, normal, weak, subdivision, second voice and count-in clicks in that order,
  /// each `NOTE` or `NOTE/CHANNEL`; an entry left empty (or not given) keeps the standard one.
  public init(parsing text: String) throws(MIDINoteMapError) {
    let entries = text.split(separator: ",", omittingEmptySubsequences: false)
    guard entries.count <= SoundKit.Voice.allCases.count else { throw .tooManyEntries(entries.count) }
    var keys = MIDINoteMap().keys
    for (index, entry) in entries.enumerated() where !entry.isEmpty {
      let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
      guard let note = Int(parts[0]), (0...127).contains(note) else { throw .note(String(entry)) }
      var channel = keys[index].channel
      if parts.count == 2 {
        guard let given = Int(parts[1]), (1...16).contains(given) else { throw .channel(String(entry)) }
        channel = given
      }
      keys[index] = Key(note: note, channel: channel)
    }
    self.keys = keys
  }

  /// The key `voice`'s clicks are sent as.
  public subscript(voice: SoundKit.Voice) -> Key { keys[voice.rawValue] }
}

/// What is wrong with a note map, as the one line the user reads.
public enum MIDINoteMapError: Error, Equatable, CustomStringConvertible {
  /// More entries than kinds of click.
  case tooManyEntries(Int)
  /// An entry whose note is not a number from 0 to 127.
  case note(String)
  /// An entry whose channel is not a number from 1 to 16.
  case channel(String)

  /// The line the user reads.
  public var description: String {
    switch self {
    case .tooManyEntries(let count):
      "at most 6 notes, not \(count): strong, normal, weak, subdivision, second voice,"
        + " count-in"
    case .note(let entry):
      "'\(entry)' is not a note from 0 to 127 (NOTE or NOTE/CHANNEL, such as 34/10)"
    case .channel(let entry):
      "'\(entry)' has no channel from 1 to 16 (NOTE or NOTE/CHANNEL, such as 34/10)"
    }
  }
}
