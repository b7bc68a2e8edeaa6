#!/usr/bin/env bash
# Every board report in bench/boards/ (and any given as arguments) against
# docs/board-report.schema.json, with python3-jsonschema (tests/support/validate_json.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shopt -s nullglob
reports=("$root"/bench/boards/*.json "$@")
[ ${#reports[@]} -gt 0 ] || { echo "check-reports: no report to check" >&2; exit 1; }
for report in "${reports[@]}"; do
  "$root/tests/support/validate_json.py" "$root/docs/board-report.schema.json" "$report" \
    --with "$root/docs/selftest-report.schema.json"
  echo "ok: $(basename "$report")"
done
