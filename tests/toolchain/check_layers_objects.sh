#!/usr/bin/env bash
# toolchain/check-layers --objects fails on what #includes cannot show, and passes the same code
# the right way up. A fake build folder in the tree's shape (a build.ninja naming objects of the
# base and core/pipeline OBJECT libraries), each object compiled here from a few lines:
#   1. base calls a function that core/pipeline defines: fails, naming both files;
#   2. core/pipeline calls a function that base defines: passes;
#   3. core/pipeline defines esf::formatName, which include/esframe/frame.hpp (base) declares:
#      fails, naming the header and the definition;
#   4. base defines it: passes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# object LAYER_FOLDER TARGET NAME SOURCE_TEXT: compiles one object and names it in build.ninja.
object() {
  local folder=$1 target=$2 name=$3
  mkdir -p "$work/src/$folder" "$work/build/$folder/CMakeFiles/$target.dir"
  printf '%s\n' "$4" >"$work/src/$folder/$name.cpp"
  "$cxx" -std=c++20 -g -c -fvisibility=hidden "$work/src/$folder/$name.cpp" \
    -o "$work/build/$folder/CMakeFiles/$target.dir/$name.cpp.o"
  echo "build $folder/CMakeFiles/$target.dir/$name.cpp.o: CXX_COMPILER__$target $work/src/$folder/$name.cpp" \
    >>"$work/build/build.ninja"
}

# expect STATUS PATTERN: runs the check on the fake build; its exit status and a line must match.
expect() {
  local want=$1 pattern=$2 status=0 out
  out=$(python3 "$root/toolchain/check-layers" --objects "$work/build") || status=$?
  if [ "$status" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "check_layers_objects: expected exit $want and a line matching: $pattern" >&2
    echo "got exit $status:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok (exit $status): $(grep -E -- "$pattern" <<<"$out" | head -1)"
}

fresh() { rm -rf "$work/src" "$work/build" && mkdir -p "$work/build" && : >"$work/build/build.ninja"; }

use='namespace esf { int plantedHelper(); int plantedCaller() { return plantedHelper() + 1; } }'
definition='namespace esf { int plantedHelper() { return 41; } }'

fresh
object base esframe_base planted_caller "$use"
object core/pipeline esframe_pipeline planted_helper "$definition"
expect 1 "planted_caller\.cpp:1 \(base\) uses esf::plantedHelper\(\), defined in .*core/pipeline/planted_helper\.cpp:1 \(core/pipeline\): runs up the stack"

fresh
object core/pipeline esframe_pipeline planted_caller "$use"
object base esframe_base planted_helper "$definition"
expect 0 "0 upward or undeclared"

exported='namespace esf { enum class PixelFormat { kRGBA32 };
__attribute__((visibility("default"))) const char* formatName(PixelFormat) { return "RGBA32"; } }'

fresh
object core/pipeline esframe_pipeline planted_format_name "$exported"
expect 1 "include/esframe/frame\.hpp \(base\) declares esf::formatName\(esf::PixelFormat\), defined in .*core/pipeline/planted_format_name\.cpp:2 \(core/pipeline\): a definition above its declaration"

fresh
object base esframe_base planted_format_name "$exported"
expect 0 "1 public definitions, 0 upward or undeclared"
