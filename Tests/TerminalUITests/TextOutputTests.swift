import Glibc
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TextOutputTests {
  @Test func writesEveryByteOfTheTextToItsDescriptor() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let text = "beat 1 ♩\n" + String(repeating: "x", count: 3_000) + "\n"

    TextOutput(descriptor: ends[1]).write(text)
    close(ends[1])

    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1_024)
    while case let count = read(ends[0], &chunk, chunk.count), count > 0 { received += chunk[..<count] }
    #expect(String(decoding: received, as: UTF8.self) == text)
  }
}
