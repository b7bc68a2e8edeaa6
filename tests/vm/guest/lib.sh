# Helpers for guest case scripts (source "$VM_LIB"). Checks record failures and go on, so one
# boot reports everything; `finish` turns the count into the exit status.
# shellcheck shell=bash

vm_failures=0

fail() {
  vm_failures=$((vm_failures + 1))
  echo "FAIL: $*"
}

pass() { echo "ok: $*"; }

# Guest uptime, to time each step in case.log.
vm_uptime() {
  local up _
  read -r up _ </proc/uptime
  echo "$up"
}

# check <description> <command...>
check() {
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what (command: $*)"; fi
}

# esf <name> <esframe args...>: stdout to $VM_OUT/<name>.out, stderr to $VM_OUT/<name>.err.
esf() {
  local name=$1
  shift
  echo "run [$(vm_uptime) s]: esframe $*"
  "$ESFRAME" "$@" >"$VM_OUT/$name.out" 2>"$VM_OUT/$name.err"
}

show_stderr() {
  sed 's/^/  stderr: /' "$VM_OUT/$1.err" | head -20
}

# expect_exit <code> <name> <esframe args...>
expect_exit() {
  local want=$1 name=$2
  shift 2
  esf "$name" "$@"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    pass "$name: esframe exited with $want"
  else
    fail "$name: esframe exited with $got, expected $want"
    show_stderr "$name"
  fi
}

# expect_ok <name> <esframe args...>
expect_ok() { expect_exit 0 "$@"; }

# expect_one_line_error <name> <extended regex>: stderr of that run is one line that matches.
expect_one_line_error() {
  local name=$1 pattern=$2 err="$VM_OUT/$1.err"
  local lines
  lines=$(grep -c '' "$err")
  if [ "$lines" -ne 1 ]; then
    fail "$name: expected one line on stderr, got $lines"
    show_stderr "$name"
  elif ! grep -Eq -- "$pattern" "$err"; then
    fail "$name: stderr '$(cat "$err")' does not match /$pattern/"
  else
    pass "$name: error '$(cat "$err")'"
  fi
}

# expect_json <name> <jq filter>: $VM_OUT/<name>.out is JSON and the filter yields true.
expect_json() {
  local name=$1 filter=$2
  if jq -e "$filter" "$VM_OUT/$name.out" >/dev/null 2>"$VM_OUT/$name.jq.err"; then
    pass "$name: $filter"
  else
    fail "$name: not true: $filter"
  fi
}

# expect_grep <name> <extended regex>: a line of $VM_OUT/<name>.out matches.
expect_grep() {
  local name=$1 pattern=$2
  if grep -Eq -- "$pattern" "$VM_OUT/$name.out"; then
    pass "$name: output has /$pattern/"
  else
    fail "$name: no line of output matches /$pattern/"
  fi
}

# run_gtest <binary> [gtest args...]: a GoogleTest binary of the build, on GBM over the render
# node unless ESFRAME_TEST_EGL / ESFRAME_TEST_DRM_DEVICE say otherwise.
run_gtest() {
  local bin=$1
  shift
  local device=${ESFRAME_TEST_DRM_DEVICE:-/dev/dri/renderD128}
  local name
  name=$(basename "$bin")-$(basename "$device")
  if [ ! -x "$bin" ]; then
    fail "$name: test binary '$bin' not found (not built?)"
    return
  fi
  echo "run [$(vm_uptime) s]: $name $* (EGL ${ESFRAME_TEST_EGL:-gbm} on $device)"
  if ESFRAME_TEST_EGL=${ESFRAME_TEST_EGL:-gbm} ESFRAME_TEST_DRM_DEVICE=$device \
    "$bin" --gtest_output="xml:$VM_OUT/$name.xml" "$@" >"$VM_OUT/$name.log" 2>&1; then
    local passed
    passed=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$VM_OUT/$name.log")
    # A filter that matches nothing passes in gtest; here it is a failure.
    case "$passed" in
      '' | *' 0 tests'*) fail "$name ran no tests ($*)" ;;
      *) pass "$name: $passed" ;;
    esac
  else
    fail "$name failed"
    grep -E '^\[  FAILED  \]|Failure|error' "$VM_OUT/$name.log" | head -30 | sed 's/^/  /'
  fi
}

finish() {
  echo "done [$(vm_uptime) s]"
  if [ "$vm_failures" -eq 0 ]; then
    echo "case $VM_CASE: all checks passed"
    exit 0
  fi
  echo "case $VM_CASE: $vm_failures check(s) failed"
  exit 1
}
