#!/usr/bin/env bash
# vm-timeout: 300
# vm-seconds: 32
# vm-boot: vivid
# Camera health on a real camera driver: vivid's picture is driven while esframe runs with
# --health and --output mqtt to a mosquitto broker in the guest. A moving picture, then vivid's
# "100% Black" pattern: black_start (and the black picture is frozen too); moving bars again:
# black_end and freeze_end; then the movement set to none: freeze_start. The retained state on
# TOPIC/health follows: ok, black, ok, frozen.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

select_input 0
ctl() { v4l2-ctl -d /dev/video0 -c "$1" >/dev/null || fail "v4l2-ctl cannot set $1"; }
# The menu index of vivid's black pattern, by its name (the list differs between kernels).
black=$(v4l2-ctl -d /dev/video0 -L | sed -n 's/^[[:space:]]*\([0-9]*\): 100% Black$/\1/p' | head -1)
check "vivid offers a 100% Black test pattern" test -n "$black"
ctl horizontal_movement=6  # move right, fast

# The guest starts with its loopback interface down: the broker listens on 127.0.0.1.
ip link set lo up || fail "cannot bring the loopback interface up"
port=18830
conf=/tmp/mosquitto-health.conf
printf 'listener %s 127.0.0.1\nallow_anonymous true\nuser root\n' "$port" >"$conf"
mosquitto -c "$conf" >"$VM_OUT/mosquitto.log" 2>&1 &
broker=$!
for _ in $(seq 100); do mosquitto_pub -p "$port" -t probe -m x 2>/dev/null && break; sleep 0.1; done
mosquitto_sub -p "$port" -t 'esf/cam/health' -t 'esf/cam/events' -v >"$VM_OUT/mqtt.txt" &
sub=$!
sleep 1

# The camera runs at its own pace (a frame about every 200 ms under TCG): the picture changes
# after so many lines, 1 s of black and of stillness is the minimum.
"$ESFRAME" run --backend cpu --source /dev/video0 --format YUYV --size 320x180 --io mmap \
  --frames 60 --histogram bins=16,channels=l \
  --health=black_min_duration=1,freeze_duration=1,threshold=100 --output jsonl \
  --output "mqtt://127.0.0.1:$port/esf/cam" >"$VM_OUT/health.out" 2>"$VM_OUT/health.err" &
pid=$!
lines() { grep -c '"seq"' "$VM_OUT/health.out"; }
wait_lines() {
  for _ in $(seq 1200); do
    [ "$(lines)" -ge "$1" ] && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
wait_lines 10 && ctl "test_pattern=$black"
wait_lines 30 && ctl test_pattern=0
wait_lines 40 && ctl horizontal_movement=3  # no movement
wait "$pid"
check "esframe exited 0" test $? -eq 0
sleep 2
kill "$sub" "$broker" 2>/dev/null
wait 2>/dev/null

events=$(jq -r 'select(.event) | .event' "$VM_OUT/health.out" | paste -sd' ')
echo "events: $events"
check "black_start, then black_end, then a freeze_start after it" \
  sh -c "echo '$events' | grep -q 'black_start.*black_end.*freeze_start'"
check "the black interval's frames were black pictures" \
  test "$(jq -s '[.[] | select(.health.black_picture)] | length' "$VM_OUT/health.out")" -ge 5
check "every event went to TOPIC/events" \
  test "$(grep -c '^esf/cam/events ' "$VM_OUT/mqtt.txt")" -eq "$(jq -s '[.[] | select(.event)] | length' "$VM_OUT/health.out")"
states=$(sed -n 's/^esf\/cam\/health //p' "$VM_OUT/mqtt.txt" | paste -sd' ')
echo "states: $states"
# (A black picture is frozen as well: where the freeze is found a frame before the black
# interval's minimum is reached, "frozen" comes first.)
check "TOPIC/health followed the picture: ok, black, ok, frozen" \
  sh -c "echo '$states' | grep -Eq '^ok (frozen )?black ok frozen$'"
ctl horizontal_movement=3
finish
