#!/usr/bin/env bash
# The recap of a long game over HTTP (issue 26: at most 50 ms for a game of
# 1,000 moves): a release server on a temporary SQLite file, one seeded game
# played to its end by POSTing its throws, its ruleset's odds solved first
# (as a served preset's are), then REQUESTS reads of GET
# /v1/games/{id}/recap with curl, one after another; their median, p99 and
# max (curl's time_total, loopback). Results on standard output.
#
#   scripts/recap_time.sh        # ludii, seed recap-bench-131 (1,042 moves), 50 reads
#   PRESET=ludii SEED=my-seed REQUESTS=100 scripts/recap_time.sh
#
# SEED: the game's seed (`cargo bench --bench recap` prints the one it found
# for a game of about 1,000 moves); PRESET: its preset. Needs curl. Builds
# the release server (cargo build --release --locked) unless BIN names one.
set -euo pipefail
cd "$(dirname "$0")/.."

PRESET=${PRESET:-ludii}
SEED=${SEED:-recap-bench-131}
REQUESTS=${REQUESTS:-50}
PORT=${PORT:-18490}
TARGET=${CARGO_TARGET_DIR:-target}
URL="http://127.0.0.1:$PORT"

if [ -z "${BIN:-}" ]; then
    echo "== building the release server" >&2
    cargo build --release --locked >&2
    BIN="$TARGET/release/zohn-ahl"
fi
TMP=$(mktemp -d)
SERVER=""
cleanup() {
    [ -n "$SERVER" ] && { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
    rm -rf "$TMP"
}
trap cleanup EXIT
"$BIN" --database-url "sqlite://$TMP/recap.db" --addr "127.0.0.1:$PORT" --log warn ${SERVER_ARGS:-} >"$TMP/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do curl -sf "$URL/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -sf "$URL/readyz" >/dev/null || { echo "the server did not start:" >&2; cat "$TMP/server.log" >&2; exit 1; }

id=$(curl -sf -X POST "$URL/v1/games" -H 'content-type: application/json' \
    -d "{\"ruleset\":{\"preset\":\"$PRESET\"},\"seed\":\"$SEED\"}" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)
# The odds solved before the game is played (the first read waits for them).
for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/games/$id/odds")" = 200 ] && break
    sleep 1
done
echo "== playing game $id ($PRESET, seed $SEED) to its end" >&2
moves=0
while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/v1/games/$id/throws")
    [ "$code" = 201 ] || break
    moves=$((moves + 1))
done
[ "$code" = 409 ] || { echo "a throw was answered $code" >&2; exit 1; }
# One read first: the recap waits for the odds if they are still being solved.
curl -sf "$URL/v1/games/$id/recap" -o "$TMP/recap.json"
grep -q '"chances_unknown":null' "$TMP/recap.json" || { echo "the recap has no chances:" >&2; head -c 400 "$TMP/recap.json" >&2; exit 1; }
load=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq 1 "$REQUESTS"); do
    curl -sf -o /dev/null -w '%{time_total}\n' "$URL/v1/games/$id/recap"
done >"$TMP/times.txt"
sort -g "$TMP/times.txt" | awk -v n="$moves" -v load="$load" -v bytes="$(wc -c <"$TMP/recap.json")" '
    { t[NR] = $1 * 1000 }
    END {
        p99 = int(NR * 0.99 + 0.999); if (p99 > NR) p99 = NR
        med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
        printf "recap of a game of %d moves: %d reads, median %.2f ms, p99 %.2f ms, max %.2f ms (min %.2f); %d bytes; load %s\n",
            n, NR, med, t[p99], t[NR], t[1], bytes, load
    }'
