"""`python3 follow_cli.py URL GAME_ID`: follow a game's feed with `feed.follow`,
one JSON object a line on standard output: each event (`event`, `id`) and
each wait to reconnect (`retry`: seconds, `reason`). The reconnect test
(scripts/feed_reconnect.py) reads it while it kills the server."""

from __future__ import annotations

import json
import sys
import time

from feed import Deleted, End, Move, Snapshot, follow

NAMES = {Snapshot: "snapshot", Move: "move", End: "end", Deleted: "deleted"}


def say(**what: object) -> None:
    print(json.dumps({**what, "at": time.time()}), flush=True)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: follow_cli.py URL GAME_ID")
    base_url, game_id = sys.argv[1], sys.argv[2]
    for event in follow(base_url, game_id, backoff=0.25, on_retry=lambda wait, why: say(retry=wait, reason=why)):
        say(event=NAMES[type(event)], id=event.id)
    say(closed=True)


if __name__ == "__main__":
    main()
