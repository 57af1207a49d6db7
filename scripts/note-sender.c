/* Plays note-ons into metronome's --listen on the ALSA sequencer, for the tests (scripts/sequencer-vm
   runs it): a client named "sender" with one port, "out", that prints "ready CLIENT:PORT", then
   reads lines "MICROSECONDS" from standard input and sends note 38 at velocity 100 to its
   subscribers at each of those times after DELAY seconds (default 3) from when it read the first
   line, timed by a queue of its own; it exits once the last has left. The tests feed the plan
   once metronome prints its first click, so that the notes keep their place against the clicks
   however long metronome took to start. */
#include <alsa/asoundlib.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  snd_seq_t *seq;
  if (snd_seq_open(&seq, "default", SND_SEQ_OPEN_OUTPUT, 0) < 0) {
    fprintf(stderr, "sender: no ALSA sequencer\n");
    return 1;
  }
  snd_seq_set_client_name(seq, "sender");
  int port = snd_seq_create_simple_port(seq, "out", SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ,
                                        SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
  int queue = snd_seq_alloc_queue(seq);
  int error = port < 0 ? port : queue;
  if (error < 0) {
    fprintf(stderr, "sender: no port: %s\n", snd_strerror(error));
    return 1;
  }
  printf("ready %d:%d\n", snd_seq_client_id(seq), port);
  fflush(stdout);
  long long delay = (argc > 1 ? atoll(argv[1]) : 3) * 1000000LL, micros;
  int started = 0;
  while (scanf("%lld", &micros) == 1) {
    if (!started) {
      started = 1;
      if (snd_seq_control_queue(seq, queue, SND_SEQ_EVENT_START, 0, NULL) < 0 || snd_seq_drain_output(seq) < 0) {
        fprintf(stderr, "sender: could not start its queue\n");
        return 1;
      }
    }
    long long at = delay + micros;
    snd_seq_event_t event;
    snd_seq_ev_clear(&event);
    snd_seq_ev_set_source(&event, port);
    snd_seq_ev_set_subs(&event);
    snd_seq_ev_set_noteon(&event, 9, 38, 100);
    snd_seq_real_time_t time = {(unsigned int)(at / 1000000), (unsigned int)(at % 1000000 * 1000)};
    snd_seq_ev_schedule_real(&event, queue, 0, &time);
    if (snd_seq_event_output(seq, &event) < 0 || snd_seq_drain_output(seq) < 0) {
      fprintf(stderr, "sender: could not send\n");
      return 1;
    }
  }
  snd_seq_sync_output_queue(seq);
  return 0;
}
