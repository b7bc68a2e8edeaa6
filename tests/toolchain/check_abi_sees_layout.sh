#!/usr/bin/env bash
# toolchain/check-abi fails when a public struct's layout differs from the baseline: the baseline
# given here is the real one with HttpSinkOptions' last member taken out and its size shrunk to
# match (as 0.6's was), which a library built from today's headers breaks. The real baseline
# passes. Usage: check_abi_sees_layout.sh BUILD_DIR
set -euo pipefail
build_dir=$1
cd "$(dirname "$0")/../.."
older=$(mktemp --suffix=.abi)
trap 'rm -f "$older"' EXIT
python3 - abi/libesframe.abi "$older" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
start = text.index("<class-decl name='HttpSinkOptions'")
end = text.index("</class-decl>", start)
block = text[start:end]
members = list(re.finditer(r"\s*<data-member.*?</data-member>", block, re.S))
last = members[-1]
size = int(re.search(r"size-in-bits='(\d+)'", block).group(1))
offset = int(re.search(r"layout-offset-in-bits='(\d+)'", last.group(0)).group(1))
block = block[:last.start()] + block[last.end():]
block = block.replace(f"size-in-bits='{size}'", f"size-in-bits='{offset}'", 1)
open(sys.argv[2], "w").write(text[:start] + block + text[end:])
PY
bash toolchain/check-abi "$build_dir" >/dev/null
if out=$(ESFRAME_ABI_BASELINE=$older bash toolchain/check-abi "$build_dir" 2>&1); then
  echo "FAIL: check-abi passed a library whose HttpSinkOptions grew:" >&2
  echo "$out" >&2
  exit 1
fi
grep -q "breaks the ABI" <<<"$out" && grep -q "HttpSinkOptions" <<<"$out" || {
  echo "FAIL: check-abi failed without naming the break:" >&2
  echo "$out" >&2
  exit 1
}
echo "check-abi passes the baseline and fails a struct grown past it"
