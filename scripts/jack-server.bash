# A JACK dummy server for a benchmark script, sourced by it: start_jackd NAME PERIOD [OPTION...]
# starts one under a name of its own (exported as JACK_DEFAULT_SERVER; OPTIONs go to jackd, such
# as --no-realtime; what it prints goes to $JACKD_LOG when that is set) and waits until it runs;
# stop_jackd stops it by process id and removes what it
# left. JACK's shared memory (its registry and segments) outlives the servers that made it:
# whatever of it was there when this file was sourced is left as it was, whatever came since is
# removed.
jackd_pid=""
jack_files=(/dev/shm/jack-shm-registry /dev/shm/jack-0-0 /dev/shm/jack-0-1 /dev/shm/jack_db-0)
found=()
for file in "${jack_files[@]}"; do [ -e "$file" ] && found+=("$file"); done

start_jackd() { # name, period in frames, options for jackd
  export JACK_DEFAULT_SERVER=$1
  jackd "${@:3}" -n "$JACK_DEFAULT_SERVER" -d dummy -r 48000 -p "$2" >"${JACKD_LOG:-/dev/null}" 2>&1 &
  jackd_pid=$!
  jack_wait -s "$JACK_DEFAULT_SERVER" -w -t 10 >/dev/null 2>&1
}

registered() { # server name: whether JACK's registry still lists it
  [ -e /dev/shm/jack-shm-registry ] && strings -n 3 /dev/shm/jack-shm-registry | grep -qxF "jack-0:$1:"
}

stop_jackd() {
  if [ -n "$jackd_pid" ]; then
    # jackd ends with the status of the signal that stopped it, which is not a failure here.
    kill "$jackd_pid" 2>/dev/null || true
    wait "$jackd_pid" 2>/dev/null || true
    jackd_pid=""
    # A server that died rather than exited leaves its name in the registry, which holds eight
    # servers and frees a name only for a new server of that name: start one, and stop it (the
    # first may fail on what the dead one left, and clear it).
    for _ in 1 2 3; do
      registered "$JACK_DEFAULT_SERVER" || break
      jackd --no-realtime -n "$JACK_DEFAULT_SERVER" -d dummy -r 48000 >/dev/null 2>&1 &
      local reclaimer=$!
      jack_wait -s "$JACK_DEFAULT_SERVER" -w -t 5 >/dev/null 2>&1 || true
      kill -INT "$reclaimer" 2>/dev/null || true
      wait "$reclaimer" 2>/dev/null || true
    done
    # Only when no other server (another script's, or the tests') still uses them.
    if ! pgrep -x jackd >/dev/null; then
      for file in "${jack_files[@]}"; do
        [[ " ${found[*]} " = *" $file "* ]] || rm -rf "$file"
      done
    fi
    # A client still connected when its server went away leaves semaphores named for the server.
    rm -f /dev/shm/jack_sem.*_"$JACK_DEFAULT_SERVER"_* /dev/shm/jack_"$JACK_DEFAULT_SERVER"_*
  fi
}
