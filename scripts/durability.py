#!/usr/bin/env python3
"""Durability check: kill the real server mid-load, restart it, and check
that nothing it acknowledged was lost.

Starts the server on a fresh SQLite file, drives throws from concurrent
clients on several games (and many on one game), kills the process with
SIGKILL while they run, restarts it and checks that every throw answered
201 is in the move log, that each log runs 1, 2, 3, ... without gaps or
doubles, and (with `zohn-ahl verify`) that every game's state equals the
replay of its moves.

With --postgres, the same on PostgreSQL with two instances: both serve one
fresh database (created for the run and, with the servers' logs, dropped
after it when every check passes), concurrent clients spread throws for the same games over both
(and some games go to one instance only), one instance is killed with
SIGKILL mid-load while the other goes on serving, the killed one is
started again and serves too; then every throw answered 201 must be in
the log as answered, read through either instance, each log must run
1, 2, 3, ... without gaps or doubles, no move number may have been
answered twice, and `zohn-ahl verify` must pass on the database. A throw
sent to the instance as it died gets a connection error: it was not
acknowledged, and may or may not be in the log.

Usage:
  durability.py PATH/TO/zohn-ahl
  durability.py --postgres [URL] PATH/TO/zohn-ahl
URL is a postgres:// URL of a database the run may create databases from;
without it, the PG* variables (PGHOST, PGPORT, PGUSER, PGPASSWORD; what
pg_virtualenv exports) name the server.
"""

import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

CLIENTS = 8
GAMES = 6
LOAD_SECONDS = 2.0



# The load this script makes is one address's: the limits per client
# address (a flood's protection) are off for it.
NO_LIMITS = [
    "--limit-games-per-minute", "0",
    "--limit-throws-per-second", "0",
    "--limit-feeds-per-minute", "0",
    "--limit-mcp-sessions-per-minute", "0",
]

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, body=None, timeout=10):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def start(binary, db, port, log, name="the server"):
    proc = subprocess.Popen(
        [binary, "--database-url", db, "--addr", f"127.0.0.1:{port}", "--workers", "2", *NO_LIMITS],
        stdout=log,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if request(base, "GET", "/healthz", timeout=1)[0] == 200:
                return proc, base
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit(f"durability: {name} did not start")


def run_sqlite(binary):
    work = tempfile.mkdtemp(prefix="zohn-durability-")
    db = f"sqlite://{work}/games.db"
    log = open(os.path.join(work, "server.log"), "wb")
    port = free_port()
    proc, base = start(binary, db, port, log)

    games = []
    for i in range(GAMES):
        status, g = request(base, "POST", "/v1/games", {"seed": f"durability-{i}"})
        assert status == 201, (status, g)
        games.append(g["id"])

    acked = []  # (game, n) of every 201
    errors = []
    lock = threading.Lock()
    stop = threading.Event()

    def client(k):
        rng = random.Random(k)
        while not stop.is_set():
            # Half the clients share game 0, the rest spread over all games.
            game = games[0] if k % 2 == 0 else rng.choice(games)
            try:
                status, body = request(base, "POST", f"/v1/games/{game}/throws")
            except OSError:
                return  # the server is gone
            if status == 201:
                with lock:
                    acked.append((game, body["n"]))
            elif status >= 500:
                with lock:
                    errors.append((status, body))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for t in threads:
        t.start()
    time.sleep(LOAD_SECONDS)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stop.set()
    for t in threads:
        t.join()

    proc, base = start(binary, db, port, log)
    failed = []
    try:
        for game in games:
            ns, cursor = [], None
            while True:
                path = f"/v1/games/{game}/moves?limit=100" + (f"&cursor={cursor}" if cursor else "")
                status, page = request(base, "GET", path)
                assert status == 200, (status, page)
                ns.extend(m["n"] for m in page["items"])
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            if ns != list(range(1, len(ns) + 1)):
                failed.append(f"game {game}: move numbers not 1..{len(ns)}")
            stored = set(ns)
            lost = [n for g, n in acked if g == game and n not in stored]
            if lost:
                failed.append(f"game {game}: acknowledged throws lost: {lost[:10]}")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    verify = subprocess.run([binary, "verify", "--database-url", db], capture_output=True, text=True)
    if verify.returncode != 0:
        failed.append("verify: " + verify.stderr.strip())
    if errors:
        failed.append(f"{len(errors)} server errors under load: {errors[:3]}")

    print(f"durability: {len(acked)} acknowledged throws on {GAMES} games, killed with SIGKILL mid-load")
    print(verify.stdout.strip())
    for f in failed:
        print("FAILED:", f)
    checks = 4
    print(f"durability: {checks - min(len(failed), checks)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)



def log_of(base, game):
    """A game's move log, read through one instance."""
    moves, cursor = [], None
    while True:
        path = f"/v1/games/{game}/moves?limit=100" + (f"&cursor={cursor}" if cursor else "")
        status, page = request(base, "GET", path)
        if status != 200:
            raise AssertionError(f"reading the log of {game}: {status} {page}")
        moves.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return moves


# What a throw's answer and the log must agree on for one move.
TOLD = ("n", "side", "sticks", "value", "from", "to", "events", "counters", "caption")


def told(move):
    return json.dumps({k: move.get(k) for k in TOLD}, sort_keys=True)


def postgres_server(arg):
    if arg:
        return arg
    env = os.environ
    if not env.get("PGHOST") or not env.get("PGUSER"):
        sys.exit("durability: --postgres needs a URL or the PG* variables (PGHOST, PGUSER, ...)")
    auth = urllib.parse.quote(env["PGUSER"], safe="")
    if env.get("PGPASSWORD"):
        auth += ":" + urllib.parse.quote(env["PGPASSWORD"], safe="")
    port = env.get("PGPORT", "5432")
    return f"postgres://{auth}@{env['PGHOST']}:{port}/{env.get('PGDATABASE', 'postgres')}"


def psql(server, sql):
    subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-qAt", server, "-c", sql], check=True)


def with_database(server, name):
    parts = urllib.parse.urlsplit(server)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


PG_CLIENTS = 12
PG_SHARED_GAMES = 6
PG_PHASE_SECONDS = 1.5
STOP_SECONDS = 30


def stop_server(proc, name, failed):
    """SIGTERM, then SIGKILL if the server has not stopped in time (a
    failure: a server told to stop must stop)."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        failed.append(f"{name} did not stop within {STOP_SECONDS} s of SIGTERM")


def run_postgres(binary, server):
    # Stopped from outside (a CI time-out): the servers are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("durability: stopped by SIGTERM"))
    work = tempfile.mkdtemp(prefix="zohn-durability-pg-")
    name = f"zohn_durability_{os.getpid()}"
    psql(server, f"CREATE DATABASE {name}")
    db = with_database(server, name)
    logs = [open(os.path.join(work, f"server-{i}.log"), "wb") for i in range(2)]
    ports = [free_port(), free_port()]
    procs = [None, None]
    failed = []
    try:
        # Started together: they migrate the fresh database once between them.
        started = [None, None]
        starting = [
            threading.Thread(
                target=lambda i=i: started.__setitem__(i, start(binary, db, ports[i], logs[i], f"instance {i}"))
            )
            for i in range(2)
        ]
        for t in starting:
            t.start()
        for t in starting:
            t.join()
        procs = [s[0] if s else None for s in started]
        if None in procs:
            sys.exit("durability: an instance did not start")
        bases = [s[1] for s in started]
        check_postgres(binary, db, procs, bases, ports, logs, failed)
    finally:
        for i, p in enumerate(procs):
            stop_server(p, f"instance {i}", failed)
    verify = subprocess.run([binary, "verify", "--database-url", db], capture_output=True, text=True)
    if verify.returncode != 0:
        failed.append("verify: " + (verify.stderr.strip() or verify.stdout.strip()))
    print(verify.stdout.strip())
    for f in failed:
        print("FAILED:", f)
    print(f"durability (PostgreSQL): {len(failed)} check(s) failed")
    if failed:
        print(f"durability: the database {name} and the servers' logs in {work} are kept")
        sys.exit(1)
    psql(server, f"DROP DATABASE {name}")
    for f in logs:
        f.close()
    shutil.rmtree(work)


def check_postgres(binary, db, procs, bases, ports, logs, failed):
    """Load, kill instance 0, restart it, check; the failures found are
    added to `failed`. `procs[0]` is replaced by the restarted instance."""

    # Long games (15 counters a side), so that none ends during the run.
    def new_game(base, seed):
        status, g = request(base, "POST", "/v1/games", {"seed": seed, "ruleset": {"options": {"counters_per_side": 15}}})
        assert status == 201, (status, g)
        return g["id"]

    shared = [new_game(bases[i % 2], f"durability-pg-{i}") for i in range(PG_SHARED_GAMES)]
    # Games only one instance plays: one on the instance to be killed, one
    # on the other.
    only = [new_game(bases[0], "durability-pg-only-0"), new_game(bases[1], "durability-pg-only-1")]
    games = shared + only

    acked = []  # (game, n, what was told, instance, phase) of every 201
    unacked = [0, 0]  # connection errors, by instance
    errors = []
    lock = threading.Lock()
    stop = threading.Event()
    phase = [0]  # 0: both up; 1: instance 0 killed; 2: instance 0 back

    def client(k):
        rng = random.Random(k)
        while not stop.is_set():
            if k < 2:
                game, i = only[k], k  # client 0: instance 0 only; client 1: instance 1 only
            else:
                # A third of the others throw on game 0, the rest over all
                # the shared games; each throw goes to either instance, and
                # to the other while instance 0 is down.
                game = shared[0] if k % 3 == 0 else rng.choice(shared)
                i = 1 if phase[0] == 1 else rng.randrange(2)
            at = phase[0]
            try:
                status, body = request(bases[i], "POST", f"/v1/games/{game}/throws")
            except (OSError, http.client.HTTPException):
                # No answer (the instance died, or is not back yet): not
                # acknowledged.
                with lock:
                    unacked[i] += 1
                time.sleep(0.05)
                continue
            if status == 201:
                with lock:
                    acked.append((game, body["n"], told(body), i, max(at, phase[0])))
            elif status >= 500:
                with lock:
                    errors.append((i, status, body))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(PG_CLIENTS)]
    for t in threads:
        t.start()
    try:
        time.sleep(PG_PHASE_SECONDS)
        # Mid-load: both instances have batches in flight.
        phase[0] = 1
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait()
        time.sleep(PG_PHASE_SECONDS)
        procs[0], _ = start(binary, db, ports[0], logs[0], "instance 0, restarted")
        phase[0] = 2
        time.sleep(PG_PHASE_SECONDS)
    finally:
        stop.set()
        for t in threads:
            t.join()

    counts = [sum(1 for a in acked if a[4] == p) for p in range(3)]
    on_survivor = sum(1 for a in acked if a[4] == 1 and a[3] == 1)
    if 0 in counts or on_survivor == 0:
        failed.append(
            f"too little load: {counts[0]} throws before the kill, {on_survivor} by instance 1 while "
            f"instance 0 was down, {counts[2]} after its restart"
        )
    by_game = {}
    for game, n, what, _, _ in acked:
        by_game.setdefault(game, {}).setdefault(n, []).append(what)
    for game in games:
        read = [log_of(base, game) for base in bases]
        if [told(m) for m in read[0]] != [told(m) for m in read[1]]:
            failed.append(f"game {game}: the two instances read different logs")
        log = {m["n"]: told(m) for m in read[0]}
        ns = [m["n"] for m in read[0]]
        if ns != list(range(1, len(ns) + 1)):
            failed.append(f"game {game}: move numbers not 1..{len(ns)}")
        answered = by_game.get(game, {})
        twice = sorted(n for n, whats in answered.items() if len(whats) > 1)
        if twice:
            failed.append(f"game {game}: move numbers answered 201 twice: {twice[:10]}")
        lost = sorted(n for n in answered if n not in log)
        if lost:
            failed.append(f"game {game}: acknowledged throws lost: {lost[:10]}")
        other = sorted(n for n, whats in answered.items() if n in log and any(w != log[n] for w in whats))
        if other:
            failed.append(f"game {game}: acknowledged throws logged otherwise than answered: {other[:10]}")
    if errors:
        failed.append(f"{len(errors)} server errors under load: {errors[:3]}")
    print(
        f"durability (PostgreSQL, two instances): {len(acked)} acknowledged throws on {len(games)} games: "
        f"{counts[0]} before instance 0 was killed with SIGKILL mid-load, {counts[1]} while it was down "
        f"({on_survivor} by instance 1), {counts[2]} after its restart; {unacked[0]} + {unacked[1]} throws "
        f"unanswered (connection errors on instance 0 and 1), which may or may not be in the log"
    )


def main():
    args = sys.argv[1:]
    if len(args) == 1 and not args[0].startswith("-"):
        run_sqlite(args[0])
    elif args[:1] == ["--postgres"] and len(args) in (2, 3):
        run_postgres(args[-1], postgres_server(args[1] if len(args) == 3 else None))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
