#ifndef METRONOME_CALSA_SHIM_H
#define METRONOME_CALSA_SHIM_H

#include <alsa/asoundlib.h>

/* ALSA prints its own diagnostics to stderr through a variadic handler, which Swift cannot
   define; metronome reports every failure itself (with snd_strerror), so they are dropped. */
static void metronome_alsa_discard_error(const char *file, int line, const char *function, int err,
                                         const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void metronome_alsa_silence_errors(void) {
  snd_lib_error_set_handler(metronome_alsa_discard_error);
}

/* A sequencer queue keeps time by the kernel's system timer, a tick of the kernel (4 ms on
   Debian's), unless told otherwise: this asks for the high-resolution timer instead, which the
   kernel loads on demand. Its set-up is written with macros (alloca), which Swift cannot call. */
static inline int metronome_seq_use_high_resolution_timer(snd_seq_t *seq, int queue) {
  snd_seq_queue_timer_t *timer;
  snd_timer_id_t *id;
  snd_seq_queue_timer_alloca(&timer);
  snd_timer_id_alloca(&id);
  int error = snd_seq_get_queue_timer(seq, queue, timer);
  if (error < 0) return error;
  snd_timer_id_set_class(id, SND_TIMER_CLASS_GLOBAL);
  snd_timer_id_set_sclass(id, SND_TIMER_SCLASS_NONE);
  snd_timer_id_set_card(id, -1);
  snd_timer_id_set_device(id, SND_TIMER_GLOBAL_HRTIMER);
  snd_timer_id_set_subdevice(id, 0);
  snd_seq_queue_timer_set_type(timer, SND_SEQ_TIMER_ALSA);
  snd_seq_queue_timer_set_id(timer, id);
  return snd_seq_set_queue_timer(seq, queue, timer);
}

/* The sequencer's events are set up by macros, which Swift cannot call: this makes `event` one
   from `port` to its subscribers, for the time `seconds` and `nanoseconds` of `queue`, which
   delivers it then (at once if that has passed). The time is the queue's own rather than one
   from now, so that messages for one moment keep the order they were sent in however long
   sending each took. */
static inline void metronome_seq_prepare(snd_seq_event_t *event, int port, int queue, int type,
                                         unsigned int seconds, unsigned int nanoseconds) {
  snd_seq_ev_clear(event);
  snd_seq_ev_set_source(event, port);
  snd_seq_ev_set_subs(event);
  snd_seq_ev_set_fixed(event);
  event->type = (snd_seq_event_type_t)type;
  snd_seq_real_time_t time = {seconds, nanoseconds};
  snd_seq_ev_schedule_real(event, queue, 0, &time);
}

/* Sends an event of `type` with `value` as its control value, as metronome_seq_prepare times it. */
static inline int metronome_seq_schedule(snd_seq_t *seq, int port, int queue, int type, int value,
                                         unsigned int seconds, unsigned int nanoseconds) {
  snd_seq_event_t event;
  metronome_seq_prepare(&event, port, queue, type, seconds, nanoseconds);
  event.data.control.value = value;
  return snd_seq_event_output(seq, &event);
}

/* Sends a note on or off (`type`) of `note` at `velocity` on `channel` (from 0), as
   metronome_seq_prepare times it. */
static inline int metronome_seq_schedule_note(snd_seq_t *seq, int port, int queue, int type, int channel, int note,
                                              int velocity, unsigned int seconds, unsigned int nanoseconds) {
  snd_seq_event_t event;
  metronome_seq_prepare(&event, port, queue, type, seconds, nanoseconds);
  event.data.note.channel = (unsigned char)channel;
  event.data.note.note = (unsigned char)note;
  event.data.note.velocity = (unsigned char)velocity;
  return snd_seq_event_output(seq, &event);
}

/* An input port `name` that others may write to, each event stamped as it arrives with the real
   time of `queue` (so that how soon the reader wakes does not count); returns its number or a
   negative error. The port's set-up is written with macros (alloca). */
static inline int metronome_seq_create_input_port(snd_seq_t *seq, const char *name, int queue) {
  snd_seq_port_info_t *info;
  snd_seq_port_info_alloca(&info);
  snd_seq_port_info_set_name(info, name);
  snd_seq_port_info_set_capability(info, SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE);
  snd_seq_port_info_set_type(info, SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
  snd_seq_port_info_set_timestamping(info, 1);
  snd_seq_port_info_set_timestamp_real(info, 1);
  snd_seq_port_info_set_timestamp_queue(info, queue);
  int error = snd_seq_create_port(seq, info);
  return error < 0 ? error : snd_seq_port_info_get_port(info);
}

/* Takes the next event that arrived, without waiting: 1 for a note-on, its bytes (0x90 with the
   channel, the note, the velocity) and its stamp in nanoseconds of its port's queue; 0 for any
   other event; a negative error (-EAGAIN when none is there). The event is a union, which Swift
   reads poorly. */
static inline int metronome_seq_read_note(snd_seq_t *seq, unsigned char *status, unsigned char *note,
                                          unsigned char *velocity, long long *nanoseconds) {
  snd_seq_event_t *event;
  int result = snd_seq_event_input(seq, &event);
  if (result < 0) return result;
  if (event->type != SND_SEQ_EVENT_NOTEON) return 0;
  *status = (unsigned char)(0x90 | (event->data.note.channel & 0x0F));
  *note = event->data.note.note & 0x7F;
  *velocity = event->data.note.velocity & 0x7F;
  *nanoseconds = (long long)event->time.time.tv_sec * 1000000000LL + event->time.time.tv_nsec;
  return 1;
}

/* The real time of `queue` now, in nanoseconds, or a negative error; the status is set up with a
   macro (alloca). */
static inline long long metronome_seq_queue_nanoseconds(snd_seq_t *seq, int queue) {
  snd_seq_queue_status_t *status;
  snd_seq_queue_status_alloca(&status);
  int error = snd_seq_get_queue_status(seq, queue, status);
  if (error < 0) return error;
  const snd_seq_real_time_t *time = snd_seq_queue_status_get_real_time(status);
  return (long long)time->tv_sec * 1000000000LL + time->tv_nsec;
}

#endif
