import PracticeListening
import Testing

/// The SVG the reports draw with: round values, ticks, numbers and elements as written.
@Suite(.timeLimit(.minutes(1)))
struct SVGDrawingTests {
  @Test func aNiceCeilingIsOneTwoOrFiveTimesAPowerOfTen() {
    let values: [Double] = [-3, 0, 0.03, 0.1, 0.11, 1, 1.5, 2, 2.1, 5, 7, 10, 11, 200, 250, 501]
    #expect(values.map(SVGDrawing.niceCeiling) == [1, 1, 0.05, 0.1, 0.2, 1, 2, 2, 5, 5, 10, 10, 20, 200, 500, 1_000])
  }

  @Test func ticksAreRoundValuesThroughZero() {
    #expect(SVGDrawing.ticks(upTo: 30) == [0, 5, 10, 15, 20, 25, 30])
    #expect(SVGDrawing.ticks(from: -40, to: 40) == [-40, -30, -20, -10, 0, 10, 20, 30, 40])
    #expect(SVGDrawing.ticks(from: -45, to: 45) == [-40, -20, 0, 20, 40])
  }

  @Test func numbersHaveAtMostOneDecimal() {
    #expect([0, 12, -3.25, 0.05, 2.96, -0.04].map(SVGDrawing.number) == ["0", "12", "-3.3", "0.1", "3", "0"])
  }

  @Test func elementsAreWrittenAsTheyAreAsked() {
    #expect(
      SVGDrawing.line(1, 2, 3, 4.5, "#444", width: 1)
        == "<line x1=\"1\" y1=\"2\" x2=\"3\" y2=\"4.5\" stroke=\"#444\" stroke-width=\"1\"/>\n")
    #expect(SVGDrawing.line(0, 0, 1, 1, "red", width: 2, dashed: true).contains(" stroke-dasharray=\"6 4\"/>"))
    #expect(
      SVGDrawing.rectangle(1, 2, width: 3, height: 4, fill: "none")
        == "<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\" fill=\"none\"/>\n")
    #expect(
      SVGDrawing.rectangle(0, 0, width: 1, height: 1, fill: "none", stroke: "#a0aec0").hasSuffix(
        " stroke=\"#a0aec0\"/>\n"))
    #expect(SVGDrawing.circle(5, 6, radius: 3.5, "#fff") == "<circle cx=\"5\" cy=\"6\" r=\"3.5\" fill=\"#fff\"/>\n")
    #expect(
      SVGDrawing.circle(5, 6, radius: 5, "#2b6cb0", filled: false).hasSuffix(
        " fill=\"white\" stroke=\"#2b6cb0\" stroke-width=\"1.5\"/>\n"))
    #expect(
      SVGDrawing.text(1, 2, "a <b> & \"c\"", size: 11, anchor: "end").hasSuffix(
        ">a &lt;b&gt; &amp; &quot;c&quot;</text>\n"))
  }
}
