#!/usr/bin/env bash
# On the device (bash .devrun/http_snapshot.sh after bundle.sh): whether `--output http` alone
# serves /frame.jpg on the GPU path, where NVIDIA's defaults import packed when no output reads
# the processed image; for .devrun/esframe and, where it exists, .devrun/before/esframe (an
# earlier build copied in by hand). Prints each one's status line and the first frame's stages.
set -uo pipefail
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
export XDG_CACHE_HOME=/tmp/esf-cache
export ESFRAME_MODULE_DIR=$PWD/.devrun/lib  # libesframe-http.so: the bundle keeps modules there
# A GET over bash's /dev/tcp (the device image has no curl): the status line.
status_of() {
  local line
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  IFS= read -r -t 10 line <&3
  exec 3>&-
  echo "${line%$'\r'}"
}
port=18931
for bin in .devrun/before/esframe .devrun/esframe; do
  [ -x "$bin" ] || continue
  for extra in "" ",snapshot-every=0"; do
    # $! is esframe itself: the loader runs it in its own process.
    "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" "$bin" --egl device run \
      --backend gles --source pattern --size 1280x720 --fps 10 --frames 100 --output jsonl \
      --output "http:$port$extra" >/tmp/http.jsonl 2>/tmp/http.err &
    pid=$!
    for _ in $(seq 50); do [ -s /tmp/http.jsonl ] && break; sleep 0.1; done
    sleep 0.5
    echo "$bin http:$port$extra: /frame.jpg: $(status_of $port /frame.jpg)," \
      "/graph.png: $(status_of $port /graph.png)"
    head -n 1 /tmp/http.jsonl | grep -ao '"timing_ms":{[^}]*}'
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    echo "  exit $?; stderr: $(head -c 300 /tmp/http.err)"
    port=$((port + 1))
  done
done
