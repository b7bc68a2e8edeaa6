#!/bin/sh
# A fuzz target links with unresolved symbols ignored (tests/fuzz/CMakeLists.txt), so a parser
# whose source is missing from the fuzz library would link and jump to address 0 at its first
# call. Every symbol the target's own object calls must be defined in the executable. What those
# call in turn is not checked here (the library's files also call, by design, code that is left
# out): running the corpus, as test-all.sh does, is what catches a missing callee.
# Usage: check-resolved.sh TARGET_OBJECT EXECUTABLE
set -eu
object=$1
executable=$2
defined=$(nm --defined-only "$executable" | awk '{print $3}' | sort -u)
missing=$(nm --undefined-only "$object" | awk '{print $2}' | grep '^_ZN3esf' | sort -u |
  comm -23 - "$(printf '%s\n' "$defined" >"$executable.defined" && echo "$executable.defined")")
rm -f "$executable.defined"
if [ -n "$missing" ]; then
  echo "$executable: calls parsers the fuzz library does not compile:" >&2
  printf '%s\n' "$missing" | c++filt >&2
  exit 1
fi
