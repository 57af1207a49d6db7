/* Records the MIDI clock and notes sent to it on the ALSA sequencer, for the tests of
   metronome's --midi-clock and --midi-notes (scripts/sequencer-vm builds and runs it): a client
   named "recorder" with one port, "in", printing "ready CLIENT:PORT" and then one line per
   message as it arrives: the time the sequencer delivered it, in microseconds of a queue of the
   recorder's own (stamped by the kernel, so that how soon this process wakes does not count),
   and the message (clock, start, continue, stop, songpos N, noteon CHANNEL NOTE VELOCITY,
   noteoff CHANNEL NOTE, the channel from 1); until a stop arrives or, after SECONDS (default
   30), nothing more can. */
#include <alsa/asoundlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  snd_seq_t *seq;
  if (snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, 0) < 0) {
    fprintf(stderr, "recorder: no ALSA sequencer\n");
    return 1;
  }
  snd_seq_set_client_name(seq, "recorder");
  int queue = snd_seq_alloc_queue(seq);
  snd_seq_port_info_t *info;
  snd_seq_port_info_alloca(&info);
  snd_seq_port_info_set_name(info, "in");
  snd_seq_port_info_set_capability(info, SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE);
  snd_seq_port_info_set_type(info, SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
  snd_seq_port_info_set_timestamping(info, 1);
  snd_seq_port_info_set_timestamp_real(info, 1);
  snd_seq_port_info_set_timestamp_queue(info, queue);
  int error = queue < 0 ? queue : snd_seq_create_port(seq, info);
  if (error >= 0) error = snd_seq_control_queue(seq, queue, SND_SEQ_EVENT_START, 0, NULL);
  if (error >= 0) error = snd_seq_drain_output(seq);
  if (error < 0) {
    fprintf(stderr, "recorder: no port: %s\n", snd_strerror(error));
    return 1;
  }
  int port = snd_seq_port_info_get_port(info);
  alarm(argc > 1 ? (unsigned)atoi(argv[1]) : 30);
  printf("ready %d:%d\n", snd_seq_client_id(seq), port);
  fflush(stdout);
  for (;;) {
    snd_seq_event_t *event;
    if (snd_seq_event_input(seq, &event) < 0) continue;
    long long now = (long long)event->time.time.tv_sec * 1000000 + event->time.time.tv_nsec / 1000;
    switch (event->type) {
    case SND_SEQ_EVENT_CLOCK: printf("%lld clock\n", now); break;
    case SND_SEQ_EVENT_START: printf("%lld start\n", now); break;
    case SND_SEQ_EVENT_CONTINUE: printf("%lld continue\n", now); break;
    case SND_SEQ_EVENT_SONGPOS: printf("%lld songpos %d\n", now, event->data.control.value); break;
    case SND_SEQ_EVENT_NOTEON:
      printf("%lld noteon %d %d %d\n", now, event->data.note.channel + 1, event->data.note.note,
             event->data.note.velocity);
      break;
    case SND_SEQ_EVENT_NOTEOFF:
      printf("%lld noteoff %d %d\n", now, event->data.note.channel + 1, event->data.note.note);
      break;
    case SND_SEQ_EVENT_STOP:
      printf("%lld stop\n", now);
      return 0;
    default: continue;
    }
    fflush(stdout);
  }
}
