#!/usr/bin/env bash
# The CPU executor against its peers on this machine (issue 13's targets):
#   1. esframe-bench-cpu: histogram R+G+B+L, blur 15, resize to half size (area) on the 1080p
#      bench photo, each against OpenCV in the same run;
#   2. end to end over a 60-frame 1080p 4:2:0 Y4M (made here by ffmpeg's testsrc2):
#      `esframe run` (default: R+G+B+L + stats, JSONL) and `esframe run --histogram channels=l
#      --luma source` against `ffmpeg -vf signalstats`, median of 3 runs each.
# Usage: bench/cpu-vs-peers.sh [BUILD_DIR]   (default build/default; needs setup-debian.sh bench)
# Prints a Markdown report with `uptime` (the load matters: measure on an idle machine).
set -euo pipefail
build=${1:-build/default}
esframe=$build/esframe
for tool in "$esframe" "$build/esframe-bench-cpu"; do
  [ -x "$tool" ] || { echo "cpu-vs-peers.sh: $tool is not built" >&2; exit 2; }
done
command -v ffmpeg >/dev/null || { echo "cpu-vs-peers.sh: ffmpeg missing (setup-debian.sh bench)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# CPU executor vs peers, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- machine: $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
echo "- command: bench/cpu-vs-peers.sh $build"
"$build/esframe-bench-cpu"

clip=$work/clip.y4m
ffmpeg -loglevel error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 60 -pix_fmt yuv420p \
  "$clip"

# Median wall seconds of 3 runs of "$@" (stdout to /dev/null).
median_s() {
  local times=()
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n 2p
}

ffmpeg_s=$(median_s ffmpeg -loglevel error -i "$clip" -vf signalstats -f null -)
default_s=$(median_s "$esframe" run --source "$clip")
luma_s=$(median_s "$esframe" run --source "$clip" --histogram channels=l --luma source)
fps() { awk -v s="$1" 'BEGIN { printf "%.1f", 60 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo
echo "## End to end: 60 frames of 1080p 4:2:0 Y4M (ffmpeg testsrc2), median of 3 runs"
echo
echo "| command | s | fps | fps vs ffmpeg signalstats |"
echo "|---|---|---|---|"
echo "| ffmpeg -vf signalstats -f null | $ffmpeg_s | $(fps "$ffmpeg_s") | 1.00x |"
echo "| esframe run (default: auto backend, R+G+B+L + stats, JSONL) | $default_s | $(fps "$default_s") | $(ratio "$ffmpeg_s" "$default_s")x |"
echo "| esframe run --histogram channels=l --luma source | $luma_s | $(fps "$luma_s") | $(ratio "$ffmpeg_s" "$luma_s")x |"
echo
echo "- load after: $(uptime | sed 's/.*load average: //')"
