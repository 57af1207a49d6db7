import MetronomeCore
import MetronomeRun
import OSCControl
import Testing

extension KlickCommandLine {
  // Each group of the options it gives, for short expectations.
  fileprivate var meterAndTempo: [String] { words.words }
  fileprivate var rhythm: RhythmOptions { options.rhythm }
  fileprivate var length: LengthOptions { options.length }
  fileprivate var sound: SoundOptions { options.sound }
  fileprivate var programme: ProgrammeOptions { options.programme }
  fileprivate var output: OutputOptions { options.output }
  fileprivate var client: JACKClientOptions { options.client }
  fileprivate var sync: SyncOptions { options.sync }
  fileprivate var remote: RemoteOptions { options.remote }
}

/// klick 0.12.2's command line said in this metronome's options, with no process.
@Suite(.timeLimit(.minutes(1)))
struct KlickCommandLineTests {
  /// klick's command line `arguments`, split at spaces, as read.
  private func line(_ arguments: String) throws(RunError) -> KlickCommandLine {
    try KlickCommandLine(arguments.split(separator: " ").map(String.init))
  }

  /// The usage error klick's command line `arguments` gives, or nil when it is read.
  private func usageError(_ arguments: String) -> String? {
    usageMessage { try line(arguments) }
  }

  /// As klick: through JACK, connected nowhere, nothing printed per beat; the meter as typed.
  @Test func klickPlaysThroughJACKConnectedNowhere() throws {
    let klick = try line("7/4 100")
    #expect(klick.command == .play)
    #expect(klick.client.jack && klick.client.connect == ["none"] && klick.output.headless)
    #expect(klick.output.events == .none)
    #expect(klick.meterAndTempo == ["7/4", "100"])
    let request = try PlayRequest(words: klick.words, options: klick.options, startsStopped: klick.startsStopped)
    #expect(request.music.start.meter.signature == "7/4")
    #expect(request.output == .jack(clientName: "metronome", connections: []))
  }

  @Test func optionsAreReadAsGetoptReadsThem() throws {
    let combined = try line("-Pn me -o9000 -x 1.5 -c 0 -l verse 4 3/4 96 X.x")
    #expect(combined.client.connect == nil && combined.client.clientName == "me")
    #expect(combined.remote.osc == 9000 && combined.startsStopped)
    #expect(combined.programme.multiplier == 1.5 && combined.programme.countIn == .bars(0))
    #expect(combined.programme.startLabel == "verse")
    #expect(combined.length.bars == 4 && combined.meterAndTempo == ["3/4", "96", "X.x"])
    #expect(try line("-p a:in,b:in -p c:in 120").client.connect == ["a:in", "b:in", "c:in"])
    #expect(try line("-j").sync.followTransport)
    #expect(try line("-T 120").sync.timebaseMaster)
    #expect(try line("-f song.map").programme.map == "song.map")
    #expect(try line("-s 3 120").sound.sound == .woodblock)
    #expect(try line("-S a.wav 120").sound.samples == ["a.wav", "a.wav"])
    #expect(try line("-i").output.headless == false)
    #expect(try line("-R osc.udp://127.0.0.1:9001 120").remote.oscReturn == OSCEndpoint(host: "127.0.0.1", port: 9001))
    #expect(try line("-S a.wav,b.wav 120").sound.samples == ["a.wav", "b.wav"])
    #expect(usageError("-S a.wav,b.wav,c.wav 120") == "invalid argument to -S: sample file names")
  }

  /// As getopt: `--` ends the options and is dropped; `-` alone is a word, not an option.
  @Test func aDoubleDashEndsTheOptionsAndADashAloneIsAWord() throws {
    #expect(try line("-n me -- 3/4 120").meterAndTempo == ["3/4", "120"])
    #expect(try line("-- -n").meterAndTempo == ["-n"])
    #expect(try line("- 120").meterAndTempo == ["-", "120"])
  }

  /// -v takes one volume from 0 to 1, as klick plays it, and says so for what klick would play
  /// otherwise (a second volume, or one above 1).
  @Test func aVolumeIsKeptFromZeroToOne() throws {
    let half = try line("-v 0.5 120")
    #expect(half.sound.volume == 0.5 && half.notes.isEmpty)
    #expect(try line("-v 1 120").notes.isEmpty)
    #expect(try line("-v 0 120").sound.volume == 0)
    #expect(try line("-v -1 120").sound.volume == 0)
    let two = try line("-v 0.5,0.2 120")
    #expect(two.sound.volume == 0.5)
    #expect(two.notes == ["-v 0.5,0.2: one volume from 0 to 1 for every click; 0.5 plays"])
    #expect(try line("-v 1.5 120").notes == ["-v 1.5: one volume from 0 to 1 for every click; 1 plays"])
    #expect(usageError("-v loud 120") == "invalid argument to -v: volume")
    // klick takes two volumes at most (`-v mult[,mult]`): a third is not klick's command line.
    #expect(usageError("-v 0.5,0.2,0.1 120") == "invalid argument to -v: volume")
  }

  @Test func theMultiplierIsAboveZero() throws {
    #expect(try line("-x 0.5 120").programme.multiplier == 0.5)
    #expect(usageError("-x 0 120") == "invalid argument to -x: tempo multiplier")
    #expect(usageError("-x -1 120") == "invalid argument to -x: tempo multiplier")
  }

  /// klick's four sounds by number play the nearest of ours: -s 2, klick's noise, which this
  /// metronome lacks, plays the pulse and says so; another number is refused as klick refuses it.
  @Test func klicksSoundNumbersPlayTheNearestSound() throws {
    for (number, sound) in [(0, ClickSound.pulse), (1, .beep), (2, .pulse), (3, .woodblock)] {
      let klick = try line("-s \(number) 120")
      #expect(klick.sound.sound == sound, "-s \(number)")
      #expect(klick.notes == (number == 2 ? ["-s 2: no noise click; the pulse plays instead"] : []), "-s \(number)")
    }
    for bad in ["-1", "4", "x"] { #expect(usageError("-s \(bad) 120") == "invalid argument to -s: click sample") }
  }

  /// -e plays every beat that sounds normal, -E every one accented; silent beats stay silent.
  @Test func emphasisOptionsSetTheLevelOfEveryBeatThatSounds() throws {
    let none = try line("-e 3/4 120 X.x")
    #expect(none.rhythm.pattern?.description == "x.x" && none.meterAndTempo == ["3/4", "120"])
    #expect(try line("-E 120").rhythm.pattern?.description == "XXXX")
    #expect(try line("-e 5/8 120").rhythm.pattern?.description == "xxxxx")
    let mapped = try line("-e -f song.map")
    #expect(mapped.rhythm.pattern == nil && mapped.notes == ["-e with a map: the map's own levels play"])
  }

  @Test func exportNeedsAMapOrBars() throws {
    let rated = try line("-W out.wav -r 44100 8 120")
    #expect(rated.command == .export(path: "out.wav") && rated.sound.rate == 44_100)
    #expect(try line("-W out.wav -f song.map").sound.rate == 48_000)
    #expect(
      usageError("-W out.wav 120")
        == "need a tempo map to export to audio file: give -f FILE, or the number of bars before the meter")
    #expect(
      usageError("-W out.wav -o 9000 -f song.map") == "can't export to audio file when using OSC or interactive mode")
  }

  @Test func whatKlickRefusesIsRefused() throws {
    #expect(usageError("-j 120") == "can't use explicit tempo or tempo map together with -j option")
    #expect(usageError("-f song.map 120") == "can't use tempo map from file and command line at the same time")
    #expect(usageError("-o 9000 -i") == "can't enable OSC and terminal control at the same time, sorry")
    #expect(usageError("-n me") == "no tempo specified")
    #expect(usageError("-Q") == "klick: invalid option -- 'Q'")
    #expect(usageError("120 -c") == nil)
    #expect(usageError("-c") == "klick: option requires an argument -- 'c'")
    #expect(usageError("-s 4 120") == "invalid argument to -s: click sample")
    #expect(usageError("-R nowhere 120") == "invalid argument to -R: give a port or osc.udp://HOST:PORT/")
    #expect(try line("-c 64 120").programme.countIn == .bars(64))
    #expect(
      usageError("-c 65 120")
        == "invalid argument to -c: count-in '65' is neither bars (0 to 64; 0 counts two beats) nor beats (1b to 256b)")
  }

  /// Options with no counterpart say so, one line each, and the rest plays.
  @Test func optionsWithoutACounterpartAreOneLineEach() throws {
    let klick = try line("-w 2 -d 1.5 -t -L -s 2 -v 2,0.5 120")
    #expect(klick.notes.count == 6)
    #expect(klick.sound.volume == 1)
    #expect(klick.meterAndTempo == ["120"])
  }
}
