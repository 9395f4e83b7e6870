"""`python3 feed_check.py`: feed.py's check of each line, without a server
(the generated client on PYTHONPATH). Lines made from the recorded answers
of openapi/examples.json (a game, a move) are read; each malformed one
raises MalformedEvent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from feed import Deleted, End, MalformedEvent, Move, Snapshot, parse, parse_all

EXAMPLES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parent.parent.parent / "openapi/examples.json").read_text()
)


def main() -> None:
    game, move = EXAMPLES["get_game"]["200"], EXAMPLES["get_move"]["200"]
    deletion = {"id": "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79", "reason": "request"}
    good = [
        ({"event": "snapshot", "id": 3, "data": game}, Snapshot),
        ({"event": "move", "id": 2, "data": move}, Move),
        ({"event": "end", "id": 4, "data": {**game, "recap": None}}, End),
        ({"event": "deleted", "id": 4, "data": deletion}, Deleted),
    ]
    for line, kind in good:
        event = parse(json.dumps(line))
        assert isinstance(event, kind) and event.id == line["id"], event
    body = "\n".join(json.dumps(line) for line, _ in good) + "\n\n"
    assert [type(e) for e in parse_all(body)] == [kind for _, kind in good]
    without_caption = {k: v for k, v in move.items() if k != "caption"}
    bad = [
        ("{not json", "not JSON"),
        (json.dumps({"event": "move", "id": 2}), "not an object with event, id and data"),
        (json.dumps({"event": "move", "id": "2", "data": move}), "its id is not a move number"),
        (json.dumps({"event": "move", "id": True, "data": move}), "its id is not a move number"),
        (json.dumps({"event": "moved", "id": 2, "data": move}), "an unknown event"),
        (json.dumps({"event": "move", "id": 2, "data": without_caption}), "its data is not what `move` carries"),
        (json.dumps({"event": "snapshot", "id": 2, "data": move}), "its data is not what `snapshot` carries"),
        (json.dumps({"event": "deleted", "id": 2, "data": {"id": "x"}}), "its data is not what `deleted` carries"),
        (json.dumps({"event": "end", "id": 2, "data": None}), "its data is not an object"),
        (json.dumps({"event": "end", "id": 2, "data": game}), "its data is not what `end` carries"),
    ]
    for text, reason in bad:
        try:
            parse(text)
        except MalformedEvent as e:
            assert reason in str(e) and e.line == text, (text, e)
            continue
        raise AssertionError(f"read as an event: {text}")
    print(f"feed.py: {len(good)} lines read, {len(bad)} malformed ones refused with MalformedEvent")


if __name__ == "__main__":
    main()
