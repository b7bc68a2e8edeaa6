# The QEMU command line both runners boot with (sourced by run-vm.sh and boot-root.sh).
#   boot_qemu TIMEOUT_S OUT CACHE APPEND [QEMU ARGS...]   (the args come before the output share,
#   as run-vm.sh always gave them)
# Serial console to OUT/console.log, QEMU's own output to OUT/qemu.log; returns QEMU's status
# (124 or 137 when the host killed it at the timeout). --foreground keeps QEMU in the caller's
# process group, so a caller that stops its group (test-all.sh's background lanes, ctest) stops
# QEMU too; QEMU has no children for timeout to reach.
# -cpu avx2=off: QEMU 7.2's TCG AVX2 emulation breaks llvmpipe's JIT code. With it on, every GPU
# path in the guest saw a uniform frame (all pixels equal to the first: 1 bin per channel) for
# still-image and pattern sources, on gbm and surfaceless alike; with it off the same runs
# give the host's 255-256 bins. llvmpipe then uses its SSE4 code, which TCG runs correctly.
# cryptomgr.notests: the kernel's crypto self-tests are nothing the cases use, and one of them
# once spun under TCG from the first second of a boot until the host killed QEMU at 900 s
# (soft lockups in cryptomgr_test on the console, 2 cores of a Zen 5 host).
boot_qemu() {
  local timeout_s=$1 out=$2 cache=$3 append=$4
  shift 4
  timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 \
    -accel tcg -cpu max,avx2=off -smp "${ESFRAME_VM_CPUS:-2}" -m "${ESFRAME_VM_MEMORY:-2048}" \
    -nodefaults -no-user-config -display none -no-reboot \
    -serial "file:$out/console.log" \
    -kernel "$cache/vmlinux" -initrd "$cache/initramfs.cpio.gz" \
    -append "console=ttyS0 panic=-1 loglevel=4 cryptomgr.notests ${ESFRAME_VM_APPEND-} $append" \
    "$@" -virtfs "local,path=$out,mount_tag=vmout,security_model=none,multidevs=remap" \
    >"$out/qemu.log" 2>&1
}
