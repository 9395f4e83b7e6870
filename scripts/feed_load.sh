#!/usr/bin/env bash
# Live-feed load benchmark: 1,000 SSE subscribers on one game, then 100 games
# with 10 subscribers each, while throws are made; the delay from a throw's
# answer to its event reaching every subscriber (p50, p99, max) and the
# server's resident memory (peak, sampled every 0.2 s, and the process's
# peak since its start, VmHWM, which includes the exact-odds solve at start).
#
#   scripts/feed_load.sh                   # 300 throws at 50/s per scenario
#   THROWS=600 RATE=100 scripts/feed_load.sh
#
# Builds the release server and the load client (examples/feed_load.rs, its
# dependencies pinned by Cargo.lock), starts the server on a temporary
# SQLite file with the default settings and the log at warn, and stops it at
# the end. Loopback only; client and server share the machine's cores.
# Results: a Markdown table on standard output and in $OUT/feed.md.
set -euo pipefail
cd "$(dirname "$0")/.."

THROWS=${THROWS:-300}
RATE=${RATE:-50}
PORT=${PORT:-18481}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${OUT:-$TARGET/load}
URL="http://127.0.0.1:$PORT"
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 1; }
# 1,000 streams need as many sockets on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

echo "== building the release server and the load client" >&2
cargo build --release --locked --bin zohn-ahl --example feed_load >&2

TMP=$(mktemp -d)
mkdir -p "$OUT"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

# One address opens every stream: the limits per client address are off.
"$TARGET/release/zohn-ahl" --database-url "sqlite://$TMP/feed.db" --addr "127.0.0.1:$PORT" --log warn \
    --limit-games-per-minute 0 --limit-throws-per-second 0 --limit-feeds-per-minute 0 \
    >"$TMP/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do
    curl -sf "$URL/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -sf "$URL/readyz" >/dev/null || { echo "the server did not start:" >&2; cat "$TMP/server.log" >&2; exit 1; }
start_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')
# The presets' exact odds are solved in the background from the start (a
# transient peak of its own): wait for them, so that the scenarios measure
# the feed alone; the process's own peak (VmHWM) is reported as well.
for preset in composite culin1898 ludii a4 boxed; do
    for _ in $(seq 1 600); do
        [ "$(curl -s -o /dev/null -w "%{http_code}" "$URL/v1/rulesets/$preset/statistics")" != 503 ] && break
        sleep 0.1
    done
done
idle_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')

mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
printf '%s\n' "| scenario | subscribers | throws | throws/s | to every subscriber p50 ms | p99 ms | max ms | each delivery p50 ms | p99 ms | from the request p50 ms | p99 ms | missing | peak RSS MiB |" \
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" >"$OUT/feed.md"
# scenario LABEL GAMES SUBSCRIBERS_PER_GAME
scenario() {
    local label=$1 games=$2 subs=$3 line rss
    : >"$TMP/rss.txt"
    ( while kill -0 "$SERVER" 2>/dev/null; do ps -o rss= -p "$SERVER" >>"$TMP/rss.txt"; sleep 0.2; done ) &
    local sampler=$!
    echo "== $label: $games game(s) x $subs subscribers, $THROWS throws at $RATE/s; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    loads="$loads $label: $(cut -d' ' -f1 /proc/loadavg);"
    line=$("$TARGET/release/examples/feed_load" "127.0.0.1:$PORT" "$games" "$subs" "$THROWS" "$RATE" | grep '^RESULT')
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    get() { echo "$line" | grep -o " $1=[^ ]*" | cut -d= -f2; }
    rss=$(sort -n "$TMP/rss.txt" | tail -1)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$(get subscribers)" \
        "$(get throws)" "$(get throws_per_s)" "$(get all_p50_ms)" "$(get all_p99_ms)" "$(get all_max_ms)" \
        "$(get each_p50_ms)" "$(get each_p99_ms)" "$(get request_p50_ms)" "$(get request_p99_ms)" \
        "$(get missing)" "$(mib "$rss")" >>"$OUT/feed.md"
    # Let the server notice the closed streams before the next scenario.
    sleep 1
}
loads=""
scenario "one game" 1 1000
scenario "100 games" 100 10
end_rss=$(ps -o rss= -p "$SERVER" | tr -d ' ')
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$SERVER/status")
{
    echo
    echo "Server RSS when ready: $(mib "$start_rss") MiB; with the odds solved: $(mib "$idle_rss") MiB;" \
        "at the end: $(mib "$end_rss") MiB; the process's peak since its start (VmHWM): $(mib "$hwm") MiB."
    echo "Load average (1 min) at the start of each scenario:$loads"
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
        "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); client and server on the same cores."
} >>"$OUT/feed.md"
cat "$OUT/feed.md"
