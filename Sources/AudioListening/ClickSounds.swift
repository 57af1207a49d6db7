/// The clicks an output plays, told apart as it plays them.
///
/// Each run of sound between silences (16 frames of zeros or more) is a click; clicks whose
/// samples are the same up to a level are the same sound. Keeps the last 128 clicks, with their
/// frames, sounds and levels, and up to 16 sounds (the least recently played gives its place to a
/// new one).
///
/// Allocates nothing once made; touched by one thread.
final class ClickSounds {
  /// The most sounds told apart at once.
  static let most = 16
  /// The longest click kept whole, in frames; a longer sound is taken as several.
  static let longest = 8_192
  private static let gapFrames = 16
  private static let kept = 128

  /// One click: the frame its sound starts on, which sound, how loud against the sound's first,
  /// and its energy (the sum of its samples' squares).
  struct Click {
    var frame: Int64
    var sound: Int
    var gain: Float
    var energy: Float
  }

  private var samples = [Float](repeating: 0, count: ClickSounds.most * ClickSounds.longest)
  private var lengths = [Int](repeating: 0, count: ClickSounds.most)
  private var lastPlayed = [Int64](repeating: .min, count: ClickSounds.most)
  private var clicks = [Click](repeating: Click(frame: .min, sound: 0, gain: 0, energy: 0), count: ClickSounds.kept)
  private var clickCount = 0
  /// The click being played: its samples so far, its first frame, and the frames since its last sound.
  private var current = [Float](repeating: 0, count: ClickSounds.longest)
  private var currentStart: Int64?
  private var currentLength = 0
  private var silentFrames = 0
  private var playedEnd: Int64 = .min

  /// Reads `output`, the frames from `firstFrame` on; calls `replaced` with a sound's place and
  /// the frame it starts on when a new sound takes it.
  func played(_ output: UnsafeBufferPointer<Float>, from firstFrame: Int64, replaced: (Int, Int64) -> Void) {
    // A gap in what is given ends the click being played.
    if playedEnd != .min, firstFrame != playedEnd { close(replaced) }
    for index in 0..<output.count {
      // What the output holds that is not a number would stay in every answer for good.
      let sample = saneSample(output[index])
      let frame = firstFrame + Int64(index)
      guard sample != 0 else {
        guard currentStart != nil else { continue }
        silentFrames += 1
        if silentFrames >= Self.gapFrames { close(replaced) }
        continue
      }
      if let start = currentStart, frame - start >= Int64(Self.longest) { close(replaced) }
      if currentStart == nil {
        currentStart = frame
        currentLength = 0
      }
      let offset = Int(frame - (currentStart ?? frame))
      for gap in currentLength..<offset { current[gap] = 0 }
      current[offset] = sample
      currentLength = offset + 1
      silentFrames = 0
    }
    playedEnd = firstFrame + Int64(output.count)
  }

  /// Sample `index` of `sound` as first played; silence before and past it.
  func sample(of sound: Int, at index: Int) -> Float {
    index >= 0 && index < lengths[sound] ? samples[sound * Self.longest + index] : 0
  }

  /// How many frames `sound` lasts.
  func length(of sound: Int) -> Int { lengths[sound] }

  /// Whether every click that may sound before `end` is known: the output has been played that
  /// far (or was never given) and no click still being played started before it.
  func isKnown(through end: Int64) -> Bool {
    guard playedEnd != .min else { return true }
    return playedEnd >= end && (currentStart ?? end) >= end
  }

  /// Calls `body` with each click that starts from `first` through `last`, the latest first.
  func forEachClick(from first: Int64, through last: Int64, _ body: (Click) -> Void) {
    var back = 1
    while back <= min(clickCount, Self.kept) {
      let click = clicks[(clickCount - back) % Self.kept]
      if click.frame < first { return }
      if click.frame <= last { body(click) }
      back += 1
    }
  }

  /// Ends the click being played: finds its sound, or keeps it as a new one.
  private func close(_ replaced: (Int, Int64) -> Void) {
    guard let start = currentStart else { return }
    currentStart = nil
    let length = currentLength
    var found: (sound: Int, gain: Float)?
    var energy: Float = 0
    for index in 0..<length { energy += current[index] * current[index] }
    for sound in 0..<Self.most where lengths[sound] == length {
      var crossed: Float = 0
      var known: Float = 0
      var heard: Float = 0
      let base = sound * Self.longest
      for index in 0..<length {
        crossed += current[index] * samples[base + index]
        known += samples[base + index] * samples[base + index]
        heard += current[index] * current[index]
      }
      if known > 0, crossed * crossed >= 0.99999 * known * heard {
        found = (sound, crossed / known)
        break
      }
    }
    if found == nil {
      var place = 0
      for sound in 1..<Self.most where lastPlayed[sound] < lastPlayed[place] { place = sound }
      for index in 0..<length { samples[place * Self.longest + index] = current[index] }
      lengths[place] = length
      replaced(place, start)
      found = (place, 1)
    }
    guard let (sound, gain) = found else { return }
    lastPlayed[sound] = start
    clicks[clickCount % Self.kept] = Click(frame: start, sound: sound, gain: gain, energy: energy)
    clickCount += 1
  }
}
