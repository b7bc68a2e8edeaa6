#!/usr/bin/env bash
# PID 1 of the guest, in the chroot on the overlaid host root, after guest/init mounted everything
# and loaded vkms, vgem and vivid. Runs one case script and leaves its exit status, its output
# and dmesg in the output share, then powers off. Few execs: each costs much under TCG.
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
for node in /sys/class/video4linux/video*; do
  read -r name <"$node/name"
  if [[ $name == *vid-cap* ]]; then
    v4l2-ctl -d "/dev/${node##*/}" -c osd_text_mode=2 || note "setting osd_text_mode on $node failed"
  fi
done
dri=(/dev/dri/*)
video=(/dev/video*)
note "boot to case: $(uptime_s) s (chroot at $chroot_at s); ${dri[*]##*/}; ${#video[@]} video nodes"

export MESA_SHADER_CACHE_DIR=/run/mesa-shader-cache
export LP_NUM_THREADS=${LP_NUM_THREADS:-2}
cd /tmp || cd /
# The guest-side watchdog fires before the host's, so a hung case still leaves dmesg behind:
# what is left of the host's timeout after booting, less a margin for dmesg and power-off.
up=$(uptime_s)
case_timeout=$((VM_HOST_TIMEOUT - ${up%.*} - 10))
[ "$case_timeout" -gt 5 ] || case_timeout=5
timeout -k 3 "$case_timeout" bash "$VM_CASE_SCRIPT" 2>&1 | tee "$out/case.log" >/dev/console
status=${PIPESTATUS[0]}
[ "$status" -eq 124 ] && note "case timed out in the guest after ${case_timeout} s"
note "case '$VM_CASE' exited with $status after $(uptime_s) s of uptime"
dmesg >"$out/dmesg.txt" 2>&1
echo "$status" >"$out/status"
power_off
