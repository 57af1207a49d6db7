import AudioListening
import Glibc
import MetronomeCore
import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct OnsetDetectorTests {
  private let rate = SampleRate.standard

  /// A burst of seeded noise at `peak` starting on `frame`, decaying with `seconds` to 1/e.
  private func burst(into samples: inout [Float], at frame: Int, peak: Float, decay seconds: Double, seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let length = min(samples.count - frame, Int(seconds * 8 * Double(rate.hz)))
    for index in 0..<length {
      let envelope = Float(exp(-Double(index) / (seconds * Double(rate.hz))))
      samples[frame + index] += peak * envelope * Float.random(in: -1...1, using: &random)
    }
  }

  /// The attacks found in `samples`, fed in blocks of `block` frames, and the frame each was
  /// reported on.
  ///
  /// The input's frames are numbered from `origin`; the frames found and reported on are
  /// given from the samples' start.
  private func attacks(
    in samples: [Float], settings: OnsetSettings = .standard, blocks block: Int = 256, origin: Int64 = 0,
    rate: SampleRate = .standard
  ) -> [(attack: Attack, reportedBy: Int)] {
    let detector = OnsetDetector(sampleRate: rate, settings: settings)
    var found: [(Attack, Int)] = []
    samples.withUnsafeBufferPointer { all in
      var start = 0
      while start < all.count {
        let end = min(start + block, all.count)
        detector.process(UnsafeBufferPointer(rebasing: all[start..<end]), from: origin + Int64(start)) {
          found.append((Attack(frame: $0.frame - origin, level: $0.level), end))
        }
        start = end
      }
    }
    return found
  }

  @Test func aBurstFromSilenceIsFoundOnItsFirstFramesAndSaidWithinFourMilliseconds() {
    var samples = [Float](repeating: 0, count: 48_000)
    for (index, frame) in [4_800, 20_011, 33_333].enumerated() {
      burst(into: &samples, at: frame, peak: 0.5, decay: 0.02, seed: UInt64(index))
    }
    let found = attacks(in: samples, blocks: 64)
    #expect(found.map { $0.attack.frame }.count == 3)
    for (found, frame) in zip(found, [4_800, 20_011, 33_333]) {
      #expect(abs(found.attack.frame - Int64(frame)) <= 2, "found \(found.attack.frame) for \(frame)")
      // Three milliseconds, a hop and the block it ended in.
      #expect(found.reportedBy - frame <= 144 + 16 + 64 + 2)
      #expect(abs(found.attack.level - 20 * log10(0.5)) < 1.5)
    }
  }

  /// The standard level is 50 dB under full scale: a step half a decibel louder is an attack,
  /// one half a decibel softer is not.
  @Test func theStandardLevelIsFiftyDecibelsUnderFullScale() {
    for (decibels, count) in [(-49.5, 1), (-50.5, 0)] {
      var samples = [Float](repeating: 0, count: 9_600)
      for index in 4_800..<samples.count { samples[index] = Float(pow(10, decibels / 20)) }
      #expect(attacks(in: samples).count == count, "\(decibels) dB")
    }
  }

  /// The attacks found in `samples` where a sound known not to be a hit may be as loud as
  /// `noise` on each frame.
  private func attacks(in samples: [Float], below noise: [Float]) -> [Attack] {
    let detector = OnsetDetector(sampleRate: rate)
    var found: [Attack] = []
    samples.withUnsafeBufferPointer { all in
      noise.withUnsafeBufferPointer { noise in
        for start in stride(from: 0, to: all.count, by: 256) {
          let end = min(start + 256, all.count)
          detector.process(
            UnsafeBufferPointer(rebasing: all[start..<end]), below: UnsafeBufferPointer(rebasing: noise[start..<end]),
            from: Int64(start)
          ) { found.append($0) }
        }
      }
    }
    return found
  }

  /// A rise exactly to twice the noise starts an attack; to a float under it, not.
  ///
  /// An offset switched on 31 ms before holds the level up; then a step of 2^-9 over a noise of
  /// 2^-10.
  @Test(arguments: [(Float(0x1p-10), true), (Float(0x1p-10).nextUp, false)])
  func aRiseExactlyToTwiceTheNoiseStartsAnAttack(noise: Float, found: Bool) {
    var samples = [Float](repeating: 0, count: 9_600)
    for index in 4_800..<9_600 { samples[index] = index < 6_300 ? 0.5 : 0.5 + 0x1p-9 }
    let bound = (0..<9_600).map { (6_000..<6_400).contains($0) ? noise : 0 }
    #expect(attacks(in: samples, below: bound).map(\.frame) == (found ? [4_800, 6_300] : [4_800]))
  }

  /// Under a drum ringing loud enough for the level, a sharp sound starts an attack only where its
  /// first difference reaches twice the noise (what a canceller leaves of a click, up to its
  /// bound, has a first difference up to twice that).
  @Test func aSharpSoundUnderARingingDrumStartsAnAttackOnlyAtTwiceTheNoise() {
    let noise: Float = 0.02
    // The drum's own first difference adds up to 0.004 either way.
    for (spike, found) in [(Float(1.2), false), (1.7, false), (2.3, true), (2.8, true)] {
      var samples = (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 60 * Double($0) / 48_000)) }
      samples[12_000] += spike * noise
      let attacks = attacks(in: samples, below: [Float](repeating: noise, count: samples.count))
      #expect(attacks.map { abs($0.frame - 12_000) <= 2 } == (found ? [true] : []), "a spike of \(spike)")
    }
  }

  /// What is known not to be a hit, just before a stroke, is not taken for the stroke's start
  /// however loud it rises next to the stroke's peak: the rise is placed back only through
  /// samples at least as loud as the noise.
  @Test func aStrokeJustAfterWhatIsNoHitStartsWhereItsOwnSoundDoes() {
    var samples = [Float](repeating: 0, count: 24_000)
    var noise = [Float](repeating: 0, count: samples.count)
    var random = SeededGenerator(seed: 5)
    for frame in 12_000..<12_032 {
      samples[frame] = Float.random(in: -0.15...0.15, using: &random)
      noise[frame] = 0.35
    }
    burst(into: &samples, at: 12_032, peak: 0.5, decay: 0.02, seed: 6)
    #expect(attacks(in: samples, below: noise).map(\.frame) == [12_032])
    // With no noise given, the same sound starts on what came before it.
    let unbounded = attacks(in: samples, below: [Float](repeating: 0, count: samples.count)).map(\.frame)
    #expect(unbounded.count == 1 && unbounded.allSatisfy { $0 < 12_008 }, "\(unbounded)")
  }

  @Test func theLevelDecidesWhetherAQuietAttackCounts() {
    var samples = [Float](repeating: 0, count: 24_000)
    burst(into: &samples, at: 4_000, peak: 0.0018, decay: 0.02, seed: 7)  // -55 dBFS
    #expect(attacks(in: samples).isEmpty)
    let lower = OnsetSettings(level: -60, rise: 12, spacing: 0.025)
    #expect(attacks(in: samples, settings: lower).map(\.attack.frame).count == 1)
  }

  @Test func aHitOverARingingDrumIsFoundWhenItRisesEnoughAboveIt() {
    var samples = [Float](repeating: 0, count: 48_000)
    burst(into: &samples, at: 1_000, peak: 0.5, decay: 0.2, seed: 1)
    // 100 ms later the first still rings at 0.3: a hit as loud as that rises too little for the
    // default 12 dB, and is heard with a rise of 4 dB; one at 0.9 when it rings at 0.12 is heard.
    burst(into: &samples, at: 5_800, peak: 0.3, decay: 0.02, seed: 2)
    burst(into: &samples, at: 15_400, peak: 0.9, decay: 0.02, seed: 3)
    let found = attacks(in: samples).map(\.attack.frame)
    #expect(found.count == 2, "\(found)")
    #expect(abs((found.last ?? 0) - 15_400) <= 2)
    let sensitive = attacks(in: samples, settings: OnsetSettings(level: -50, rise: 4, spacing: 0.025))
    #expect(sensitive.contains { abs($0.attack.frame - 5_800) < 100 })
  }

  @Test func aRattleInsideTheSpacingIsPartOfTheHit() {
    var samples = [Float](repeating: 0, count: 24_000)
    burst(into: &samples, at: 2_000, peak: 0.5, decay: 0.002, seed: 4)
    burst(into: &samples, at: 2_000 + 480, peak: 0.5, decay: 0.002, seed: 5)  // 10 ms later
    burst(into: &samples, at: 2_000 + 1_440, peak: 0.5, decay: 0.002, seed: 6)  // 30 ms later
    #expect(attacks(in: samples).map(\.attack.frame).count == 2)
  }

  @Test func theBlocksItIsFedInChangeNothing() {
    var samples = [Float](repeating: 0, count: 48_000)
    var random = SeededGenerator(seed: 11)
    for _ in 0..<20 {
      burst(
        into: &samples, at: Int.random(in: 0..<46_000, using: &random),
        peak: Float.random(in: 0.01...1, using: &random),
        decay: 0.01, seed: random.next())
    }
    let whole = attacks(in: samples, blocks: 48_000).map(\.attack)
    #expect(!whole.isEmpty)
    for block in [1, 7, 64, 256, 1_000] {
      #expect(attacks(in: samples, blocks: block).map(\.attack) == whole, "blocks of \(block)")
    }
  }

  @Test func silenceAnOffsetASteadyNoiseFloorAndClippingGiveNoAttacks() {
    var random = SeededGenerator(seed: 3)
    let silence = [Float](repeating: 0, count: 48_000)
    let offset = [Float](repeating: 0.5, count: 48_000)
    let floor = (0..<96_000).map { _ in Float.random(in: -0.01...0.01, using: &random) }  // -40 dBFS
    let clipped = (0..<48_000).map { $0 % 96 < 48 ? Float(1) : -1 }  // a square at full scale, 500 Hz
    #expect(attacks(in: silence).isEmpty)
    // The step onto the offset is the one attack; the offset itself none after it.
    #expect(attacks(in: offset).count <= 1)
    #expect(attacks(in: floor).isEmpty)
    #expect(attacks(in: clipped).count <= 1)
    // A hit over the floor is found.
    var hit = floor
    burst(into: &hit, at: 50_000, peak: 0.5, decay: 0.02, seed: 9)
    #expect(attacks(in: hit).map(\.attack.frame).count == 1)
  }

  /// A tick: `peak` on `frame`, then seeded noise dying away within about 10 frames.
  private func tick(into samples: inout [Float], at frame: Int, peak: Float, seed: UInt64) {
    burst(into: &samples, at: frame, peak: peak, decay: 0.0002, seed: seed)
    samples[frame] = peak
  }

  /// An attack is said three milliseconds (144 frames) and a hop (16) after the hop it starts in
  /// began: fed a frame at a time, on the hop's last frame from its start plus 144, whichever of
  /// the hop's 16 frames its sound starts on.
  @Test(arguments: [4_800, 4_801, 4_807, 4_815])
  func anAttackIsSaidThreeMillisecondsAndAHopAfterItsHopBegan(frame: Int) {
    var samples = [Float](repeating: 0, count: 9_600)
    tick(into: &samples, at: frame, peak: 0.5, seed: 21)
    let found = attacks(in: samples, blocks: 1)
    #expect(found.map(\.attack.frame) == [Int64(frame)])
    #expect(found.map(\.reportedBy) == [frame - frame % 16 + 160])
  }

  /// At 8 kHz a third of a millisecond is under three frames: a hop is four frames there, and an
  /// attack is said three milliseconds (24 frames) and a hop after the hop it starts in began.
  @Test(arguments: [(800, 828), (801, 828), (803, 828), (804, 832)] as [(Int, Int)])
  func atEightKilohertzAHopIsFourFrames(frame: Int, reportedBy: Int) throws {
    var samples = [Float](repeating: 0, count: 1_600)
    samples[frame] = 0.5
    let found = attacks(in: samples, blocks: 1, rate: try SampleRate(8_000))
    #expect(found.map(\.attack.frame) == [Int64(frame)])
    #expect(found.map(\.reportedBy) == [reportedBy])
  }

  /// Nothing in the input's first eleven milliseconds (33 hops of 16 frames) starts an attack:
  /// a click on their last frames is none, one on the first frame after them is one, and a
  /// sound under the level just after them is none (nothing before the input counts as heard).
  @Test(arguments: [(526, Float(0.5), false), (528, 0.5, true), (600, 0.0018, false), (600, 0.0036, true)])
  func theFirstElevenMillisecondsStartNoAttack(frame: Int, peak: Float, found: Bool) {
    var samples = [Float](repeating: 0, count: 4_800)
    samples[frame] = peak
    #expect(attacks(in: samples).map(\.attack.frame) == (found ? [Int64(frame)] : []))
  }

  /// A click exactly at the level starts an attack; the softest sound under it does not.
  @Test func aSoundExactlyAtTheLevelCounts() {
    let level = Float(pow(10, OnsetSettings.standard.level / 20))
    for (peak, count) in [(level, 1), (level.nextDown, 0)] {
      var samples = [Float](repeating: 0, count: 9_600)
      samples[4_800] = peak
      #expect(attacks(in: samples).count == count, "\(peak)")
    }
  }

  /// Over silence, a change under a thousandth of the level starts no attack, even while the
  /// level is held up by an offset switched on 31 ms before (still settling through the 20 Hz
  /// high-pass, its own step past the 10 ms an attack must rise over): 1.2 thousandths does.
  @Test(arguments: [(1.2, true), (0.75, false)] as [(Float, Bool)])
  func aChangeUnderAThousandthOfTheLevelIsNoAttack(thousandths: Float, found: Bool) {
    let level = Float(pow(10, OnsetSettings.standard.level / 20))
    var samples = [Float](repeating: 0, count: 9_600)
    for index in 4_800..<9_600 { samples[index] = index < 6_300 ? 0.5 : 0.5 + thousandths * level / 1_000 }
    #expect(attacks(in: samples).map(\.attack.frame) == (found ? [4_800, 6_300] : [4_800]))
  }

  /// A hit exactly 25 ms after the last is a hit of its own.
  @Test func aHitExactlyTheSpacingAfterTheLastIsTwo() {
    var samples = [Float](repeating: 0, count: 9_600)
    samples[2_000] = 0.5
    samples[3_200] = 0.5
    #expect(attacks(in: samples).map(\.attack.frame) == [2_000, 3_200])
  }

  /// A soft hit after a loud one is said as loud as itself.
  @Test func eachAttackIsAsLoudAsItself() {
    var samples = [Float](repeating: 0, count: 24_000)
    tick(into: &samples, at: 4_800, peak: 0.9, seed: 29)
    tick(into: &samples, at: 12_000, peak: 0.05, seed: 30)
    let levels = attacks(in: samples).map(\.attack.level)
    #expect(levels.count == 2)
    #expect(zip(levels, [0.9, 0.05]).allSatisfy { abs($0 - 20 * log10($1)) < 1.5 }, "\(levels)")
  }

  /// A sound already ringing as the input starts is not an attack.
  ///
  /// The first eleven milliseconds have nothing before them to rise above. The same sound later
  /// is one.
  @Test func aSoundRingingAsTheInputStartsIsNoAttack() {
    var ringing = [Float](repeating: 0, count: 9_600)
    burst(into: &ringing, at: 0, peak: 0.5, decay: 0.005, seed: 22)
    #expect(attacks(in: ringing).isEmpty)
    var later = [Float](repeating: 0, count: 9_600)
    burst(into: &later, at: 4_000, peak: 0.5, decay: 0.005, seed: 22)
    later[4_000] = 0.5
    #expect(attacks(in: later).map(\.attack.frame) == [4_000])
  }

  /// Hits 25 ms apart or more are two; a second tick 24 ms after the first is part of it.
  @Test(arguments: [(1_152, 1), (1_248, 2), (2_400, 2)] as [(Int, Int)])
  func hitsTwentyFiveMillisecondsApartAreTwo(apart: Int, hits: Int) {
    var samples = [Float](repeating: 0, count: 9_600)
    tick(into: &samples, at: 2_000, peak: 0.5, seed: 23)
    tick(into: &samples, at: 2_000 + apart, peak: 0.5, seed: 24)
    let found = attacks(in: samples).map(\.attack.frame)
    #expect(found == [2_000, 2_000 + Int64(apart)].prefix(hits).map { $0 }, "\(apart) frames apart")
  }

  /// An attack starts where its rise began.
  ///
  /// That is back over every sample at a tenth of its peak with less than half a millisecond
  /// (24 frames) quieter between them. A sound too soft to start an attack of its own (under
  /// `--onset-level`) but over that tenth, 20 frames before a stroke, is where the stroke starts;
  /// 30 frames before, it is not.
  @Test(arguments: [(20, true), (23, true), (24, true), (25, false), (30, false), (40, false)] as [(Int, Bool)])
  func aStrokeStartsWhereItsRiseBeganWithNoHalfMillisecondQuietBetween(gap: Int, joined: Bool) {
    var samples = [Float](repeating: 0, count: 24_000)
    tick(into: &samples, at: 12_000, peak: 0.9, seed: 25)
    let before = 12_000 - gap - 1
    samples[before] = 0.3
    let loud = OnsetSettings(level: -6, rise: 12, spacing: 0.025)
    #expect(attacks(in: samples, settings: loud).map(\.attack.frame) == [joined ? Int64(before) : 12_000])
  }

  /// A rise in steps, each less than half a millisecond after the last, is placed back to its
  /// first step, however many there are: each step's quiet is counted anew, the last 23 frames.
  @Test func aRiseInStepsIsPlacedBackToItsFirst() {
    var samples = [Float](repeating: 0, count: 24_000)
    tick(into: &samples, at: 12_000, peak: 0.9, seed: 27)
    // Each step rises and falls back: two frames of its own, then quiet up to the next.
    samples[12_000 - 21] = 0.3
    samples[12_000 - 21 - 25] = 0.3
    let loud = OnsetSettings(level: -6, rise: 12, spacing: 0.025)
    #expect(attacks(in: samples, settings: loud).map(\.attack.frame) == [12_000 - 46])
  }

  /// A sample exactly at a tenth of the stroke's peak is part of its rise; one a little under
  /// it is not.
  @Test func aTenthOfThePeakIsPartOfTheRise() {
    let peak = Float(0.9)
    for (before, joined) in [(peak / 10, true), ((peak / 10).nextDown, false)] {
      var samples = [Float](repeating: 0, count: 24_000)
      samples[12_000] = peak
      samples[11_979] = before
      let loud = OnsetSettings(level: -6, rise: 12, spacing: 0.025)
      #expect(attacks(in: samples, settings: loud).map(\.attack.frame) == [joined ? 11_979 : 12_000], "\(before)")
    }
  }

  /// Over a steady hiss, a stroke starts on its first sample that rises over twice the hiss's,
  /// though that alone rises too little to start an attack.
  @Test func overAHissAStrokeStartsWhereItRisesOverTwiceIt() {
    // Every first difference of the hiss is 1/64: four times that starts an attack (12 dB).
    let hiss: [Float] = [1.0 / 64, 0, -1.0 / 64, 0]
    var samples = (0..<24_000).map { hiss[$0 % 4] }
    samples[12_002] = 0.05
    samples[12_003] = 0.35
    #expect(attacks(in: samples).map(\.attack.frame) == [12_002])
  }

  /// A sound that swells over two milliseconds starts on its first sample to reach a tenth of
  /// the loudest it gets in its first three, not where it first stirs: its peak in the middle of
  /// them, not in their first or last third of a millisecond.
  @Test func aSwellStartsAtATenthOfItsPeak() {
    var samples = [Float](repeating: 0, count: 24_000)
    for index in 0..<480 {
      // From nothing to ±0.5 over 96 frames (first differences from 0.005 to 1), held half a
      // millisecond, then ±0.02.
      let amplitude = Float(index < 120 ? 0.5 * min(Double(index) / 96, 1) : 0.02)
      samples[12_000 + index] = index % 2 == 0 ? amplitude : -amplitude
    }
    // Frame 12,011's first difference is 21/192 (0.109), the one before 19/192.
    #expect(attacks(in: samples).map(\.attack.frame) == [12_011])
  }

  /// The first sample at a tenth of the peak starts the attack, whatever the noise there.
  ///
  /// Only the walk back from it is held to what a sound known not to be a hit may be. A swell to
  /// ±0.05 over 100 frames with a crack of 0.5 two milliseconds in (its peak, 0.55) reaches a
  /// tenth of it on its 55th frame, odd frames from where the swell set the attack off.
  @Test func theFirstSampleAtATenthOfThePeakStartsItWhateverTheNoiseThere() {
    var samples = [Float](repeating: 0, count: 24_000)
    for index in 0..<480 {
      let amplitude = Float(0.05 * min(Double(index + 1) / 100, 1))
      samples[12_000 + index] = index % 2 == 0 ? amplitude : -amplitude
    }
    samples[12_120] = 0.5
    var noise = [Float](repeating: 0, count: 24_000)
    noise[12_055] = 0.2
    #expect(attacks(in: samples, below: noise).map(\.frame) == [12_055])
  }

  /// It is placed back at most three milliseconds before the sample that set it off, however long
  /// the sound before it: a soft rattle 5 ms long before a stroke.
  @Test func anAttackIsPlacedBackAtMostThreeMilliseconds() {
    var samples = [Float](repeating: 0, count: 24_000)
    for index in 11_760..<12_000 { samples[index] = index % 2 == 0 ? 0.3 : -0.3 }
    tick(into: &samples, at: 12_000, peak: 0.9, seed: 28)
    let loud = OnsetSettings(level: -6, rise: 12, spacing: 0.025)
    // The stroke's first sample rises 1.2 over the rattle, four times the rattle's mean (0.26 over
    // the ten milliseconds before): it sets the attack off, and 144 frames before it is the start.
    #expect(attacks(in: samples, settings: loud).map(\.attack.frame) == [11_856])
  }

  /// The same at any rate: the frames kept to place an attack back reach three milliseconds
  /// before it at 10.5 and 21 kHz (where three milliseconds each way and a hop just pass a power
  /// of two) as at 48.
  @Test(arguments: [10_500, 21_000, 48_000])
  func anAttackIsPlacedBackThreeMillisecondsAtAnyRate(hz: Int) throws {
    let rate = try SampleRate(hz)
    let stroke = hz / 4
    var samples = [Float](repeating: 0, count: hz / 2)
    // The rattle's last sample -0.3, so that the stroke's first rises 1.2 over it.
    for index in (stroke - hz / 200)..<stroke { samples[index] = (stroke - index) % 2 == 0 ? 0.3 : -0.3 }
    samples[stroke] = 0.9
    samples[stroke + 1] = -0.6
    let loud = OnsetSettings(level: -6, rise: 12, spacing: 0.025)
    let back = Int64((0.003 * Double(hz)).rounded())
    #expect(attacks(in: samples, settings: loud, rate: rate).map(\.attack.frame) == [Int64(stroke) - back])
  }

  /// An attack is said as loud as its loudest in the milliseconds followed, not its first hop.
  @Test func anAttackIsAsLoudAsItsLoudestInItsFirstMilliseconds() {
    var samples = [Float](repeating: 0, count: 24_000)
    // A stroke that starts at 0.05 and swells to 0.5 over a millisecond.
    for index in 0..<480 {
      let swell = Float(min(Double(index) / 48, 1))
      samples[12_000 + index] = (0.05 + 0.45 * swell) * (index % 2 == 0 ? 1 : -1)
    }
    let found = attacks(in: samples)
    #expect(
      found.count == 1 && found.allSatisfy { abs($0.attack.level - 20 * log10(0.5)) < 1.5 },
      "\(found.map(\.attack))")
  }

  /// A snare ringing at ±0.2 (seeded noise) over `frames` frames, and under it from `frame` on a
  /// soft kick: 60 Hz at `kick`, from its beater's push.
  private func kickUnderSnare(frames: Int, at frame: Int, kick: Double) -> [Float] {
    var random = SeededGenerator(seed: 26)
    var samples = (0..<frames).map { _ in Float.random(in: -0.2...0.2, using: &random) }
    for index in frame..<frames {
      samples[index] += Float(kick * cos(2 * Double.pi * 60 * Double(index - frame) / 48_000))
    }
    return samples
  }

  /// A soft kick (60 Hz, from its beater's push) under a snare still ringing is found in the
  /// band below 200 Hz: its first difference is lost under the snare's.
  @Test func aSoftKickUnderARingingSnareIsFoundBelowTwoHundredHertz() {
    let found = attacks(in: kickUnderSnare(frames: 48_000, at: 24_000, kick: 0.5)).map(\.attack.frame)
    #expect(found.count == 1 && found.allSatisfy { (23_952...24_096).contains($0) }, "\(found)")
  }

  /// The same kick is found as early as any attack may start: 12 ms into the input, under a
  /// snare ringing from its first frame (its low band, like its first difference, starts from
  /// silence).
  @Test func aSoftKickTwelveMillisecondsInIsFoundBelowTwoHundredHertz() {
    let found = attacks(in: kickUnderSnare(frames: 9_600, at: 576, kick: 0.5)).map(\.attack.frame)
    #expect(found.count == 1 && found.allSatisfy { (528...672).contains($0) }, "\(found)")
  }

  /// The low band holds the sound below 200 Hz, and no higher: a soft kick (60 Hz) at 0.22
  /// under a snare ringing at ±0.2 rises enough over the snare's sound there to be found, at 0.21
  /// not (reaching 300 Hz, the band would hold more of the snare, and the kick at 0.22 would
  /// not be found either).
  @Test(arguments: [(0.22, true), (0.21, false)])
  func theLowBandEndsAtTwoHundredHertz(kick: Double, found: Bool) {
    let frames = attacks(in: kickUnderSnare(frames: 48_000, at: 24_000, kick: kick)).map(\.attack.frame)
    #expect(frames.count == (found ? 1 : 0) && frames.allSatisfy { (24_000...24_048).contains($0) }, "\(frames)")
  }

  /// An attack's level is read through a high-pass at 20 Hz, a one-pole DC blocker: on a slow
  /// drift (an offset creeping in as a preamp settles), which it holds at the drift's step over
  /// 2π 20 / 48,000 of a frame, a tick of 0.01 is said as loud as that and the tick together.
  @Test func anAttacksLevelIsReadAboveTwentyHertz() {
    let step: Float = 1e-4
    var samples = (0..<9_600).map { Float($0) * step }
    samples[4_800] += 0.01
    let held = Double(step) / (2 * Double.pi * 20 / 48_000)
    let levels = attacks(in: samples).map(\.attack.level)
    #expect(levels.count == 1 && levels.allSatisfy { abs($0 - 20 * log10(held + 0.01)) < 0.05 }, "\(levels)")
  }

  /// Where the input's frames are numbered from makes no difference.
  @Test func theFramesNumberingChangesNothing() {
    var samples = [Float](repeating: 0, count: 24_000)
    for (index, frame) in [1_000, 9_001, 16_333].enumerated() {
      burst(into: &samples, at: frame, peak: 0.4, decay: 0.01, seed: UInt64(30 + index))
    }
    let fromZero = attacks(in: samples).map(\.attack)
    #expect(fromZero.count == 3)
    #expect(attacks(in: samples, origin: 1_234_567).map(\.attack) == fromZero)
  }

  @Test func velocityFollowsTheLevel() {
    #expect(Attack(frame: 0, level: 0).velocity == 127)
    #expect(Attack(frame: 0, level: -40).velocity == 13)
    #expect(Attack(frame: 0, level: -200).velocity == 1)
  }
}
