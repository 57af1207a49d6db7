/// A spoken count (`--voice`): the words said in place of the clicks (or over them), each placed so
/// that its attack, not the silence before it, falls on its click's frame.
///
/// Each beat says its number (to 16); a beat divided in two says "and" after it, in three
/// "trip let", in four "e and a", as musicians count. A word longer than the time to the next
/// one is shortened to fit, fading out; where words come less than `shortestSpacing` apart, a
/// subdivision clicks instead and only bar one is spoken (the other beats click). The second
/// voice always clicks.
public struct CountingVoice: Sendable {
  /// A word of the count.
  public enum Word: Hashable, Sendable, CustomStringConvertible {
    /// A beat's number, 1 to 16.
    case number(Int)
    /// A subdivision's syllable.
    case syllable(Syllable)

    /// Every word a count may say, numbers first.
    public static let all = (1...16).map(Word.number) + Syllable.allCases.map(Word.syllable)

    /// Its name, as a voice folder names its file (`3`, `and`).
    public var description: String {
      switch self {
      case .number(let number): "\(number)"
      case .syllable(let syllable): syllable.rawValue
      }
    }
  }

  /// The syllables said between the beats.
  public enum Syllable: String, CaseIterable, Hashable, Sendable {
    case e, and, a, trip, `let`
  }

  /// The closest that words follow each other and are still spoken, in seconds.
  public static let shortestSpacing = 0.1
  /// The lengths, in seconds, a word is shortened to when it is longer than the time to the next.
  static let shortenedLengths = [0.5, 0.4, 0.32, 0.25, 0.2, 0.16, 0.13, shortestSpacing]
  /// How long a shortened word fades out, in seconds.
  static let fadeOut = 0.015
  /// How loud the words are under the clicks, how long each is silent there (while a click peaks)
  /// and by when it has risen from silence, in seconds: so that a word and a built-in click
  /// together stay within full scale (the click marks the beat, the word comes up as it dies away).
  static let underClicks: (level: Float, quiet: Double, fadeIn: Double) = (0.5, 0.002, 0.03)

  /// Whether the clicks sound under the words.
  public let withClick: Bool
  /// Every word's sound in full, each followed by the fading ends of its shortened lengths.
  public let sounds: [[Float]]
  /// The rate the sounds are at.
  private let sampleRate: SampleRate
  /// Where each word's sound is in `sounds` and how long it is, and for each shortened length
  /// the sound that ends it; nil for a word not recorded.
  private let placed: [Word: (sound: Int, length: Int, shortened: [(length: Int, end: Int)])]

  /// What a click says: the word, its sound played for `length` frames, then the sound `end`
  /// (a shortened word's fading end) if any.
  public struct Said: Equatable, Sendable {
    /// The word.
    public let word: Word
    /// Its sound's index in `sounds`.
    public let sound: Int
    /// How much of it is played, in frames.
    public let length: Int
    /// The fading end played after it, for a shortened word; nil for the whole word.
    public let end: Int?
  }

  /// A count saying `recordings` (each at `sampleRate`, as spoken: silence, then the word) at
  /// `volume` (0...1), with the clicks under it if `withClick`.
  ///
  /// Each is trimmed to its attack (see `attack(in:sampleRate:)`) and after its last sample at a
  /// hundredth of its peak, and brought to full scale, so that every word is as loud as the others
  /// (under the clicks, to half of it, rising over its first 30 ms); one that is silent throughout
  /// is left out.
  public init(recordings: [Word: [Float]], sampleRate: SampleRate, volume: Double = 1, withClick: Bool = false) {
    self.withClick = withClick
    self.sampleRate = sampleRate
    let gain = Float(min(max(volume, 0), 1)) * (withClick ? Self.underClicks.level : 1)
    var sounds: [[Float]] = []
    var placed: [Word: (Int, Int, [(Int, Int)])] = [:]
    let rate = Double(sampleRate.hz)
    let fade = Int(Self.fadeOut * rate)
    for word in Word.all {
      guard let recording = recordings[word], var trimmed = Self.trimmed(recording, sampleRate: rate) else {
        continue
      }
      if withClick {
        // Silent while the click peaks, then rising slowly as it decays.
        let (quiet, rising) = (Int(Self.underClicks.quiet * rate), Int(Self.underClicks.fadeIn * rate))
        for index in 0..<min(rising, trimmed.count) {
          let rise = Float(max(0, index - quiet)) / Float(rising - quiet)
          trimmed[index] *= rise * rise
        }
      }
      let whole = trimmed.map { $0 * gain }
      let shortened = Self.shortenedLengths.map { Int($0 * rate) }.filter { $0 < whole.count }
      placed[word] = (sounds.count, whole.count, shortened.enumerated().map { ($1, sounds.count + 1 + $0) })
      sounds.append(whole)
      sounds += shortened.map { Self.fadingEnd(of: whole, at: $0, fade: fade) }
    }
    self.sounds = sounds
    self.placed = placed
  }

  /// The words it has.
  public var words: Set<Word> { Set(placed.keys) }

  /// The words a count needs to say every beat of `meters` and every click of `subdivisions`:
  /// the numbers up to the largest numerator, and the syllables of the divisions that have them.
  public static func words(for meters: [Meter], subdivisions: [Subdivision]) -> [Word] {
    let numbers = (1...max(1, min(16, meters.map(\.numerator).max() ?? 1))).map(Word.number)
    let said = Set(subdivisions.compactMap { syllables($0.count) }.joined())
    return numbers + Syllable.allCases.filter(said.contains).map(Word.syllable)
  }

  /// What `beat` says: its word, as long as fits before the next word; nil where it clicks
  /// instead (or says nothing: a silent beat).
  public func said(for beat: Beat) -> Said? {
    guard !beat.isPolyrhythm, beat.level != .silent else { return nil }
    let beatSeconds = beat.tempo.secondsPerBeat(denominator: beat.meter.denominator)
    let syllables = Self.syllables(beat.clicks)
    let clickSpacing = beatSeconds / Double(beat.clicks)
    // Syllables are said only where they fit; else the beat's word lasts until the next beat.
    let saysSyllables = syllables != nil && clickSpacing >= Self.shortestSpacing
    let word: Word
    let spacing: Double
    if beat.isSubdivision {
      guard saysSyllables, let syllables, beat.subdivision <= syllables.count else { return nil }
      word = .syllable(syllables[beat.subdivision - 1])
      spacing = clickSpacing
    } else if beatSeconds >= Self.shortestSpacing {
      word = .number(beat.beatInBar)
      spacing = saysSyllables ? clickSpacing : beatSeconds
    } else {
      // Too fast for every number: bar one alone, which lasts until the next bar.
      guard beat.beatInBar == 1 else { return nil }
      word = .number(1)
      spacing = beatSeconds * Double(beat.meter.numerator)
    }
    guard let (sound, length, shortened) = placed[word] else { return nil }
    let fits = Int(spacing * Double(sampleRate.hz))
    guard length > fits else { return Said(word: word, sound: sound, length: length, end: nil) }
    // The longest shortened length that fits, or the shortest there is.
    guard let short = shortened.first(where: { $0.length <= fits }) ?? shortened.last else {
      return Said(word: word, sound: sound, length: length, end: nil)
    }
    let fade = sounds[short.end].count
    return Said(word: word, sound: sound, length: short.length - fade, end: short.end)
  }

  /// The syllables said after a beat divided into 2, 3 or 4 clicks.
  private static let syllablesByClicks: [Int: [Syllable]] = [2: [.and], 3: [.trip, .let], 4: [.e, .and, .a]]

  /// The syllables said after a beat divided into `clicks`; nil for a division without them.
  ///
  /// Looked up, not built: it is called on the render thread, which must not allocate.
  static func syllables(_ clicks: Int) -> [Syllable]? { syllablesByClicks[clicks] }

  /// `recording` from its attack to its last sample at a hundredth of its peak, the peak at full
  /// scale; nil when it has no sound.
  ///
  /// Not faded in: a fade would move the attack that places the word later, and the attack's first
  /// sample is quiet already (a tenth of the word's loudness).
  static func trimmed(_ recording: [Float], sampleRate: Double) -> [Float]? {
    guard let attack = attack(in: recording[...], sampleRate: sampleRate) else { return nil }
    let peak = recording[attack...].reduce(Float(0)) { max($0, abs($1)) }
    let last = recording.lastIndex { abs($0) >= peak / 100 } ?? attack
    return recording[attack...last].map { $0 / peak }
  }

  /// How many milliseconds from a word's attack on must each be at a tenth of its loudest: a
  /// breath, a lip's smack or a mouse's click before the word is loud for a millisecond or two,
  /// a word for far longer.
  static let sustained = 10

  /// Where a word's attack is in `samples`: the first sample that reaches a tenth of the loudest
  /// millisecond's loudness (its root mean square) and starts `sustained` milliseconds that each
  /// do too (as many as there are, at the end); nil for silence.
  ///
  /// Milliseconds, not a sample: a lone sample of a voice's breath may reach a tenth of the peak
  /// well before the word does, and a smack before it a few milliseconds.
  public static func attack(in samples: ArraySlice<Float>, sampleRate: Double) -> Int? {
    let window = max(1, Int(sampleRate / 1_000))
    guard samples.count >= window else { return nil }
    // Sums of squares from the start, so each window's energy is one subtraction.
    var sums = [Double](repeating: 0, count: samples.count + 1)
    for (index, sample) in samples.enumerated() { sums[index + 1] = sums[index] + Double(sample * sample) }
    let energies = (0...(samples.count - window)).map { sums[$0 + window] - sums[$0] }
    guard let loudest = energies.max(), loudest > 0 else { return nil }
    let level = Float((loudest / Double(window)).squareRoot() / 10)
    // The sample and the milliseconds from it all reach the tenth: so the word cut there starts
    // with a millisecond as loud as the one its attack was found in.
    let loud = { (from: Int) in
      stride(from: from, to: min(from + sustained * window, energies.count), by: window).allSatisfy {
        energies[$0] >= loudest / 100
      }
    }
    return energies.indices.first { abs(samples[samples.startIndex + $0]) >= level && loud($0) }
      .map { samples.startIndex + $0 }
  }

  /// The last `fade` of the first `length` samples of `word`, fading out to silence: how a word
  /// shortened to `length` ends.
  static func fadingEnd(of word: [Float], at length: Int, fade: Int) -> [Float] {
    let fade = min(fade, length)
    return (0..<fade).map { word[length - fade + $0] * Float(fade - 1 - $0) / Float(fade) }
  }
}
