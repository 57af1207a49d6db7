/// What a tempo-map line adds after klick's columns, as `name=value` words: its subdivision and
/// swing, a gap, a count-in, how many times it plays and a step trainer.
struct SectionSettings {
  private var subdivisionCount: Int?
  private var swing: (percent: Double, column: Int)?
  private var gap: Gap?
  private var countIn: (length: CountIn, column: Int)?
  private var loops: (times: Int, column: Int)?
  private var step: (bpm: Double, column: Int)?
  private var target: (bpm: Double, column: Int)?

  /// The most times a section may be played in a row.
  static let mostLoops = 1000

  /// The settings in `words`, random gaps drawn with `seed`.
  init(
    _ words: ArraySlice<TempoMapParser.Word>, seed: UInt64, fail: (Int, String) -> TempoMapError
  ) throws(TempoMapError) {
    for word in words {
      guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
        throw fail(word.column, "unexpected '\(word.text)'; settings are written name=value, such as sub=2")
      }
      let name = word.text[..<equals]
      let value = word.text[word.text.index(after: equals)...]
      let valueColumn = word.column + name.count + 1
      func wholeNumber(in range: ClosedRange<Int>) throws(TempoMapError) -> Int {
        guard value.allSatisfy(\.isWholeNumber), let number = Int(value), range.contains(number) else {
          throw fail(valueColumn, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
      }
      func tempo() throws(TempoMapError) -> Double {
        guard let bpm = TempoMapParser.number(value), Tempo.range.contains(bpm) else {
          throw fail(valueColumn, "\(name) must be a tempo from 1 to 1000 BPM")
        }
        return bpm
      }
      switch name {
      case "sub": subdivisionCount = try wholeNumber(in: Subdivision.counts)
      case "swing":
        guard let percent = TempoMapParser.number(value), (50...75).contains(percent) else {
          throw fail(valueColumn, "swing must be a share from 50 (straight) to 75 percent; 66.7 is the triplet feel")
        }
        swing = (percent, word.column)
      case "gap":
        do { gap = try Gap(parsing: value, seed: seed) } catch { throw fail(valueColumn, "\(error)") }
      case "count-in":
        do { countIn = (try CountIn(parsing: value), word.column) } catch { throw fail(valueColumn, "\(error)") }
      case "loop": loops = (try wholeNumber(in: 1...Self.mostLoops), word.column)
      case "step":
        guard let bpm = TempoMapParser.number(value.hasPrefix("-") ? value.dropFirst() : value), bpm > 0 else {
          throw fail(valueColumn, "step must be the BPM to change by every step, such as 5 or -5")
        }
        step = (value.hasPrefix("-") ? -bpm : bpm, word.column)
      case "to": target = (try tempo(), word.column)
      default:
        throw fail(
          word.column, "unknown setting '\(name)': a line takes sub=, swing=, gap=, count-in=, loop=, step= and to=")
      }
    }
  }

  /// `section` with these settings: divided, swung and gapped as they say, played as many times
  /// as they say, or stepped from its tempo to the target.
  func applied(to section: TempoMap.Section, fail: (Int, String) -> TempoMapError) throws(TempoMapError)
    -> TempoMapParser.ParsedLine
  {
    var section = section
    section.gap = gap
    if let swing {
      do {
        section.subdivision = try Subdivision(subdivisionCount ?? 2, swing: Subdivision.swing(percent: swing.percent))
      } catch {
        throw fail(swing.column, "\(error)")
      }
    } else if let subdivisionCount {
      // Cannot fail: the count was read within `Subdivision.counts`, and a straight beat takes any.
      section.subdivision = try? Subdivision(subdivisionCount)
    }
    var sections = [section]
    if (step == nil) != (target == nil), let given = step ?? target {
      throw fail(given.column, "a step trainer needs both step= and to=, such as step=5 to=120")
    }
    if let step, let target {
      guard let bars = section.bars, case .steady(let start) = section.tempo else {
        throw fail(
          step.column,
          "a step trainer needs one tempo to start from and steps every bars of its line: 4 100 step=5 to=120")
      }
      guard
        let trainer = TempoMap.stepTrainer(
          from: start, to: target.bpm, step: step.bpm, every: .bars(bars), meter: section.meter,
          pattern: section.pattern, loops: true)
      else {
        throw fail(
          step.column,
          "step=\(Tempo.format(step.bpm)) does not lead from \(Tempo.format(start)) to \(Tempo.format(target.bpm)) in at most \(TempoMap.mostSteps) steps"
        )
      }
      sections = trainer.sections.enumerated().map { index, stepped in
        var copy = section
        copy.tempo = stepped.tempo
        if index > 0 { copy.label = nil }
        return copy
      }
    }
    if let loops {
      guard section.bars != nil else { throw fail(loops.column, "a song of one line plays for ever: it cannot loop") }
      guard sections.count * loops.times <= TempoMapParser.maximumSections else {
        throw fail(loops.column, "the line would hold more than \(TempoMapParser.maximumSections) sections")
      }
      let copies = sections.map { sectionCopy -> TempoMap.Section in
        var copy = sectionCopy
        copy.label = nil
        return copy
      }
      sections += Array(repeating: copies, count: loops.times - 1).flatMap { $0 }
    }
    return TempoMapParser.ParsedLine(sections: sections, countIn: countIn)
  }
}
