/// What was left of an echo, as a share of its energy, in the last 63 segments that held it
/// alone, and the tenth of them from the least: what the echo usually leaves, which a player
/// drumming through the echo's tail raises in most segments, never in the echo's own.
///
/// Allocates nothing once made; touched by one thread.
final class ResidualShares {
  private let shares = FloatBuffer(count: 63, repeating: 1)
  private let sorted = FloatBuffer(count: 63, repeating: 1)
  private var next = 0
  /// The tenth of the shares kept from the least; 1 until enough are kept.
  private(set) var usual: Float = 1

  /// Keeps `share`, what was left of the echo in a segment that held it alone.
  func note(_ share: Float) {
    shares[next] = share
    next = (next + 1) % shares.count
    for index in 0..<shares.count { sorted[index] = shares[index] }
    // Insertion sort: 63 values, in place.
    for index in 1..<sorted.count {
      let value = sorted[index]
      var place = index
      while place > 0, sorted[place - 1] > value {
        sorted[place] = sorted[place - 1]
        place -= 1
      }
      sorted[place] = value
    }
    usual = sorted[sorted.count / 10]
  }
}
