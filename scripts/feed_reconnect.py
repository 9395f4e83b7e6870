#!/usr/bin/env python3
"""The feed readers reconnect: `python3 scripts/feed_reconnect.py BIN`.

Starts the release server BIN on a SQLite file, creates a game, opens both
feed readers on it (`clients/typescript/src/follow-cli.ts` through tsx and
`clients/python/follow_cli.py`, which needs the generated client on
PYTHONPATH), throws from another thread, kills the server with SIGKILL,
waits, starts it again on the same port and file, throws on and stops the
game. Each reader must have waited to reconnect with growing delays while
the server was down, resumed without a gap or a duplicate (a snapshot,
then every move once, in order, up to the last), ended on `end` and closed.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOWN = 3.5  # seconds the server stays down


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(url: str, method: str = "GET", body: object = None) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            text = res.read()
            return res.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, None


def start(bin_path: str, db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [bin_path, "--database-url", f"sqlite://{db}", "--addr", f"127.0.0.1:{port}", "--log", "warn"],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    for _ in range(200):
        try:
            if request(f"http://127.0.0.1:{port}/readyz")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.05)
    server.kill()
    sys.exit(f"the server did not start:\n{log.read_text()}")


class Reader:
    """A reader process and the JSON lines it printed."""

    def __init__(self, name: str, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.name = name
        self.lines: list[dict[str, object]] = []
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(json.loads(line))

    def events(self) -> list[dict[str, object]]:
        return [line for line in list(self.lines) if "event" in line]


def check(reader: Reader, killed_at: float, back_at: float, last_move: int) -> None:
    name, lines = reader.name, reader.lines
    events = reader.events()
    assert events and events[0]["event"] == "snapshot", f"{name}: no snapshot first: {events[:2]}"
    first = int(str(events[0]["id"]))
    moves = [int(str(e["id"])) for e in events if e["event"] == "move"]
    assert moves == list(range(first + 1, last_move + 1)), f"{name}: a gap or a duplicate: {moves}"
    assert events[-1]["event"] == "end", f"{name}: did not end on `end`: {events[-3:]}"
    assert [e["event"] for e in events[1:-1]] == ["move"] * len(moves), f"{name}: {events}"
    assert lines[-1].get("closed") is True, f"{name}: did not close after `end`: {lines[-2:]}"
    # The waits while the server was down: each longer than the one before.
    retries = [line for line in lines if "retry" in line and killed_at <= float(str(line["at"])) <= back_at + 0.5]
    waits = [float(str(line["retry"])) for line in retries]
    assert len(waits) >= 3, f"{name}: too few waits to reconnect while the server was down: {retries}"
    assert all(b > a for a, b in zip(waits, waits[1:])), f"{name}: the waits do not grow: {waits}"
    times = [float(str(line["at"])) for line in retries]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(b > a for a, b in zip(gaps, gaps[1:])), f"{name}: the time between tries does not grow: {gaps}"
    resumed = [line for line in lines if "event" in line and float(str(line["at"])) > back_at]
    assert resumed, f"{name}: nothing read after the restart"
    print(f"   {name}: snapshot at {first}, moves {first + 1}..{last_move} once each, end; waits {waits}")


def main() -> None:
    bin_path = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/zohn-ahl")
    work = Path(tempfile.mkdtemp())
    db, port, log = str(work / "feed.db"), free_port(), work / "server.log"
    base = f"http://127.0.0.1:{port}"
    server = start(bin_path, db, port, log)
    readers: list[Reader] = []
    try:
        status, game = request(f"{base}/v1/games", "POST", {"seed": "ci-feed-reconnect"})
        assert status == 201 and isinstance(game, dict), status
        gid = str(game["id"])
        for _ in range(3):
            assert request(f"{base}/v1/games/{gid}/throws", "POST")[0] == 201
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in [env.get("PYTHONPATH", ""), str(ROOT / "clients/python")] if p)
        readers = [
            Reader("feed.ts", ["npx", "tsx", "src/follow-cli.ts", base, gid], ROOT / "clients/typescript", env),
            Reader("feed.py", [sys.executable, "follow_cli.py", base, gid], ROOT / "clients/python", env),
        ]
        deadline = time.time() + 60
        while not all(r.events() for r in readers):
            assert time.time() < deadline, "a reader did not open the feed"
            time.sleep(0.05)

        # Another thread throws all along, the server down or not.
        stop = threading.Event()

        def throw() -> None:
            while not stop.is_set():
                try:
                    request(f"{base}/v1/games/{gid}/throws", "POST")
                except OSError:
                    pass
                time.sleep(0.15)

        thrower = threading.Thread(target=throw, daemon=True)
        thrower.start()
        time.sleep(1.0)
        killed_at = time.time()
        server.kill()
        server.wait()
        time.sleep(DOWN)
        back_at = time.time()
        server = start(bin_path, db, port, log)
        time.sleep(1.5)
        stop.set()
        thrower.join()
        status, _ = request(f"{base}/v1/games/{gid}/stop", "POST")
        assert status in (200, 201, 409), f"stop: {status}"
        status, final = request(f"{base}/v1/games/{gid}")
        assert status == 200 and isinstance(final, dict)
        last_move = int(final["throws"])
        for reader in readers:
            reader.proc.wait(timeout=60)
            reader.thread.join(timeout=5)
            check(reader, killed_at, back_at, last_move)
        print(f"   both readers: {last_move} moves, the server killed for {DOWN} s and started again")
    finally:
        for reader in readers:
            if reader.proc.poll() is None:
                reader.proc.kill()
        server.kill()


if __name__ == "__main__":
    main()
