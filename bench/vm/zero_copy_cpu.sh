#!/usr/bin/env bash
# vm-timeout: 900
# A benchmark, not a test (not under tests/vm/cases/, never in CI): the host CPU time per frame
# of capture from vivid through the GPU path, mmap + upload against zero-copy dmabuf (GBM buffers
# on vgem queued as V4L2_MEMORY_DMABUF, imported into EGL). Under TCG the wall time means
# nothing, the CPU time per frame still compares the two paths' work: the closing line of
# `esframe -v run` (the process's user + system time after the first frame, and the part of it
# on the thread that runs the pipeline: llvmpipe runs the shaders on threads of its own, which
# on a board are the GPU's work, and under emulation they drown the copy zero-copy saves). Both on the GPU
# (llvmpipe here): --backend auto would take the CPU executor for mmap frames on llvmpipe. Runs alternate,
# $ZC_RUNS of each (default 2), $ZC_FRAMES frames a run (default 16); case.log has the table.
#   bash tests/vm/prepare.sh ... (once; ctest -L vm does it), then
#   bash tests/vm/run-vm.sh --esframe build/default/esframe --build-dir build/default \
#     --out /tmp/zero-copy-cpu --timeout 900 bench/vm/zero_copy_cpu.sh
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"
runs=${ZC_RUNS:-2}
frames=${ZC_FRAMES:-16}
check "vgem has a card node" test -n "$vgem_card"
# The number before a phrase of the closing line of `esframe -v run`.
figure() { grep -o "$1" "$2" | cut -d' ' -f1; }
# That number from each run of FORMAT SIZE IO, space-separated.
runs_of() { for f in "$VM_OUT"/cpu-"$1"-"$2"-"$3"-*.err; do figure "$4" "$f"; done | paste -sd' '; }
for fmt_size in "YUYV 640x480" "NV12 640x480" "YUYV 1280x720"; do
  set -- $fmt_size
  fmt=$1 size=$2
  select_input 3
  for i in $(seq "$runs"); do
    for io in mmap dmabuf; do
      name="cpu-$fmt-$size-$io-$i"
      # shellcheck disable=SC2046
      expect_ok "$name" -v $(egl_for "$io") run --backend gles --source /dev/video0 \
        --format "$fmt" --size "$size" --io "$io" --frames "$frames" --histogram channels=rgbl --output jsonl
      ms=$(figure '[0-9.]* ms of CPU per frame' "$VM_OUT/$name.err")
      thread_ms=$(figure '[0-9.]* ms of it on the thread' "$VM_OUT/$name.err")
      # A zero-copy frame has no "upload" among its timings (no host copy into GL).
      zero=$(($(grep -c '"seq"' "$VM_OUT/$name.out") - $(grep -c '"upload"' "$VM_OUT/$name.out")))
      echo "row: $fmt $size $io run $i: ${ms:-none} ms CPU per frame, ${thread_ms:-none} on the" \
        "pipeline's thread, $zero of $frames frames zero-copy"
      check "$name: a CPU time per frame" test -n "$ms"
      check "$name: the pipeline thread's CPU time per frame" test -n "$thread_ms"
      [ "$io" = dmabuf ] && check "$name: every frame zero-copy" test "$zero" -eq "$frames"
    done
  done
done
echo "| format | size | io | CPU ms per frame, process (each run) | of it on the pipeline's thread |"
echo "|---|---|---|---|---|"
for fmt_size in "YUYV 640x480" "NV12 640x480" "YUYV 1280x720"; do
  set -- $fmt_size
  for io in mmap dmabuf; do
    list=$(runs_of "$1" "$2" "$io" '[0-9.]* ms of CPU per frame')
    thread_list=$(runs_of "$1" "$2" "$io" '[0-9.]* ms of it on the thread')
    echo "| $1 | $2 | $io | $list | $thread_list |"
  done
done
finish
