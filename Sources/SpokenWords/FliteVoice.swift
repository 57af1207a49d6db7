import AudioFiles
import CFlite
import MetronomeCore

/// The spoken count's default voice: each word said by flite (CMU's US English voice "slt"),
/// rendered when the run starts and brought to the run's rate.
///
/// This file is the only place metronome calls flite.
public enum FliteVoice {
  /// What flite is given to say for each word: the syllables as musicians say them.
  static func text(of word: CountingVoice.Word) -> String {
    switch word {
    case .number(let number):
      [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen",
      ][number - 1]
    case .syllable(.e): "ee"
    case .syllable(.and): "and"
    case .syllable(.a): "uh"
    case .syllable(.trip): "trip"
    case .syllable(.let): "let"
    }
  }

  /// A little quicker than flite's own pace: counted words are short.
  static let durationStretch: Float = 0.85

  /// The count flite says, at `sampleRate` and `volume`, under the clicks if `withClick`; throws
  /// when flite cannot say it.
  public static func count(sampleRate: SampleRate, volume: Double, withClick: Bool) throws(FliteError) -> CountingVoice
  {
    let count = CountingVoice(
      recordings: try recordings(sampleRate: sampleRate), sampleRate: sampleRate, volume: volume, withClick: withClick)
    // What flite and the conversions allocated while it spoke goes back to the system: some 3 MiB
    // that the heap would otherwise keep for the whole run.
    malloc_trim(0)
    return count
  }

  /// Every word of a count as flite says it, at `sampleRate`; throws when flite cannot.
  static func recordings(sampleRate: SampleRate) throws(FliteError) -> [CountingVoice.Word: [Float]] {
    flite_init()
    guard let voice = register_cmu_us_slt(nil) else { throw .noVoice }
    defer { unregister_cmu_us_slt(voice) }
    feat_set_float(voice.pointee.features, "duration_stretch", durationStretch)
    var recordings: [CountingVoice.Word: [Float]] = [:]
    for word in CountingVoice.Word.all {
      guard let wave = flite_text_to_wave(text(of: word), voice) else { throw .notSaid(word) }
      defer { delete_wave(wave) }
      let count = Int(wave.pointee.num_samples)
      let samples = (0..<count).map { Float(wave.pointee.samples[$0]) / 32_768 }
      do {
        // Speech has little above 7 kHz: the medium converter keeps it, in a third of the time.
        recordings[word] = try Resampler.convert(
          samples, from: Int(wave.pointee.sample_rate), to: sampleRate.hz, quality: .medium)
      } catch {
        throw .notSaid(word)
      }
    }
    return recordings
  }
}

/// Why flite could not say the count.
public enum FliteError: Error, Equatable, Sendable, CustomStringConvertible {
  case noVoice
  case notSaid(CountingVoice.Word)

  /// How it reads in messages.
  public var description: String {
    switch self {
    case .noVoice: "--voice: flite has no voice 'slt' (install libflite1)"
    case .notSaid(let word): "--voice: flite could not say '\(word)'"
    }
  }
}
