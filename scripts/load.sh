#!/usr/bin/env bash
# HTTP load benchmark: throws per second and latency (p50, p99, max) with 1, 8,
# 32 and 128 concurrent clients, over many games and over one game, against a
# baseline (the cheapest durable write through the same stack: POST
# /bench/baseline, built only with the `bench-baseline` feature), and the
# server's resident memory. Then the same many-games run on a server started
# with --max-batch 1 (one commit, so one fsync, per throw): group commit's
# before and after in one run. Then, with BACKENDS="sqlite postgres" (or
# "postgres" alone), the many-games and one-game runs on PostgreSQL: one
# instance, then two instances on one database (the clients split evenly
# between them, one wrk thread for each; "many" sends every game's throws to
# both instances, "split" each game's to one of them, as a balancer keeping
# a game on one instance would). With CHANCES_COMPARE, the cost of the moves'
# chances (issue 26): the many-games and one-game runs at 32 clients against
# the same build started with --move-chances off and with --move-chances on,
# interleaved (off, on, off, on, ...) over CHANCES_ROUNDS rounds, each on a
# fresh server whose odds are solved before it is measured; throws/s and p99
# of each, and the on/off ratios with their median over the rounds.
# Loopback only; every run is bounded in time.
#
#   scripts/load.sh                  # 5 s per point, SQLite only
#   DURATION=10 CLIENTS="1 32" scripts/load.sh
#   CHANCES_COMPARE=only DURATION=10 scripts/load.sh   # only the chances' off/on comparison
#   CHANCES_COMPARE=1 scripts/load.sh                  # everything above, then the comparison
#   BACKENDS="sqlite postgres" pg_virtualenv -o fsync=on scripts/load.sh
#   INSTANCE_CPU=0.4 BACKENDS=postgres pg_virtualenv -o fsync=on scripts/load.sh
#
# INSTANCE_CPU (cores, e.g. 0.4) holds each PostgreSQL instance to that share
# of the CPU (a cgroup of its own with a CPU quota; needs root and cgroup v1's
# cpu controller or cgroup v2 with cpu delegated): on a machine with few
# cores, so that one instance is bound by its own CPU while PostgreSQL and
# wrk have room, and a second instance shows what it adds.
#
# PostgreSQL: the server named by PG_URL (postgres://user:password@host:port/db,
# a role that may create databases) or, without it, by the PG* variables
# (PGHOST, PGPORT, PGUSER, PGPASSWORD: what pg_virtualenv exports); each
# configuration gets a fresh database there, dropped at the end. Needs psql.
# pg_virtualenv turns fsync off unless told (-o fsync=on): the script refuses
# a server without fsync, whose commits are not durable (PG_ALLOW_NO_FSYNC=1
# runs anyway).
#
# CHANCES_COMPARE: "1" runs the comparison after the SQLite (and PostgreSQL)
# runs, "only" runs nothing else; CHANCES_ROUNDS (3), CHANCES_CLIENTS ("32")
# and CHANCES_SCENARIOS ("many one") shape it, and CHANCES_ORDER ("off on";
# "on off" measures "on" first in each round, to see whether the order
# matters on a machine whose load drifts). It runs on SQLite.
#
# Needs wrk (installed from Debian with apt-get when missing and run as root)
# and curl. Builds the release server with --features bench-baseline (the
# feature only adds the baseline route), starts it on a temporary SQLite file
# with the default settings (WAL, each answer after its log is synced, one writer, one worker
# per core) and the log at warn, and stops it at the end. Results: a Markdown
# table on standard output and in $OUT/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
# The load comes from one address: the server's limits per client address
# (60 games a minute, 50 throws a second, ...) are turned off for it.
export ZOHN_AHL_LIMIT_GAMES=0 ZOHN_AHL_LIMIT_THROWS=0 ZOHN_AHL_LIMIT_FEEDS=0 ZOHN_AHL_LIMIT_MCP_SESSIONS=0

DURATION=${DURATION:-5}
CLIENTS=${CLIENTS:-"1 8 32 128"}
PORT=${PORT:-18480}
GAMES=${GAMES:-256}
BACKENDS=${BACKENDS:-sqlite}
PG_CLIENTS=${PG_CLIENTS:-$CLIENTS}
INSTANCE_CPU=${INSTANCE_CPU:-}
CHANCES_COMPARE=${CHANCES_COMPARE:-}
CHANCES_ROUNDS=${CHANCES_ROUNDS:-3}
CHANCES_CLIENTS=${CHANCES_CLIENTS:-32}
CHANCES_SCENARIOS=${CHANCES_SCENARIOS:-"many one"}
CHANCES_ORDER=${CHANCES_ORDER:-"off on"}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${OUT:-$TARGET/load}
URL="http://127.0.0.1:$PORT"
URLS=("$URL")
case " $BACKENDS " in *" sqlite "*) RUN_SQLITE=1 ;; *) RUN_SQLITE="" ;; esac
case " $BACKENDS " in *" postgres "*) RUN_PG=1 ;; *) RUN_PG="" ;; esac
case "$CHANCES_COMPARE" in
    "" | 0) RUN_CHANCES="" ;;
    only) RUN_CHANCES=1 RUN_SQLITE="" RUN_PG="" ;;
    *) RUN_CHANCES=1 ;;
esac

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
SERVERS=()
PG_DATABASES=()
CGROUPS=()
stop_server() {
    local pid
    for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    SERVERS=()
}
cleanup() {
    stop_server
    local db
    for db in "${PG_DATABASES[@]}"; do psql -qAt "$PG_SERVER" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
    for cg in "${CGROUPS[@]}"; do rmdir "$cg" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

# cpu_cgroup NAME: a new cgroup whose processes share $INSTANCE_CPU cores;
# the file to write a process id into, in CG_PROCS.
cpu_cgroup() {
    # A period of 10 ms rather than the default 100 ms: a throttled server
    # waits at most the rest of 10 ms, not of 100.
    local dir quota period=10000
    quota=$(awk -v c="$INSTANCE_CPU" -v p="$period" 'BEGIN { printf "%d", c * p }')
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        dir=/sys/fs/cgroup/zohn-load-$1-$$
        mkdir "$dir" && echo "$quota $period" >"$dir/cpu.max"
    else
        dir=/sys/fs/cgroup/cpu/zohn-load-$1-$$
        mkdir "$dir" && echo "$period" >"$dir/cpu.cfs_period_us" && echo "$quota" >"$dir/cpu.cfs_quota_us"
    fi || { echo "INSTANCE_CPU: cannot make a cgroup with a CPU quota (root, and the cpu controller, are needed)" >&2; exit 1; }
    CGROUPS+=("$dir")
    CG_PROCS="$dir/cgroup.procs"
}

# start_instance NAME DATABASE_URL PORT [ARGS...]: one more server (in a
# cgroup of its own with $INSTANCE_CPU cores when CAPPED=1).
start_instance() {
    local name=$1 db=$2 port=$3
    shift 3
    if [ "${CAPPED:-}" = 1 ] && [ -n "$INSTANCE_CPU" ]; then
        cpu_cgroup "$name"
        # The shell joins the cgroup, then becomes the server (same pid).
        sh -c 'echo $$ >"$0" && exec "$@"' "$CG_PROCS" \
            "$TMP/zohn-ahl" --database-url "$db" --addr "127.0.0.1:$port" --log warn "$@" \
            >"$TMP/$name.log" 2>&1 &
    else
        "$TMP/zohn-ahl" --database-url "$db" --addr "127.0.0.1:$port" --log warn "$@" \
            >"$TMP/$name.log" 2>&1 &
    fi
    SERVERS+=("$!")
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null ||
        { echo "the server did not start:" >&2; cat "$TMP/$name.log" >&2; exit 1; }
}

# start_server NAME [ARGS...]: a server on a fresh database $TMP/NAME.db.
start_server() {
    local name=$1
    shift
    URLS=("$URL")
    start_instance "$name" "sqlite://$TMP/$name.db" "$PORT" "$@"
}

# The PostgreSQL server, as a URL (its database part is replaced by each
# configuration's own).
pg_server() {
    if [ -n "${PG_URL:-}" ]; then echo "$PG_URL"; return; fi
    [ -n "${PGHOST:-}" ] && [ -n "${PGUSER:-}" ] ||
        { echo "PostgreSQL: set PG_URL, or the PG* variables (e.g. run under pg_virtualenv)" >&2; exit 1; }
    printf 'postgres://%s:%s@%s:%s/%s\n' "$PGUSER" "${PGPASSWORD:-}" "$PGHOST" "${PGPORT:-5432}" "${PGDATABASE:-postgres}"
}

# fresh_pg_database NAME: a new database on the server, its URL in PG_DB.
fresh_pg_database() {
    local db="zohn_load_$1_$$"
    psql -v ON_ERROR_STOP=1 -qAt "$PG_SERVER" -c "CREATE DATABASE $db" >/dev/null
    PG_DATABASES+=("$db")
    PG_DB="${PG_SERVER%/*}/$db"
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
ratio3() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
# median NUMBER...: the middle one (the mean of the two middle ones for an
# even count).
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%s\n' "| scenario | clients | ok/s | p50 ms | p99 ms | max ms | 409s | other non-2xx | socket errors | peak RSS MiB | load |" \
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" >"$OUT/results.md"
declare -A RATE P99 LOAD
PEAK=0
# point SCENARIO LABEL CLIENTS: one wrk run against the running server.
point() {
    local scenario=$1 label=$2 c=$3 games
    # Fresh games at every point, so that few end during it: $GAMES for
    # "many"; for "one", the one game and spares to go on with when it ends.
    games="$TMP/games.txt"
    case "$scenario" in
        many | split) for _ in $(seq 1 "$GAMES"); do new_game; done >"$games" ;;
        one) for _ in $(seq 1 64); do new_game; done >"$games" ;;
    esac
    : >"$TMP/rss.txt"
    ( while kill -0 "${SERVERS[0]}" 2>/dev/null; do
        ps -o rss= -p "$(IFS=,; echo "${SERVERS[*]}")" >>"$TMP/rss.txt"; sleep 0.2
    done ) &
    local sampler=$!
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "== $label, $c client(s), ${DURATION} s (load $load)" >&2
    local line
    # With several instances, one wrk thread per instance (the clients
    # split evenly); wrk adds up their answers and latencies.
    local targets="" threads=1
    if [ "${#URLS[@]}" -gt 1 ] && [ "$c" -ge "${#URLS[@]}" ]; then
        targets=$(printf '%s\n' "${URLS[@]}" | sed 's|^http://||' | paste -sd, -)
        threads=${#URLS[@]}
    fi
    line=$(LOAD_TARGETS="$targets" wrk -t"$threads" -c"$c" -d"${DURATION}s" --timeout 10s -s scripts/load.lua "${URLS[0]}" -- \
        "$scenario" "$games" "$((c / threads))" | grep '^RESULT')
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    get() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
    local rss
    rss=$(rss_peak "$TMP/rss.txt")
    [ "${rss:-0}" -gt "$PEAK" ] && PEAK=$rss
    RATE[$label-$c]=$(get ok_per_s)
    P99[$label-$c]=$(get p99_ms)
    LOAD[$label-$c]=$load
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$c" "$(get ok_per_s)" \
        "$(get p50_ms)" "$(get p99_ms)" "$(get max_ms)" "$(get conflicts)" "$(get other)" \
        "$(get socket_errors)" "$(mib "$rss")" "$load" >>"$OUT/results.md"
}

if [ -n "$RUN_PG" ]; then
    command -v psql >/dev/null || { echo "psql is missing (Debian: apt-get install postgresql-client)" >&2; exit 1; }
    PG_SERVER=$(pg_server)
    if [ "$(psql -qAt "$PG_SERVER" -c 'SHOW fsync')" != on ] && [ -z "${PG_ALLOW_NO_FSYNC:-}" ]; then
        echo "PostgreSQL runs with fsync off: its commits are not durable, so its figures would not compare" \
            "with SQLite's (pg_virtualenv -o fsync=on)" >&2
        exit 1
    fi
fi

if [ -n "$RUN_SQLITE" ]; then
echo "== the server as it runs (group commit, up to 64 throws a commit)" >&2
start_server grouped
echo "== creating $GAMES games" >&2
for _ in $(seq 1 "$GAMES"); do new_game; done >"$TMP/games.txt"
idle_rss=$(ps -o rss= -p "${SERVERS[0]}" | tr -d ' ')
for scenario in baseline many one; do
    for c in $CLIENTS; do point "$scenario" "$scenario" "$c"; done
done
end_rss=$(ps -o rss= -p "${SERVERS[0]}" | tr -d ' ')
db_size=$(du -sh "$TMP/grouped.db" "$TMP/grouped.db-shm" "$TMP/grouped.db-wal" 2>/dev/null | awk '{print $1}' | paste -sd, - | sed 's/,/, /g')
stop_server

echo "== before group commit: the same server with --max-batch 1" >&2
start_server single --max-batch 1
for c in $CLIENTS; do point many "many, one commit per throw" "$c"; done
stop_server
fi

if [ -n "$RUN_CHANCES" ]; then
    # Every server solves the presets' odds at start, and the chain of the
    # games played here when first asked: both are done before a server is
    # measured, so neither mode pays for a solve during its points.
    solved_odds() {
        local id code
        id=$(new_game)
        for _ in $(seq 1 300); do
            code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/games/$id/odds")
            [ "$code" = 200 ] && return 0
            sleep 1
        done
        echo "the odds of the benchmark's games were not solved in time (last answer $code)" >&2
        exit 1
    }
    for round in $(seq 1 "$CHANCES_ROUNDS"); do
        for mode in $CHANCES_ORDER; do
            echo "== the moves' chances $mode, round $round of $CHANCES_ROUNDS" >&2
            start_server "chances-$mode-$round" --move-chances "$mode"
            solved_odds
            for scenario in $CHANCES_SCENARIOS; do
                for c in $CHANCES_CLIENTS; do point "$scenario" "$scenario, chances $mode, round $round" "$c"; done
            done
            stop_server
        done
    done
fi

if [ -n "$RUN_PG" ]; then
    CAPPED=1
    echo "== PostgreSQL, one instance${INSTANCE_CPU:+ (held to $INSTANCE_CPU cores)}" >&2
    URLS=("$URL")
    fresh_pg_database one
    start_instance pg-one "$PG_DB" "$PORT"
    for scenario in many one; do
        for c in $PG_CLIENTS; do point "$scenario" "PostgreSQL, one instance, $scenario" "$c"; done
    done
    stop_server
    echo "== PostgreSQL, two instances on one database${INSTANCE_CPU:+ (each held to $INSTANCE_CPU cores)}" >&2
    fresh_pg_database two
    URLS=("$URL" "http://127.0.0.1:$((PORT + 1))")
    start_instance pg-two-a "$PG_DB" "$PORT"
    start_instance pg-two-b "$PG_DB" "$((PORT + 1))"
    for scenario in many split one; do
        for c in $PG_CLIENTS; do point "$scenario" "PostgreSQL, two instances, $scenario" "$c"; done
    done
    stop_server
    CAPPED=""
    URLS=("$URL")
    PG_SETTINGS=$(psql -qAt "$PG_SERVER" -c "SELECT current_setting('server_version') || ', synchronous_commit=' || current_setting('synchronous_commit') || ', fsync=' || current_setting('fsync') || ', shared_buffers=' || current_setting('shared_buffers')")
fi

{
    if [ -n "$RUN_SQLITE" ]; then
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
    fi
    if [ -n "$RUN_PG" ]; then
        echo
        echo "PostgreSQL: throws/s of one instance as a share of SQLite's (when both ran), of two instances as a share of one:"
        echo
        echo "| clients | many: one instance ÷ SQLite | one game: one instance ÷ SQLite | many: two ÷ one | split: two ÷ one (many) | one game: two ÷ one |"
        echo "|---:|---:|---:|---:|---:|---:|"
        for c in $PG_CLIENTS; do
            printf '| %s | %s | %s | %s | %s | %s |\n' "$c" \
                "$(ratio "${RATE[PostgreSQL, one instance, many-$c]}" "${RATE[many-$c]:-0}")" \
                "$(ratio "${RATE[PostgreSQL, one instance, one-$c]}" "${RATE[one-$c]:-0}")" \
                "$(ratio "${RATE[PostgreSQL, two instances, many-$c]}" "${RATE[PostgreSQL, one instance, many-$c]}")" \
                "$(ratio "${RATE[PostgreSQL, two instances, split-$c]}" "${RATE[PostgreSQL, one instance, many-$c]}")" \
                "$(ratio "${RATE[PostgreSQL, two instances, one-$c]}" "${RATE[PostgreSQL, one instance, one-$c]}")"
        done
        echo
        echo "PostgreSQL $PG_SETTINGS; on the same machine and cores. With two instances, wrk runs two threads (one per instance) on the same cores too."
        if [ -n "$INSTANCE_CPU" ]; then
            echo
            echo "Each PostgreSQL instance was held to $INSTANCE_CPU cores (a cgroup's CPU quota); PostgreSQL and wrk were not."
        fi
    fi
    if [ -n "$RUN_CHANCES" ]; then
        echo
        echo "The moves' chances, off and on (the same build, --move-chances off|on, interleaved):"
        echo
        echo "| scenario | clients | round | off ok/s | on ok/s | on ÷ off | off p99 ms | on p99 ms | on ÷ off | load off / on |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        for scenario in $CHANCES_SCENARIOS; do
            for c in $CHANCES_CLIENTS; do
                offs=() ons=() rates=() p99_offs=() p99_ons=() p99s=()
                for round in $(seq 1 "$CHANCES_ROUNDS"); do
                    off="$scenario, chances off, round $round-$c" on="$scenario, chances on, round $round-$c"
                    offs+=("${RATE[$off]}") ons+=("${RATE[$on]}") p99_offs+=("${P99[$off]}") p99_ons+=("${P99[$on]}")
                    rates+=("$(ratio3 "${RATE[$on]}" "${RATE[$off]}")") p99s+=("$(ratio3 "${P99[$on]}" "${P99[$off]}")")
                    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$scenario" "$c" "$round" \
                        "${RATE[$off]}" "${RATE[$on]}" "${rates[-1]}" "${P99[$off]}" "${P99[$on]}" "${p99s[-1]}" \
                        "${LOAD[$off]}" "${LOAD[$on]}"
                done
                printf '| %s | %s | **median** | %s | %s | **%s** | %s | %s | **%s** | |\n' "$scenario" "$c" \
                    "$(median "${offs[@]}")" "$(median "${ons[@]}")" "$(median "${rates[@]}")" \
                    "$(median "${p99_offs[@]}")" "$(median "${p99_ons[@]}")" "$(median "${p99s[@]}")"
            done
        done
        echo
        echo "The medians of the ratios are of each round's ratio (on ÷ off of the same round); the goal: throws/s at least 0.95 of off, p99 at most 1.05 of off."
    fi
    echo
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
        "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $DURATION s per point; wrk -t1 on the same cores."
} >>"$OUT/results.md"
cat "$OUT/results.md"
