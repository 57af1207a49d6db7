import AudioListening
import Testing

/// The onset detector's settings a player may give, as the man page states them.
@Suite(.timeLimit(.minutes(1))) struct OnsetSettingsTests {
  /// `--onset-level` is from -90 to 0 dBFS and `--onset-rise` from 3 to 40 dB, ends included; the
  /// defaults lie within them.
  @Test func theLevelsAndRisesAllowedAreThoseTheManPageStates() {
    #expect(OnsetSettings.levels == -90.0...0.0)
    #expect(OnsetSettings.rises == 3.0...40.0)
    #expect(OnsetSettings.levels.contains(OnsetSettings.standard.level))
    #expect(OnsetSettings.rises.contains(OnsetSettings.standard.rise))
  }
}
