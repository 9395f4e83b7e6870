#!/usr/bin/env python3
"""Durability check: kill the real server mid-load, restart it, and check
that nothing it acknowledged was lost.

Starts the server on a fresh SQLite file, drives throws from concurrent
clients on several games (and many on one game), kills the process with
SIGKILL while they run, restarts it and checks that every throw answered
201 is in the move log, that each log runs 1, 2, 3, ... without gaps or
doubles, and (with `zohn-ahl verify`) that every game's state equals the
replay of its moves. Usage: durability.py PATH/TO/zohn-ahl
"""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

CLIENTS = 8
GAMES = 6
LOAD_SECONDS = 2.0


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


def start(binary, db, port, log):
    proc = subprocess.Popen(
        [binary, "--database-url", db, "--addr", f"127.0.0.1:{port}", "--workers", "2"],
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
    sys.exit("durability: the server did not start")


def main():
    binary = sys.argv[1]
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


if __name__ == "__main__":
    main()
