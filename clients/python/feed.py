"""A typed reader of a game's live feed (`GET /v1/games/{id}/events`), in its
NDJSON framing, for the client openapi-python-client generates: no generator
makes a working reader of a stream, so this is the one hand-written part,
and each event's data is parsed by the generated models (`GameView`,
`MoveView`, `EndView`, `FeedDeletion`).

It resumes with `since` after the last event it yielded, reconnects with
back-off when the connection drops, and ends after `end` or `deleted`, or
when the server answers 204 (a resume at or after the end: nothing more).
A line that is not a `FeedLine` of the document raises `MalformedEvent`.

`parse_all` reads a whole NDJSON body, such as the generated client's
`stream_events` gives with `follow=False` and `Accept: application/x-ndjson`.

    for event in follow("http://127.0.0.1:8080", game_id):
        if isinstance(event, Move):
            print(event.move.caption, event.move.after.to_throw)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import httpx

from zohn_ahl_client.models import Audience, EndView, FeedDeletion, GameView, MoveView


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
    """The game is over (`id`: its final version; `game`: the final game and
    its recap); the feed ends."""

    id: int
    game: EndView


@dataclass(frozen=True)
class Deleted:
    """The game was deleted (`id`: the last move told); the feed ends."""

    id: int
    deletion: FeedDeletion


FeedEvent = Snapshot | Move | End | Deleted


class MalformedEvent(ValueError):
    """A line of the feed that is not a `FeedLine` of the document."""

    def __init__(self, line: str, reason: str) -> None:
        super().__init__(f"a malformed feed event ({reason}): {line[:200]}")
        self.line = line
        self.reason = reason


def parse(line: str) -> FeedEvent:
    """One NDJSON line of the feed, as its event; `MalformedEvent` if it is none."""
    try:
        raw: Any = json.loads(line)
    except ValueError as e:
        raise MalformedEvent(line, "not JSON") from e
    if not isinstance(raw, dict) or not {"event", "id", "data"} <= raw.keys():
        raise MalformedEvent(line, "not an object with event, id and data")
    event, n, data = raw["event"], raw["id"], raw["data"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise MalformedEvent(line, "its id is not a move number")
    if not isinstance(data, dict):
        raise MalformedEvent(line, "its data is not an object")
    # The generated models' from_dict reads every required field: a missing
    # one is a KeyError, a wrong type a TypeError, ValueError (an enum's
    # value) or AttributeError.
    try:
        if event == "snapshot":
            return Snapshot(n, GameView.from_dict(data))
        if event == "move":
            return Move(n, MoveView.from_dict(data))
        if event == "end":
            return End(n, EndView.from_dict(data))
        if event == "deleted":
            return Deleted(n, FeedDeletion.from_dict(data))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise MalformedEvent(line, f"its data is not what `{event}` carries: {e!r}") from e
    raise MalformedEvent(line, f"an unknown event {event!r}")


def parse_all(body: str) -> list[FeedEvent]:
    """Every event of a whole NDJSON body (keep-alive lines skipped)."""
    return [parse(line) for line in body.splitlines() if line.strip()]


def follow(
    base_url: str,
    game_id: str,
    since: int | None = None,
    audience: Audience | None = None,
    backoff: float = 0.5,
    on_retry: Callable[[float, str], None] | None = None,
) -> Generator[FeedEvent, None, None]:
    """Each event of the game's feed, in order and once, until it ends.

    `on_retry(wait, reason)` is told before each wait (seconds) to reconnect.
    A generator: `close()` it to stop following before the end (its
    connection is closed with it)."""
    wait = backoff
    while True:
        params: dict[str, str] = {}
        if since is not None:
            params["since"] = str(since)
        if audience is not None:
            params["audience"] = audience.value
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
                    after = max(float(response.headers.get("retry-after", "5")), wait)
                    if on_retry is not None:
                        on_retry(after, "503: the feeds are full")
                    time.sleep(after)
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
            reason = "the stream closed before the end"
        except httpx.TransportError as e:
            reason = f"no connection: {e!r}"
        # The stream closed without `end`: resume after the last event.
        if on_retry is not None:
            on_retry(wait, reason)
        time.sleep(wait)
        wait = min(wait * 2, 30.0)
