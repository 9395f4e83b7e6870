#!/usr/bin/env python3
"""A flood from one address, and the others do not notice.

Starts the release server (the binary given) on a fresh SQLite file with
its default limits per client address. A class's address (127.0.0.2) plays
throws at a steady pace, first alone, then while another address
creates games as fast as four connections can; three rounds of that, each
flood from an address of its own. Checks that:

- in every round, the flooding address is limited: past its minute's
  worth of games it is answered 429 problem details of type
  /problems/rate-limited with Retry-After, and it creates no more than
  the limit allows;
- in at least two rounds of three, the class's throws keep their p99
  latency within 2x of the same round's unloaded run's (one disturbance
  from elsewhere on a shared machine does not fail the check; a floor of
  5 ms stands for "unloaded": below it, loopback timing on a shared
  two-core machine is noise);
- nothing acknowledged is lost: every game answered 201 is there, and the
  class's game holds every throw answered 201.

The flooding client runs in a process of its own at the lowest CPU
priority (nice 19): on this one machine it stands for a client elsewhere,
so that what is measured is what the server spends on the flood, not the
flooding script's own CPU.

Usage: scripts/flood.py target/release/zohn-ahl
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

CLASS = "127.0.0.2"
# One flooding address a round, each with its own minute's worth of games.
FLOODERS = ["127.0.0.1", "127.0.0.4", "127.0.0.5"]
PACE = 40  # the class's throws a second
THROWS = 400  # a run's throws
FLOOD_CONNECTIONS = 4
GAMES_PER_MINUTE = 60
FLOOR_MS = 5.0


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Client:
    def __init__(self, port, source):
        self.port = port
        self.source = source
        self.conn = None

    def request(self, method, path, body=None):
        for _ in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
                )
            try:
                headers = {"content-type": "application/json"} if body is not None else {}
                self.conn.request(method, path, body=body, headers=headers)
                res = self.conn.getresponse()
                data = res.read()
                return res.status, dict(res.getheaders()), data
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
        raise RuntimeError(f"{method} {path}: no answer")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def class_run(client, state):
    """THROWS throws at PACE a second (a new game when one ends); their
    latencies in ms."""
    latencies = []
    start = time.monotonic()
    for i in range(THROWS):
        due = start + i / PACE
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        t0 = time.perf_counter()
        status, _, body = client.request("POST", f"/v1/games/{state['game']}/throws")
        latencies.append((time.perf_counter() - t0) * 1000)
        if status != 201:
            raise SystemExit(f"the class's throw was answered {status}: {body[:300]!r}")
        state["acked"][state["game"]] = state["acked"].get(state["game"], 0) + 1
        if json.loads(body)["after"]["status"] == "finished":
            new_game(client, state)
    return latencies


def new_game(client, state):
    status, _, body = client.request("POST", "/v1/games", b"{}")
    if status != 201:
        raise SystemExit(f"the class could not create a game: {status} {body[:300]!r}")
    state["game"] = json.loads(body)["id"]


def flood(port, address, stop, result):
    client = Client(port, address)
    while not stop.is_set():
        status, headers, body = client.request("POST", "/v1/games", b"{}")
        if status == 201:
            result["created"].append(json.loads(body)["id"])
        elif status == 429:
            result["refused"] += 1
            if result["sample"] is None:
                result["sample"] = (headers, body)
        else:
            result["other"].append(status)


def flood_process(port, seconds, address):
    """The flood, from a process of its own at the lowest priority: its
    result as one line of JSON on standard output."""
    os.nice(19)
    stop = threading.Event()
    result = {"created": [], "refused": 0, "sample": None, "other": []}
    threads = [
        threading.Thread(target=flood, args=(port, address, stop, result)) for _ in range(FLOOD_CONNECTIONS)
    ]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    if result["sample"] is not None:
        headers, body = result["sample"]
        result["sample"] = [headers, body.decode()]
    print(json.dumps(result))


def main():
    if sys.argv[1] == "--flood":
        flood_process(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
        return
    binary = sys.argv[1]
    work = tempfile.mkdtemp()
    port = free_port()
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(
        [
            binary,
            "--database-url", f"sqlite://{work}/flood.db",
            "--addr", f"127.0.0.1:{port}",
            "--log", "warn",
            "--limit-games-per-minute", str(GAMES_PER_MINUTE),
            "--limit-throws-per-second", "50",
        ],
        stdout=log,
        stderr=log,
    )
    try:
        for _ in range(200):
            try:
                if Client(port, FLOODERS[0]).request("GET", "/readyz")[0] == 200:
                    break
            except (OSError, RuntimeError):
                pass
            time.sleep(0.05)
        client = Client(port, CLASS)
        state = {"acked": {}}
        new_game(client, state)
        class_run(client, state)  # warm up

        failures = []
        created = []
        ratios_within = 0
        for round_no, flooder_address in enumerate(FLOODERS, start=1):
            alone = class_run(client, state)
            # The class's run takes THROWS / PACE seconds; the flood starts
            # a second before it and ends a second after.
            seconds = THROWS / PACE + 2
            flooder = subprocess.Popen(
                [sys.executable, __file__, "--flood", str(port), str(seconds), flooder_address],
                stdout=subprocess.PIPE,
            )
            flood_start = time.monotonic()
            time.sleep(1)  # the flood under way
            loaded = class_run(client, state)
            out, _ = flooder.communicate(timeout=120)
            flood_seconds = time.monotonic() - flood_start
            result = json.loads(out)
            created += result["created"]

            p99_alone, p99_loaded = percentile(alone, 0.99), percentile(loaded, 0.99)
            bound = 2 * max(p99_alone, FLOOR_MS)
            within = p99_loaded <= bound
            ratios_within += within
            print(f"round {round_no} (flood from {flooder_address}):")
            print(f"  class alone:   p50 {percentile(alone, 0.5):.2f} ms, p99 {p99_alone:.2f} ms ({len(alone)} throws at {PACE}/s)")
            print(f"  class flooded: p50 {percentile(loaded, 0.5):.2f} ms, p99 {p99_loaded:.2f} ms: "
                  + ("within" if within else "past") + f" {bound:.2f} ms")
            print(
                f"  flood: {len(result['created'])} games created, {result['refused']} refused 429 "
                f"in {flood_seconds:.1f} s over {FLOOD_CONNECTIONS} connections; other answers: {result['other']}"
            )
            # The limit holds in every round: these are not timings.
            if result["other"]:
                failures.append(f"round {round_no}: the flood got answers other than 201 and 429: {set(result['other'])}")
            allowed = GAMES_PER_MINUTE + GAMES_PER_MINUTE * flood_seconds / 60 + 1
            if len(result["created"]) > allowed:
                failures.append(f"round {round_no}: the flooder created {len(result['created'])} games, more than {allowed:.0f}")
            if result["refused"] == 0 or result["sample"] is None:
                failures.append(f"round {round_no}: the flooder was never refused")
            else:
                headers, body = result["sample"]
                problem = json.loads(body)
                retry = {k.lower(): v for k, v in headers.items()}.get("retry-after")
                if not problem.get("type", "").endswith("/rate-limited") or not retry:
                    failures.append(f"round {round_no}: a refusal without its problem type or Retry-After: {headers} {body!r}")
        # The timing holds in most rounds: one disturbance from elsewhere on
        # a shared machine (a round's unloaded p99 has been seen at 22 ms
        # where its p50 was 1.2 ms) is not the flood's doing.
        needed = len(FLOODERS) // 2 + 1
        if ratios_within < needed:
            failures.append(
                f"the class's flooded p99 stayed within 2x of its unloaded run in {ratios_within} of "
                f"{len(FLOODERS)} rounds, fewer than {needed}"
            )
        # Nothing acknowledged is lost.
        reader = Client(port, "127.0.0.3")
        for game in created:
            if reader.request("GET", f"/v1/games/{game}")[0] != 200:
                failures.append(f"an acknowledged game is missing: {game}")
                break
        for game, acked in state["acked"].items():
            status, _, body = reader.request("GET", f"/v1/games/{game}")
            if status != 200 or json.loads(body)["throws"] != acked:
                failures.append(f"game {game}: {acked} throws acknowledged, the game holds {body[:200]!r}")
        if failures:
            for f in failures:
                print("FAIL:", f)
            sys.exit(1)
        print(
            f"ok: the flood was limited in every round, the class's p99 stayed within 2x in "
            f"{ratios_within} of {len(FLOODERS)} rounds, nothing acknowledged was lost"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
