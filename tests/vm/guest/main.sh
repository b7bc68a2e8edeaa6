#!/usr/bin/env bash
# PID 1 of the guest, in the chroot on the overlaid host root. Sets up the guest (fresh /dev, /tmp,
# debugfs, the guest kernel's modules), loads vkms, vgem and vivid, runs one case script, and
# leaves its exit status, its output and dmesg in the output share. Then powers off.
# $1: the output directory (the 9p share); the runner wrote vm-env.sh there.
set -u
out=$1
chroot_at=$(read -r up _ </proc/uptime && echo "$up")
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

power_off() {
  sync
  umount "$out" 2>/dev/null
  echo o >/proc/sysrq-trigger
  # Wait with a builtin: exec'ing a binary now fails once the 9p device is going down.
  read -r -t 60 _ <>/run/esfvm-wait
}
note() { echo "esfvm: $*" | tee -a "$out/harness.log" >/dev/console; }
uptime_s() {
  local up _
  read -r up _ </proc/uptime
  echo "$up"
}

# shellcheck source=/dev/null
source "$out/vm-env.sh" || { note "cannot read $out/vm-env.sh"; power_off; }

mount -t devpts devpts /dev/pts -o mkdir 2>/dev/null || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; }
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
# /tmp stays the host's /tmp seen through the overlay (writes stay in the guest): a tmpfs would
# hide outputs or cases that live under the host's /tmp.
mount -t tmpfs tmpfs /run
mkfifo /run/esfvm-wait
mount -t debugfs debugfs /sys/kernel/debug
ln -sf /proc/self/fd /dev/fd

# The guest kernel's modules (vkms included, depmod run by prepare.sh) where modprobe looks.
abi=$(uname -r)
mkdir -p "/lib/modules/$abi"
mount --bind "$VM_MODULES_DIR" "/lib/modules/$abi"

load() {
  modprobe "$@" || note "modprobe $* failed"
}
# Order fixes the numbering: vkms is card0 (debugfs dri/0), vgem card1 and renderD128.
load vkms enable_overlay=1 enable_cursor=1 enable_writeback=1
load vgem
load vivid n_devs=1
modules_at=$(uptime_s)
# vivid stamps OSD text (time, counters) on its frames unless this control is 2: stable frames.
for node in /sys/class/video4linux/video*; do
  if grep -q 'vid-cap' "$node/name" 2>/dev/null; then
    v4l2-ctl -d "/dev/$(basename "$node")" -c osd_text_mode=2 || note "setting osd_text_mode on $node failed"
  fi
done
note "boot to case: $(uptime_s) s (chroot at $chroot_at s, modules loaded at $modules_at s); $(ls /dev/dri 2>/dev/null | tr '\n' ' ')$(ls /dev | grep -c '^video') video nodes"

export MESA_SHADER_CACHE_DIR=/run/mesa-shader-cache
export LP_NUM_THREADS=${LP_NUM_THREADS:-2}
cd /tmp
# The guest-side watchdog fires before the host's, so a hung case still leaves dmesg behind:
# what is left of the host's timeout after booting, less a margin for dmesg and power-off.
up=$(uptime_s)
case_timeout=$((VM_HOST_TIMEOUT - ${up%.*} - 10))
[ "$case_timeout" -gt 5 ] || case_timeout=5
timeout -k 3 "$case_timeout" bash "$VM_CASE_SCRIPT" 2>&1 | tee "$out/case.log" >/dev/console
status=${PIPESTATUS[0]}
[ "$status" -eq 124 ] && note "case timed out in the guest after ${case_timeout} s"
note "case '$VM_CASE' exited with $status after $(cut -d' ' -f1 /proc/uptime) s of uptime"
dmesg >"$out/dmesg.txt" 2>&1
echo "$status" >"$out/status"
power_off
