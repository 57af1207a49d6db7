import MetronomeControl
import MetronomeCore
import PracticeJournal

/// A live run kept in the practice journal: the journal opened as the run starts (a file that
/// cannot be kept in is one line, and the run plays on), the beats heard gathered as it plays,
/// and the take kept as it ends, however it ends.
@MainActor
final class JournalKeeper: SessionObserver {
  private let journal: Journal
  private var recorder: TakeRecorder

  /// A keeper for the run `request` asks to keep, playing `programme` (in a few words), started
  /// at `started`; nil, having said why on `say`, where the journal cannot be kept in.
  init?(_ request: JournalKeeping, programme: String, started: WallTime, say: (String) -> Void) {
    do {
      journal = try Journal.openForKeeping(request.path)
    } catch {
      say("\(error); this run is not kept")
      return nil
    }
    recorder = TakeRecorder(started: started, tag: request.tag, programme: programme)
  }

  /// The bar's beats alone: they say the meters and tempos played.
  var hearsEveryClick: Bool { false }

  func heard(_ beat: Beat) { recorder.heard(beat) }

  func ended(_ end: SessionEnd, say: (String) -> Void) {
    let take = recorder.take(seconds: end.seconds, ending: end.reason, status: end.status, scorer: end.scorer)
    do {
      try journal.keep(take)
    } catch {
      say("\(error); this take was not kept")
    }
  }
}
