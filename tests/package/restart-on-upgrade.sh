#!/bin/bash
# An upgrade of esframe's packages restarts the running esframe@NAME instances on the new
# binary, leaves stopped ones stopped and keeps the admin's /etc/esframe/*.conf. Needs a running
# systemd, so it runs in two places (tests/package/check-debs.sh):
#   restart-on-upgrade.sh prepare DIR   in the mmdebstrap root (a chroot): installs the packages
#                                       of DIR/old, writes two instances' configs and a unit that
#                                       runs the check at boot
#   restart-on-upgrade.sh check DIR     that unit, in the same root booted with its systemd as
#                                       PID 1 (tests/vm/boot-root.sh); upgrades to DIR/new and
#                                       writes its log and exit status to /esfvm-out
set -uo pipefail
mode=$1 dir=$2
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
instance_packages() { ls "$1"/esframe_*.deb "$1"/libesframe0.*_*.deb; }

if [ "$mode" = prepare ]; then
  set -e
  apt-get install -y -qq --no-install-recommends $(instance_packages "$dir/old") >/dev/null
  mkdir -p /etc/esframe
  for name in cam idle; do
    printf '[run]\nsource = pattern\nsize = 64x48\nfps = 5\nbackend = cpu\n' >/etc/esframe/$name.conf
  done
  cat >/etc/systemd/system/esframe-restart-check.service <<UNIT
[Unit]
Description=esframe packages: an upgrade restarts the running esframe@ instances
[Service]
Type=oneshot
ExecStart=/bin/bash $dir/restart-on-upgrade.sh check $dir
ExecStopPost=/bin/systemctl --no-block poweroff
[Install]
WantedBy=multi-user.target
UNIT
  systemctl enable esframe-restart-check.service
  exit 0
fi

[ "$mode" = check ] || { echo "usage: restart-on-upgrade.sh prepare|check DIR" >&2; exit 2; }
out=/esfvm-out
exec >"$out/check.log" 2>&1
failures=0
fail() { echo "restart-on-upgrade: FAIL: $*"; failures=$((failures + 1)); }
say() { echo "restart-on-upgrade: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }
main_pid() { systemctl show -p MainPID --value "$1"; }
# The instance runs once its main process is esframe (Type=exec) and has printed a frame.
wait_running() {
  local i pid
  for i in $(seq 100); do
    pid=$(main_pid "$1")
    if [ "$pid" != 0 ] && [ "$(systemctl is-active "$1")" = active ] &&
      [ "$(journalctl -q -o cat -u "$1" _PID="$pid" | grep -c '"seq"')" -gt 0 ]; then
      echo "$pid"
      return 0
    fi
    sleep 0.2
  done
  return 1
}
# A process still on the replaced files shows them as "(deleted)".
runs_installed_files() {
  [ "$(readlink "/proc/$1/exe")" = /usr/bin/esframe ] && ! grep -q ' (deleted)$' "/proc/$1/maps"
}

say "systemd $(systemctl --version | head -1), esframe $(dpkg-query -W -f='${Version}' esframe)"
cp /etc/esframe/cam.conf /run/cam.conf.orig
systemctl start esframe@cam.service || fail "systemctl start esframe@cam"
if old_pid=$(wait_running esframe@cam.service); then
  say "esframe@cam runs as PID $old_pid"
  runs_installed_files "$old_pid" || fail "esframe@cam (PID $old_pid) does not run /usr/bin/esframe"
else
  fail "esframe@cam did not start and print a frame in 20 s"
  systemctl status --no-pager esframe@cam.service
fi

# dpkg -i: the maintainer scripts are the same as under apt, whose file method dies of SIGILL
# in the TCG guest.
say "dpkg -i DIR/new: $(instance_packages "$dir/new" | xargs -n1 basename | tr '\n' ' ')"
dpkg -i $(instance_packages "$dir/new") >/dev/null || fail "dpkg -i of the new packages"
new_version=$(dpkg-deb -f "$(ls "$dir"/new/esframe_*.deb)" Version)
[ "$(dpkg-query -W -f='${Version}' esframe)" = "$new_version" ] || fail "esframe not upgraded"
if new_pid=$(wait_running esframe@cam.service); then
  say "esframe@cam runs as PID $new_pid"
  [ "$new_pid" != "${old_pid:-}" ] || fail "esframe@cam was not restarted (still PID $new_pid)"
  runs_installed_files "$new_pid" ||
    fail "esframe@cam (PID $new_pid) still runs replaced files: $(readlink "/proc/$new_pid/exe")"
else
  fail "esframe@cam is not running after the upgrade"
  systemctl status --no-pager esframe@cam.service
fi
[ ! -e "/proc/${old_pid:-0}" ] || fail "the old esframe@cam process ${old_pid:-} is still there"
[ "$(systemctl is-active esframe@idle.service)" = inactive ] ||
  fail "esframe@idle, stopped before the upgrade, is $(systemctl is-active esframe@idle.service)"
cmp /etc/esframe/cam.conf /run/cam.conf.orig || fail "the upgrade changed /etc/esframe/cam.conf"
systemctl stop esframe@cam.service
journalctl -q --no-pager -o short-monotonic -u esframe@cam.service | grep -v '"seq"' || true
say "$([ $failures = 0 ] && echo passed || echo "$failures failures")"
echo $((failures > 0)) >"$out/status"
