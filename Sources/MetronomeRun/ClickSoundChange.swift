import AudioFiles
import MetronomeCore
import MetronomeEngine
import OSCControl

/// The click sounds klick's `/klick/config/set_sound` and `set_sound_pitch` ask for, made off the
/// render thread and handed to the renderer, which plays them from its next period; and the sound
/// in force, which is the one last handed over.
@MainActor
public final class ClickSoundChange: ClickSounds {
  private let settings: PlaybackSettings
  private let renderer: ClickRenderer
  /// The sound playing and its pitches: the run's own built-in sound at first.
  public private(set) var inForce: (sound: KlickState.Sound, pitch: KlickState.SoundPair)

  /// Changes to the sounds of `renderer`, which plays at the rate and volume of `settings`, in
  /// the run's sound to begin with.
  public init(settings: PlaybackSettings, renderer: ClickRenderer) {
    self.settings = settings
    self.renderer = renderer
    inForce = (.builtIn(Int32(settings.sound.klickNumber)), KlickState.SoundPair(emphasis: 1, normal: 1))
  }

  /// Plays klick's `sound` at `pitch` (the accented click's factor, and the other clicks'); throws
  /// what is wrong with them, changing nothing.
  public func play(_ sound: KlickState.Sound, pitch: KlickState.SoundPair) throws(RunError) {
    let kit: SoundKit
    switch sound {
    case .builtIn(let number):
      guard let built = ClickSound(klickNumber: Int(number)) else {
        throw .usage("sound \(number): klick's built-in sounds are 0 to 3")
      }
      kit = SoundKit(built, sampleRate: settings.sampleRate, volume: settings.volume)
    case .files(let emphasis, let normal):
      do {
        let samples = [
          SoundKit.Voice.strong: try SampleFile.load(path: emphasis, sampleRate: settings.sampleRate),
          .normal: try SampleFile.load(path: normal, sampleRate: settings.sampleRate),
        ]
        kit = SoundKit(settings.sound, sampleRate: settings.sampleRate, volume: settings.volume, samples: samples)
      } catch {
        throw RunError(.input, "\(error)")
      }
    }
    for factor in [pitch.emphasis, pitch.normal] where !ClickPitch.factors.contains(Double(factor)) {
      throw .usage("pitch \(factor): a click is pitched by a factor from 0.125 to 8")
    }
    renderer.play(
      kit.transformed { voice, samples in
        let factor = Double(voice == .strong ? pitch.emphasis : pitch.normal)
        return ClickPitch.pitched(samples, by: factor, sampleRate: settings.sampleRate) ?? samples
      })
    inForce = (sound, pitch)
  }
}
