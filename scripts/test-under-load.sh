#!/usr/bin/env bash
# The suite as a newcomer meets it on a busy laptop: a fresh clone of this repository's committed
# HEAD into a temporary folder, `npm ci`, then `npm test` N times (default 5) while two bounded
# busy loops (CPU hogs) run beside it. Prints pass/fail, wall time and load average per run and a
# summary line; exits non-zero when any run failed.
#
#   scripts/test-under-load.sh [N]        HOGS=2 (busy loops), HOG_SECONDS (their bound, default
#                                         1800 per run), KEEP=1 keeps the clone and the logs.
set -uo pipefail

runs="${1:-5}"
hogs="${HOGS:-2}"
hog_seconds="${HOG_SECONDS:-1800}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/swapbot-under-load-XXXXXX")"
hog_pids=()

stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null; done
  hog_pids=()
}
finish() {
  stop_hogs
  if [ "${KEEP:-0}" = 1 ]; then echo "under-load: clone and logs kept in $work"; else rm -rf "$work"; fi
}
trap finish EXIT
trap 'exit 130' INT TERM

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load average[s]*: //'; }

echo "under-load: cloning $repo (HEAD $(git -C "$repo" rev-parse --short HEAD)) into $work"
git clone --quiet --no-hardlinks "$repo" "$work/swapbot" || exit 1
cd "$work/swapbot" || exit 1
echo "under-load: npm ci"
npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1 || {
  tail -20 "$work/npm-ci.log"
  exit 1
}

passed=0
for run in $(seq 1 "$runs"); do
  # Each hog is a shell busy loop that stops by itself after hog_seconds, even if this script dies.
  for _ in $(seq 1 "$hogs"); do
    timeout "$hog_seconds" bash -c 'while :; do :; done' &
    hog_pids+=("$!")
  done
  start=$(date +%s)
  load_before=$(load)
  npm test >"$work/run-$run.log" 2>&1
  code=$?
  load_after=$(load)
  stop_hogs
  wall=$(($(date +%s) - start))
  summary=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$work/run-$run.log" | tail -1)
  if [ "$code" = 0 ]; then
    passed=$((passed + 1))
    verdict=PASS
  else
    verdict=FAIL
  fi
  printf 'run %d/%d: %s in %dm%02ds (%s) load %s -> %s, %d busy loops\n' \
    "$run" "$runs" "$verdict" $((wall / 60)) $((wall % 60)) "${summary:-no summary}" "$load_before" "$load_after" "$hogs"
  if [ "$code" != 0 ]; then
    grep -aE '(FAIL|×) ' "$work/run-$run.log" | head -20
  fi
done

echo "under-load: $passed/$runs runs passed on $(nproc) cores beside $hogs busy loops"
[ "$passed" = "$runs" ]
