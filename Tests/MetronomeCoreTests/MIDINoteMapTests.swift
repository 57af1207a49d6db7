import MetronomeCore
import Testing

/// The notes and channels the clicks are sent as: General MIDI 2's metronome notes on the drum
/// channel unless told, told as `--samples` names its files.
@Suite(.timeLimit(.minutes(1)))
struct MIDINoteMapTests {
  private typealias Key = MIDINoteMap.Key

  /// The bell (34) on the accent, the click (33) on every other kind, channel 10.
  @Test func theStandardMapIsGeneralMIDI2sMetronome() throws {
    let map = MIDINoteMap()
    #expect(map[.strong] == Key(note: 34, channel: 10))
    for voice in SoundKit.Voice.allCases where voice != .strong { #expect(map[voice] == Key(note: 33, channel: 10)) }
    #expect(try MIDINoteMap(parsing: "") == map)
  }

  /// Entries in the order of the voices; an empty one, or one not given, keeps the standard key; a
  /// note alone keeps the standard channel.
  @Test func entriesAreTheVoicesInOrder() throws {
    let map = try MIDINoteMap(parsing: "76/1,,37,38/16,39/2,40")
    #expect(
      SoundKit.Voice.allCases.map { map[$0] } == [
        Key(note: 76, channel: 1), Key(note: 33, channel: 10), Key(note: 37, channel: 10), Key(note: 38, channel: 16),
        Key(note: 39, channel: 2), Key(note: 40, channel: 10),
      ])
    let short = try MIDINoteMap(parsing: "60")
    #expect(short[.strong] == Key(note: 60, channel: 10))
    #expect(short[.countIn] == Key(note: 33, channel: 10))
  }

  /// Every note from 0 to 127 and every channel from 1 to 16 is taken; one past either end is
  /// refused in one line that says what is wanted.
  @Test func notesAndChannelsAtTheirLimits() throws {
    for note in 0...127 { #expect(try MIDINoteMap(parsing: "\(note)")[.strong].note == note) }
    for channel in 1...16 { #expect(try MIDINoteMap(parsing: ",5/\(channel)")[.normal].channel == channel) }
    for bad in ["128", "-1", "x", "/10", "1e2", " 34"] {
      #expect(throws: MIDINoteMapError.note(bad)) { try MIDINoteMap(parsing: bad) }
    }
    for bad in ["34/0", "34/17", "34/", "34/a", "34/10/1"] {
      #expect(throws: MIDINoteMapError.channel(bad)) { try MIDINoteMap(parsing: "33," + bad) }
    }
    #expect(
      "\(MIDINoteMapError.channel("34/17"))"
        == "'34/17' has no channel from 1 to 16 (NOTE or NOTE/CHANNEL, such as 34/10)")
  }

  /// Six entries are taken, a seventh is refused, empty ones counted.
  @Test func atMostSixEntries() throws {
    _ = try MIDINoteMap(parsing: "1,2,3,4,5,6")
    _ = try MIDINoteMap(parsing: ",,,,,")
    #expect(throws: MIDINoteMapError.tooManyEntries(7)) { try MIDINoteMap(parsing: "1,2,3,4,5,6,7") }
    #expect(throws: MIDINoteMapError.tooManyEntries(7)) { try MIDINoteMap(parsing: ",,,,,,") }
  }

  /// Each voice's peak, which the notes' velocities follow, is how loud each built-in sound plays
  /// that voice against its accent.
  @Test func eachVoicesPeakIsTheBuiltInSounds() {
    for sound in ClickSound.allCases {
      let kit = SoundKit(sound, sampleRate: .standard, volume: 1)
      let loudest = { (samples: [Float]) in samples.map(abs).max() ?? 0 }
      let accent = loudest(kit.sounds[SoundKit.Voice.strong.rawValue])
      for voice in SoundKit.Voice.allCases {
        let ratio = loudest(kit.sounds[voice.rawValue]) / accent
        #expect(abs(ratio - voice.peak) < 0.01, "\(sound) \(voice): \(ratio)")
      }
    }
  }
}
