#!/usr/bin/env bash
# PID 1 of the guest, in the chroot on the overlaid host root, after guest/init mounted everything
# and loaded vkms, vgem and vivid. Runs the boot's case scripts one after another and leaves their
# exit statuses, their output and dmesg in the output share, then powers off. Few execs: each costs much under TCG.
# $1: the output directory (the 9p share); the runner wrote vm-env.sh there.
set -u
out=$1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

uptime_s() {
  local up _
  read -r up _ </proc/uptime
  echo "$up"
}
note() { echo "esfvm: $*" | tee -a "$out/harness.log" >/dev/console; }
power_off() {
  sync
  umount "$out" 2>/dev/null
  echo o >/proc/sysrq-trigger
  # Wait with a builtin: exec'ing a binary now fails once the 9p device is going down.
  read -r -t 60 _ <>/run/esfvm-wait
}
chroot_at=$(uptime_s)

# shellcheck source=/dev/null
source "$out/vm-env.sh" || { note "cannot read $out/vm-env.sh"; power_off; }

# vivid stamps OSD text (time, counters) on its frames unless this control is 2: stable frames.
set_osd_text_mode() {
  local node name
  for node in /sys/class/video4linux/video*; do
    read -r name <"$node/name"
    if [[ $name == *vid-cap* ]]; then
      v4l2-ctl -d "/dev/${node##*/}" -c osd_text_mode=2 || note "setting osd_text_mode on $node failed"
    fi
  done
}
set_osd_text_mode
dri=(/dev/dri/*)
video=(/dev/video*)
note "boot to case: $(uptime_s) s (chroot at $chroot_at s); ${dri[*]##*/}; ${#video[@]} video nodes"

export MESA_SHADER_CACHE_DIR=/run/mesa-shader-cache
# The shaders earlier boots of this name compiled (run-vm.sh keeps them; one cp, not one per file).
if [ -n "${VM_SHADER_CACHE_KEPT:-}" ] && [ -d "$VM_SHADER_CACHE_KEPT" ]; then
  cp -a "$VM_SHADER_CACHE_KEPT" "$MESA_SHADER_CACHE_DIR" || note "copying the kept shader cache failed"
fi
export LP_NUM_THREADS=${LP_NUM_THREADS:-2}
cd /tmp || cd /

# A boot runs its cases one after another (VM_CASE_SCRIPTS), each with its own output folder
# ($out/<case>/ when the boot has several cases), status and log. Between cases vivid is loaded
# again with the harness's parameters, since a case may reload or unbind it.
reset_vivid() {
  modprobe -r vivid && modprobe vivid n_devs=1 || note "reloading vivid failed"
  set_osd_text_mode
}
# Cases write their scratch files under /tmp by fixed names: what a case leaves there is removed
# before the next one, so cases that share a boot see the /tmp they would see alone.
# No process per entry: a case can leave thousands of files, and a fork costs milliseconds under TCG.
declare -A tmp_before=()
for entry in /tmp/* /tmp/.[!.]*; do
  [ -e "$entry" ] && tmp_before[$entry]=1
done
clean_tmp() {
  local entry left=()
  for entry in /tmp/* /tmp/.[!.]*; do
    [ -e "$entry" ] && [ -z "${tmp_before[$entry]:-}" ] && left+=("$entry")
  done
  [ ${#left[@]} -eq 0 ] || rm -rf -- "${left[@]}"
}
read -r -a scripts <<<"$VM_CASE_SCRIPTS"
group_status=0
first=1
for script in "${scripts[@]}"; do
  name=$(basename "$script" .sh)
  case_out=$out
  if [ ${#scripts[@]} -gt 1 ]; then
    case_out=$out/$name
    mkdir -p "$case_out"
    [ $first = 1 ] || { reset_vivid; clean_tmp; }
  fi
  first=0
  # The guest-side watchdog fires before the host's, so a hung case still leaves dmesg behind:
  # what is left of the host's timeout, less a margin for dmesg and power-off, and at most the
  # case's own "# vm-timeout:" (the runner passes it in VM_CASE_TIMEOUTS).
  up=$(uptime_s)
  case_timeout=$((VM_HOST_TIMEOUT - ${up%.*} - 10))
  own=$(awk -v n="$name" '$1 == n { print $2 }' <<<"${VM_CASE_TIMEOUTS//;/$'\n'}")
  [ -n "$own" ] && [ "$own" -lt "$case_timeout" ] && case_timeout=$own
  [ "$case_timeout" -gt 5 ] || case_timeout=5
  note "case '$name' starts at $(uptime_s) s"
  VM_CASE=$name VM_OUT=$case_out timeout -k 3 "$case_timeout" bash "$script" 2>&1 |
    tee "$case_out/case.log" >/dev/console
  status=${PIPESTATUS[0]}
  [ "$status" -eq 124 ] && note "case '$name' timed out in the guest after ${case_timeout} s"
  note "case '$name' exited with $status after $(uptime_s) s of uptime"
  [ ${#scripts[@]} -gt 1 ] && echo "$status" >"$case_out/status"
  [ "$group_status" -ne 0 ] || group_status=$status
done
dmesg >"$out/dmesg.txt" 2>&1
if [ -n "${VM_SHADER_CACHE_KEPT:-}" ] && [ -d "$MESA_SHADER_CACHE_DIR" ]; then
  cp -a "$MESA_SHADER_CACHE_DIR" "$out/mesa-shader-cache" || note "handing back the shader cache failed"
fi
echo "$group_status" >"$out/status"
power_off
