"""A typed reader of a game's live feed (`GET /v1/games/{id}/events`), in its
NDJSON framing, for the client openapi-python-client generates: no generator
makes a working reader of a stream, so this is the one hand-written part,
and each event's data is parsed by the generated models (`GameView`,
`MoveView`, `FeedDeletion`).

It resumes with `since` after the last event it yielded, reconnects with
back-off when the connection drops, and ends after `end` or `deleted`, or
when the server answers 204 (a resume at or after the end: nothing more).

    for event in follow("http://127.0.0.1:8080", game_id):
        if isinstance(event, Move):
            print(event.move.caption, event.move.after.to_throw)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx

from zohn_ahl_client.models import FeedDeletion, GameView, MoveView


@dataclass(frozen=True)
class Snapshot:
    """The game as it stood when the feed opened (`id`: its moves so far)."""

    id: int
    game: GameView


@dataclass(frozen=True)
class Move:
    """One move (`id`: its number); `move.after` is the game after it."""

    id: int
    move: MoveView


@dataclass(frozen=True)
class End:
    """The game is over (`id`: its final version); the feed ends."""

    id: int
    game: GameView


@dataclass(frozen=True)
class Deleted:
    """The game was deleted (`id`: the last move told); the feed ends."""

    id: int
    deletion: FeedDeletion


FeedEvent = Snapshot | Move | End | Deleted


def parse(line: str) -> FeedEvent:
    """One NDJSON line of the feed, as its event."""
    raw = json.loads(line)
    event, n, data = raw["event"], int(raw["id"]), raw["data"]
    if event == "snapshot":
        return Snapshot(n, GameView.from_dict(data))
    if event == "move":
        return Move(n, MoveView.from_dict(data))
    if event == "end":
        return End(n, GameView.from_dict(data))
    if event == "deleted":
        return Deleted(n, FeedDeletion.from_dict(data))
    raise ValueError(f"an unknown feed event: {event!r}")


def follow(
    base_url: str,
    game_id: str,
    since: int | None = None,
    audience: str | None = None,
    backoff: float = 0.5,
) -> Iterator[FeedEvent]:
    """Each event of the game's feed, in order and once, until it ends."""
    wait = backoff
    while True:
        params: dict[str, str] = {}
        if since is not None:
            params["since"] = str(since)
        if audience is not None:
            params["audience"] = audience
        url = f"{base_url}/v1/games/{game_id}/events"
        try:
            with httpx.stream(
                "GET",
                url,
                params=params,
                headers={"Accept": "application/x-ndjson"},
                timeout=httpx.Timeout(10.0, read=60.0),
            ) as response:
                if response.status_code == 204:
                    return
                if response.status_code == 503:
                    time.sleep(max(float(response.headers.get("retry-after", "5")), wait))
                    continue
                if response.status_code != 200:
                    response.read()
                    raise RuntimeError(f"the feed of {game_id}: {response.status_code} {response.text}")
                wait = backoff
                for line in response.iter_lines():
                    if not line.strip():
                        continue  # keep-alive
                    event = parse(line)
                    since = event.id
                    yield event
                    if isinstance(event, (End, Deleted)):
                        return
        except httpx.TransportError:
            pass
        # The stream closed without `end`: resume after the last event.
        time.sleep(wait)
        wait = min(wait * 2, 30.0)
