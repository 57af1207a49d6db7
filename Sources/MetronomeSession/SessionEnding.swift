/// Why a session ends: the exit status, in a few words why, and what to say.
struct SessionEnding {
  var status: Int32
  var reason: String
  var error: String?
  var note: String?
  /// A run that played out ends once its last beats have been heard; a stopped one at once.
  var waitsForHeardBeats = false
}
