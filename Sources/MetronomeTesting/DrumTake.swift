import Foundation
import MetronomeCore

/// A drummer's take built from Hydrogen's GMRockKit samples (Debian's `hydrogen-data`), as a
/// microphone would hear it: kick and snare on the beats, hats between them, some on the click,
/// some early or late by known amounts, some soft, with the truth of where each sound starts.
public struct DrumTake: Sendable {
  /// Where `hydrogen-data` puts the kit.
  public static let kitFolder = URL(fileURLWithPath: "/usr/share/hydrogen/data/drumkits/GMRockKit")
  /// The kit's rate, at which takes are built.
  public static let sampleRate = 44_100

  /// One stroke: `sample` (a file of the kit without `.wav`) at `gain`, `offset` frames from
  /// when the click numbered `click` is heard (negative: early).
  public struct Stroke: Equatable, Sendable {
    /// The click it goes with, 0 the first.
    public let click: Int
    /// Frames from when that click is heard; negative early.
    public let offset: Int
    /// The kit's file, without `.wav`.
    public let sample: String
    /// How loud, 1 as the sample is.
    public let gain: Float

    /// A stroke as given.
    public init(click: Int, offset: Int, sample: String, gain: Float) {
      self.click = click
      self.offset = offset
      self.sample = sample
      self.gain = gain
    }

    /// The line `scripts/drum-player.c` reads: `CLICK OFFSET SAMPLE GAIN`.
    public var planLine: String { "\(click) \(offset) \(sample) \(gain)\n" }
  }

  /// The strokes, in the order they are played.
  public let strokes: [Stroke]
  /// Each sample used, as floats at the kit's rate.
  public let sounds: [String: [Float]]

  /// A take over `clicks` clicks (one a beat) and the half-beats between them, `spacing` frames apart.
  ///
  /// Kick on odd beats, snare on even ones, closed hats between, at four strengths; one
  /// stroke in three exactly on its click, the others early or late by up to `spread` frames
  /// (seeded); the first `skipped` clicks (a count-in) left alone, and those in `rests` (the
  /// drummer resting: the strokes drawn for them are not played). With `flams`, every eighth
  /// click's beat stroke is a flam: hit hard, after a grace note of the same drum at its softest,
  /// 40 ms before.
  public init(
    clicks: Int, spacing: Int, spread: Int, skipped: Int = 0, rests: [Range<Int>] = [], flams: Bool = false,
    seed: UInt64
  ) throws {
    var random = SeededGenerator(seed: seed)
    var strokes: [Stroke] = []
    let strengths = ["Hard", "Med", "Soft", "Softest"]
    for click in skipped..<clicks {
      let beat = click % 2 == 0 ? "Kick" : "Snare"
      for (half, drum) in [(0, beat), (1, "HatClosed")] where half == 0 || click + 1 < clicks {
        let onTime = Int.random(in: 0..<3, using: &random) == 0
        let offset = onTime && half == 0 ? 0 : Int.random(in: -spread...spread, using: &random)
        let flam = flams && half == 0 && click % 8 == 7
        let drawn = strengths[Int.random(in: 0..<strengths.count, using: &random)]
        // A flam's main stroke is accented over its grace note.
        let strength = flam ? "Hard" : drawn
        let gain: Float = strength == "Softest" ? 0.3 : 1
        guard !rests.contains(where: { $0.contains(click) }) else { continue }
        if flam {
          strokes.append(
            Stroke(click: click, offset: offset - Self.sampleRate / 25, sample: "\(drum)-Softest", gain: 0.3))
        }
        strokes.append(
          Stroke(click: click, offset: offset + half * spacing / 2, sample: "\(drum)-\(strength)", gain: gain))
      }
    }
    self.strokes = strokes
    var sounds: [String: [Float]] = [:]
    for name in Set(strokes.map(\.sample)) {
      sounds[name] = try WAVFile(contentsOf: Self.kitFolder.appendingPathComponent("\(name).wav")).samples
    }
    self.sounds = sounds
  }

  /// Where `sample`'s sound starts in its file: its first frame at 1 % of its peak (-40 dB), where
  /// a kick's beater is first heard; its peak comes 15 ms later.
  public func attack(of sample: String) -> Int {
    let samples = sounds[sample] ?? []
    let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
    return samples.firstIndex { abs($0) >= peak / 100 } ?? 0
  }

  /// The metronome's clicks over `count` beats `spacing` frames apart from `lead` on, accented on
  /// every fourth, as played at the kit's rate, over `length` frames.
  public static func clickTrack(count: Int, spacing: Int, lead: Int, length: Int) throws -> [Float] {
    let rate = try SampleRate(sampleRate)
    var output = [Float](repeating: 0, count: length)
    for click in 0..<count {
      let sound = ClickSound.pulse.samples(level: click % 4 == 0 ? .strong : .normal, sampleRate: rate, volume: 1)
      for (index, sample) in sound.enumerated() where lead + click * spacing + index < length {
        output[lead + click * spacing + index] = sample
      }
    }
    return output
  }

  /// The take added to `heard` (what else the microphone hears, such as the clicks), each stroke
  /// on `clickFrame(click)` plus its offset; with the frame each stroke's sound starts on.
  public func mixed(into heard: [Float], clickFrame: (Int) -> Int) -> (samples: [Float], attacks: [Int]) {
    var samples = heard
    var attacks: [Int] = []
    for stroke in strokes {
      let start = clickFrame(stroke.click) + stroke.offset
      attacks.append(start + attack(of: stroke.sample))
      for (index, sample) in (sounds[stroke.sample] ?? []).enumerated() where start + index < samples.count {
        samples[start + index] += stroke.gain * sample
      }
    }
    return (samples, attacks)
  }
}
