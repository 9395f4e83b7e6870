#!/usr/bin/env bash
# The engine against an earlier build, side by side in one run: builds the
# release binary of this checkout and of REV, runs both builds' `zohn-ahl
# simulate` on the same rulesets, seed and number of games, alternating
# between them, and prints each build's throws per CPU second and the ratio
# new/old. A loss of speed shows as a ratio below 1.
#
#   scripts/engine-compare.sh              # against ENGINE_BASELINE (624809b)
#   scripts/engine-compare.sh main         # against another commit, branch or tag
#   RUNS=5 GAMES=100000 scripts/engine-compare.sh
#
# CPU time is the process's user + system time (bash's `time`), so other work
# on the machine costs less than it would by the wall clock; runs alternate
# old/new, then new/old, so a change in the machine's load falls on both.
# Each ruleset's summary (throws, wins, every tally) must be the same for both
# builds: the engine's behaviour is unchanged; the script says when it is not.
#
# REV's binary is built once, in a throw-away worktree with its own target
# directory ($TARGET/engine-compare/<commit>), and kept there as
# $TARGET/engine-compare/zohn-ahl-<commit> for the next run (TARGET is
# CARGO_TARGET_DIR, or target). REV needs `simulate --json` with the summary's
# `total_throws` (624809b has them). Never part of `cargo test` or CI: it
# only measures and reports.
set -euo pipefail
cd "$(dirname "$0")/.."

# The build the engine is held against: the last build measured before the
# rules became a crate of their own (issue 24, point 7).
ENGINE_BASELINE=${ENGINE_BASELINE:-624809b}
REV=${1:-$ENGINE_BASELINE}
RUNS=${RUNS:-3}
GAMES=${GAMES:-200000}
SEED=${SEED:-perf}
# Rulesets, one set of `simulate` flags each, separated by ';'.
CASES=${CASES:-"--preset ludii --counters-per-side 4;--preset composite"}
TARGET=${CARGO_TARGET_DIR:-target}
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac

commit=$(git rev-parse --verify "$REV^{commit}")
short=${commit:0:9}
cache="$TARGET/engine-compare"
old_bin="$cache/zohn-ahl-$short"
mkdir -p "$cache"
tmp=$(mktemp -d)
cleanup() {
    if [ -d "$tmp/src" ]; then git worktree remove --force "$tmp/src" || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

if [ ! -x "$old_bin" ]; then
    echo "== building $REV ($short) in a throw-away worktree" >&2
    git worktree add --quiet --detach "$tmp/src" "$commit"
    (cd "$tmp/src" && CARGO_TARGET_DIR="$cache/target-$short" cargo build --release --quiet --bin zohn-ahl)
    cp "$cache/target-$short/release/zohn-ahl" "$old_bin"
fi
echo "== building this checkout ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ', with changes'))" >&2
CARGO_TARGET_DIR="$TARGET" cargo build --release --quiet --bin zohn-ahl
new_bin="$TARGET/release/zohn-ahl"

# The summary of `simulate --json` (pretty-printed) as one sorted line per
# value, each named by its path (summary.throws.median=130), so that builds
# that write the keys in another order compare equal.
summary_of() {
    awk '
        /^  "summary": \{/ { on = 1; depth = 0 }
        !on { next }
        {
            line = $0
            sub(/^ +/, "", line)
            sub(/,$/, "", line)
            if (line ~ /^"[^"]*": [{[]$/) {
                key = line
                sub(/^"/, "", key)
                sub(/": .*$/, "", key)
                path[++depth] = key
                n[depth] = 0
                next
            }
            if (line ~ /^[]}]$/) {
                depth--
                if (depth == 0) exit
                next
            }
            prefix = path[1]
            for (i = 2; i <= depth; i++) prefix = prefix "." path[i]
            if (line ~ /^"[^"]*": /) {
                key = line
                sub(/^"/, "", key)
                sub(/": .*$/, "", key)
                value = line
                sub(/^"[^"]*": /, "", value)
                print prefix "." key "=" value
            } else {
                print prefix "[" n[depth]++ "]=" line
            }
        }' "$1" | sort
}

# run BIN FLAGS...: prints "throws cpu_seconds" and leaves the summary in $tmp/summary.
run() {
    local bin=$1
    shift
    local TIMEFORMAT='%3U %3S'
    { time "$bin" simulate "$@" --games "$GAMES" --seed "$SEED" --json > "$tmp/out.json"; } 2> "$tmp/time"
    summary_of "$tmp/out.json" > "$tmp/summary"
    local throws
    throws=$(awk -F= '$1 == "summary.total_throws" { print $2 }' "$tmp/summary")
    awk -v t="$throws" '{ print t, $1 + $2 }' "$tmp/time"
}

per_cpu() { awk -v t="$1" -v c="$2" 'BEGIN { printf "%.2f", t / c / 1e6 }'; }
# stats DIGITS: the minimum, median and maximum of the numbers on standard input.
stats() { tr ' ' '\n' | sort -g | awk -v d="$1" '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; f = "%." d "f"; printf f " " f " " f "\n", v[1], m, v[NR] }'; }

echo "engine: $short (old) against $(git rev-parse --short HEAD) (new); $GAMES games a run, seed $SEED, $RUNS runs of each, one thread"
echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo
echo "| ruleset | old: M throws per CPU s (min, median, max) | new: M throws per CPU s (min, median, max) | new/old (medians) | new/old per pair (min, max) | same summary |"
echo "|---|---|---|---:|---|---|"
status=0
IFS=';' read -ra cases <<< "$CASES"
for case in "${cases[@]}"; do
    read -ra flags <<< "$case"
    old_rates=() new_rates=() ratios=() same=yes
    for ((i = 1; i <= RUNS; i++)); do
        order=(old new)
        if ((i % 2 == 0)); then order=(new old); fi
        for which in "${order[@]}"; do
            if [ "$which" = old ]; then bin=$old_bin; else bin=$new_bin; fi
            read -r throws cpu < <(run "$bin" "${flags[@]}")
            rate=$(per_cpu "$throws" "$cpu")
            cp "$tmp/summary" "$tmp/summary-$which"
            if [ "$which" = old ]; then old_rates+=("$rate"); else new_rates+=("$rate"); fi
        done
        cmp -s "$tmp/summary-old" "$tmp/summary-new" || same=NO
        ratios+=("$(awk -v n="${new_rates[-1]}" -v o="${old_rates[-1]}" 'BEGIN { printf "%.3f", n / o }')")
    done
    read -r omin omed omax < <(echo "${old_rates[*]}" | stats 2)
    read -r nmin nmed nmax < <(echo "${new_rates[*]}" | stats 2)
    read -r rmin _ rmax < <(echo "${ratios[*]}" | stats 3)
    ratio=$(awk -v n="$nmed" -v o="$omed" 'BEGIN { printf "%.3f", n / o }')
    echo "| ${flags[*]} | $omin, **$omed**, $omax | $nmin, **$nmed**, $nmax | **$ratio** | $rmin, $rmax | $same |"
    if [ "$same" != yes ]; then status=1; fi
done
echo
echo "each run: $GAMES games' throws / (user + system CPU time of the whole process); runs alternate old/new, new/old"
if [ "$status" != 0 ]; then
    echo "the builds' summaries differ for the same seed: the engine's behaviour changed" >&2
fi
exit "$status"
