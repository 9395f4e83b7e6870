#!/usr/bin/env bash
# HTTP load benchmark: throws per second and latency (p50, p99, max) with 1, 8,
# 32 and 128 concurrent clients, over many games and over one game, against a
# baseline (the cheapest durable write through the same stack: POST
# /bench/baseline, built only with the `bench-baseline` feature), and the
# server's resident memory. Then the same many-games run on a server started
# with --max-batch 1 (one commit, so one fsync, per throw): group commit's
# before and after in one run. Loopback only; every run is bounded in time.
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
stop_server() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    SERVER=""
}
cleanup() {
    stop_server
    rm -rf "$TMP"
}
trap cleanup EXIT

# start_server NAME [ARGS...]: a server on a fresh database $TMP/NAME.db.
start_server() {
    local name=$1
    shift
    "$TMP/zohn-ahl" --database-url "sqlite://$TMP/$name.db" --addr "127.0.0.1:$PORT" --log warn "$@" \
        >"$TMP/$name.log" 2>&1 &
    SERVER=$!
    for _ in $(seq 1 100); do
        curl -sf "$URL/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -sf "$URL/readyz" >/dev/null || { echo "the server did not start:" >&2; cat "$TMP/$name.log" >&2; exit 1; }
}

# Long games (15 counters a side, about 2,300 throws on average).
new_game() {
    curl -sf -X POST "$URL/v1/games" -H 'content-type: application/json' \
        -d '{"ruleset":{"options":{"counters_per_side":15}}}' |
        grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4
}

rss_peak() { sort -n "$1" | tail -1; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

printf '%s\n' "| scenario | clients | ok/s | p50 ms | p99 ms | max ms | 409s | other non-2xx | socket errors | peak RSS MiB |" \
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" >"$OUT/results.md"
declare -A RATE
PEAK=0
# point SCENARIO LABEL CLIENTS: one wrk run against the running server.
point() {
    local scenario=$1 label=$2 c=$3 games
    # Fresh games at every point, so that few end during it: $GAMES for
    # "many"; for "one", the one game and spares to go on with when it ends.
    games="$TMP/games.txt"
    case "$scenario" in
        many) for _ in $(seq 1 "$GAMES"); do new_game; done >"$games" ;;
        one) for _ in $(seq 1 64); do new_game; done >"$games" ;;
    esac
    : >"$TMP/rss.txt"
    ( while kill -0 "$SERVER" 2>/dev/null; do ps -o rss= -p "$SERVER" >>"$TMP/rss.txt"; sleep 0.2; done ) &
    local sampler=$!
    echo "== $label, $c client(s), ${DURATION} s" >&2
    local line
    line=$(wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s -s scripts/load.lua "$URL" -- "$scenario" "$games" "$c" |
        grep '^RESULT')
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    get() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
    local rss
    rss=$(rss_peak "$TMP/rss.txt")
    [ "${rss:-0}" -gt "$PEAK" ] && PEAK=$rss
    RATE[$label-$c]=$(get ok_per_s)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$c" "$(get ok_per_s)" \
        "$(get p50_ms)" "$(get p99_ms)" "$(get max_ms)" "$(get conflicts)" "$(get other)" \
        "$(get socket_errors)" "$(mib "$rss")" >>"$OUT/results.md"
}

echo "== the server as it runs (group commit, up to 64 throws a commit)" >&2
start_server grouped
echo "== creating $GAMES games" >&2
for _ in $(seq 1 "$GAMES"); do new_game; done >"$TMP/games.txt"
idle_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')
for scenario in baseline many one; do
    for c in $CLIENTS; do point "$scenario" "$scenario" "$c"; done
done
end_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')
db_size=$(du -sh "$TMP/grouped.db" "$TMP/grouped.db-shm" "$TMP/grouped.db-wal" 2>/dev/null | awk '{print $1}' | paste -sd, - | sed 's/,/, /g')
stop_server

echo "== before group commit: the same server with --max-batch 1" >&2
start_server single --max-batch 1
for c in $CLIENTS; do point many "many, one commit per throw" "$c"; done
stop_server

{
    echo
    echo "Throws/s as a share of the baseline at the same concurrency:"
    echo
    echo "| clients | many games | one game | many games, one commit per throw |"
    echo "|---:|---:|---:|---:|"
    for c in $CLIENTS; do
        printf '| %s | %s | %s | %s |\n' "$c" "$(ratio "${RATE[many-$c]}" "${RATE[baseline-$c]}")" \
            "$(ratio "${RATE[one-$c]}" "${RATE[baseline-$c]}")" \
            "$(ratio "${RATE[many, one commit per throw-$c]}" "${RATE[baseline-$c]}")"
    done
    echo
    echo "Server RSS after start and $GAMES game creations: $(mib "$idle_rss") MiB;" \
        "peak over every point: $(mib "$PEAK") MiB; at the end of the grouped runs: $(mib "$end_rss") MiB;" \
        "database files then (database, shared memory, write-ahead log): $db_size."
    echo
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
        "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $DURATION s per point; wrk -t1 on the same cores."
} >>"$OUT/results.md"
cat "$OUT/results.md"
