#!/usr/bin/env bash
# HTTP load benchmark: throws per second and latency (p50, p99, max) with 1, 8,
# 32 and 128 concurrent clients, over many games and over one game, against a
# baseline (the cheapest durable write through the same stack: POST
# /bench/baseline, built only with the `bench-baseline` feature), and the
# server's resident memory. Loopback only; every run is bounded in time.
#
#   scripts/load.sh                  # 5 s per point
#   DURATION=10 CLIENTS="1 32" scripts/load.sh
#
# Needs wrk (installed from Debian with apt-get when missing and run as root)
# and curl. Builds the release server with --features bench-baseline (the
# feature only adds the baseline route), starts it on a temporary SQLite file
# with the default settings (WAL, synchronous=FULL, one writer, one worker
# per core) and the log at warn, and stops it at the end. Results: a Markdown
# table on standard output and in $OUT/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-5}
CLIENTS=${CLIENTS:-"1 8 32 128"}
PORT=${PORT:-18480}
GAMES=${GAMES:-256}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${OUT:-$TARGET/load}
URL="http://127.0.0.1:$PORT"

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== installing wrk (Debian)" >&2
        apt-get update -qq && apt-get install -y -qq wrk >/dev/null
    else
        echo "wrk is missing: install it (Debian: apt-get install wrk)" >&2
        exit 1
    fi
fi
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 1; }

echo "== building the release server (--features bench-baseline)" >&2
cargo build --release --locked --features bench-baseline >&2

TMP=$(mktemp -d)
mkdir -p "$OUT"
cp "$TARGET/release/zohn-ahl" "$TMP/zohn-ahl"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

"$TMP/zohn-ahl" --database-url "sqlite://$TMP/load.db" --addr "127.0.0.1:$PORT" --log warn \
    >"$TMP/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do
    curl -sf "$URL/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -sf "$URL/readyz" >/dev/null || { echo "the server did not start:" >&2; cat "$TMP/server.log" >&2; exit 1; }

# Long games (15 counters a side) so that few end during a run.
new_game() {
    curl -sf -X POST "$URL/v1/games" -H 'content-type: application/json' \
        -d '{"ruleset":{"options":{"counters_per_side":15}}}' |
        grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4
}
echo "== creating $GAMES games" >&2
for _ in $(seq 1 "$GAMES"); do new_game; done >"$TMP/games.txt"

# The server's resident memory, sampled every 0.2 s while a point runs.
rss_peak() { sort -n "$1" | tail -1; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

idle_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')
printf '%s\n' "| scenario | clients | ok/s | p50 ms | p99 ms | max ms | 409s | other non-2xx | socket errors | peak RSS MiB |" \
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" >"$OUT/results.md"
declare -A RATE
for scenario in baseline many one; do
    if [ "$scenario" = one ]; then
        # Spare games: when the one game ends, the clients go on with the next.
        for _ in $(seq 1 64); do new_game; done >"$TMP/one.txt"
        games="$TMP/one.txt"
    else
        games="$TMP/games.txt"
    fi
    for c in $CLIENTS; do
        : >"$TMP/rss.txt"
        ( while kill -0 "$SERVER" 2>/dev/null; do ps -o rss= -p "$SERVER" >>"$TMP/rss.txt"; sleep 0.2; done ) &
        sampler=$!
        echo "== $scenario, $c client(s), ${DURATION} s" >&2
        line=$(wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s -s scripts/load.lua "$URL" -- "$scenario" "$games" |
            grep '^RESULT')
        kill "$sampler" 2>/dev/null || true
        wait "$sampler" 2>/dev/null || true
        get() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
        rss=$(rss_peak "$TMP/rss.txt")
        RATE[$scenario-$c]=$(get ok_per_s)
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$scenario" "$c" "$(get ok_per_s)" \
            "$(get p50_ms)" "$(get p99_ms)" "$(get max_ms)" "$(get conflicts)" "$(get other)" \
            "$(get socket_errors)" "$(mib "$rss")" >>"$OUT/results.md"
    done
done
{
    echo
    echo "Throws/s as a share of the baseline at the same concurrency:"
    echo
    echo "| clients | many games | one game |"
    echo "|---:|---:|---:|"
    for c in $CLIENTS; do
        printf '| %s | %s | %s |\n' "$c" "$(ratio "${RATE[many-$c]}" "${RATE[baseline-$c]}")" \
            "$(ratio "${RATE[one-$c]}" "${RATE[baseline-$c]}")"
    done
    echo
    echo "Server RSS after start and $GAMES game creations: $(mib "$idle_rss") MiB;" \
        "at the end: $(mib "$(ps -o rss= -p "$SERVER" | tr -d ' ')") MiB;" \
        "database with its WAL at the end: $(du -sh "$TMP/load.db"* | awk '{print $1}' | paste -sd+ -)."
    echo
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
        "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $DURATION s per point; wrk -t1 on the same cores."
} >>"$OUT/results.md"
cat "$OUT/results.md"
