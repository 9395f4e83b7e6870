#!/usr/bin/env python3
"""A whole seeded game through the client openapi-python-client generated
from the served document, without an edit to the generated code.

    openapi-python-client generate --url http://127.0.0.1:8080/openapi.json \\
        --config clients/python/config.yaml --meta none --output-path /tmp/zohn_ahl_client
    PYTHONPATH=/tmp python3 clients/python/play.py http://127.0.0.1:8080

The game is seated (the host's token throws) and seeded; every throw is the
empty POST (the server throws); then every page of the move log is read and
parsed into the generated models, and checked against the game's state. Then
a game without seats is thrown, stopped and deleted with the plain `Client`,
and a live board follows a game's feed (feed.py) while another thread throws.
CI also checks this file with `mypy --strict` against the generated package.
"""

import sys
import threading

from feed import End, FeedEvent, Move, Snapshot, follow, parse_all
from zohn_ahl_client import AuthenticatedClient, Client
from zohn_ahl_client.api.games import (
    create_game,
    delete_game,
    get_board_png,
    get_game,
    get_move,
    list_moves,
    play_throw,
    stop_game,
    stream_events,
)
from zohn_ahl_client.api.reference import get_source, get_source_bibtex, list_sources
from zohn_ahl_client.models import (
    CreatedGameView,
    CreateGameRequest,
    GameStatus,
    GameView,
    MovePage,
    MoveView,
    Problem,
    SideRequest,
    SidesRequest,
    StopView,
    ThrowView,
)
from zohn_ahl_client.types import File


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    client = Client(base_url=base, raise_on_unexpected_status=True)
    created = create_game.sync(
        client=client,
        body=CreateGameRequest(
            seed="lesson-4",
            seats=True,
            sides=SidesRequest(a=SideRequest(name="Ama"), b=SideRequest(name="Bea")),
        ),
    )
    assert isinstance(created, CreatedGameView), created
    assert isinstance(created.host_token, str) and created.seat_tokens is not None
    host = AuthenticatedClient(base_url=base, token=created.host_token, raise_on_unexpected_status=True)
    game_id = created.id

    # Play to the end: each throw is the empty POST.
    state: GameView | None = None
    throws = 0
    while state is None or state.status == GameStatus.IN_PROGRESS:
        move = play_throw.sync(game_id, client=host)
        assert isinstance(move, ThrowView), move
        throws += 1
        assert move.n == throws
        state = move.state
    assert state.winner is not None and state.result is not None, state
    print(f"{game_id}: {throws} throws, {state.winner.value} won ({state.result.value}), seed {state.seed}")

    # The state read back is the last throw's.
    read = get_game.sync(game_id, client=client)
    assert isinstance(read, GameView) and read.version == state.version

    # Every page of the move log, parsed by the generated models: the
    # cursor is the previous page's next_cursor, passed as it is.
    cursor: str | None = None
    seen: list[MoveView] = []
    pages = 0
    while True:
        page = list_moves.sync(game_id, client=client, cursor=cursor, limit=7)
        assert isinstance(page, MovePage), page
        pages += 1
        seen.extend(page.items)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert [m.n for m in seen] == list(range(1, throws + 1)), [m.n for m in seen]
    for m in seen:
        assert m.caption and m.narration.segments, m
        assert m.sticks is not None and len(m.sticks) == 4 and m.spinner is None, m
    print(f"move log: {len(seen)} moves in {pages} pages; last: {seen[-1].caption}")
    one = get_move.sync(game_id, 1, client=client)
    assert isinstance(one, MoveView) and one.caption == seen[0].caption

    # The bibliography: CSL-JSON items, and one source.
    sources = list_sources.sync(client=client)
    assert sources is not None and not isinstance(sources, Problem) and sources.items
    cited = {c.source for m in seen for s in m.narration.segments for c in s.citations}
    known = {s.id for s in sources.items}
    assert cited <= known, cited - known
    source = get_source.sync("culin1907", client=client)
    assert source is not None and not isinstance(source, Problem)
    print(f"sources: {len(known)}; culin1907: {source.title}")

    # Delete it: the host's token; a read after is 404.
    gone = delete_game.sync_detailed(game_id, client=host)
    assert gone.status_code == 204, gone
    after = get_game.sync_detailed(game_id, client=Client(base_url=base))
    assert after.status_code == 404 and isinstance(after.parsed, Problem), after

    open_game(base, client)
    live_board(base, client)
    return 0


def live_board(base: str, client: Client) -> None:
    """The feed followed (feed.py) while another thread throws the game to
    its end: every move once and in order, the board kept from each move's
    `after`, and a resume from the end gives nothing more."""
    created = create_game.sync(client=client, body=CreateGameRequest(seed="live-board"))
    assert isinstance(created, CreatedGameView), created
    game_id = created.id

    def throw_to_the_end() -> None:
        while True:
            move = play_throw.sync(game_id, client=client)
            assert isinstance(move, ThrowView), move
            if move.state.status == GameStatus.FINISHED:
                return

    thrower = threading.Thread(target=throw_to_the_end)
    events: list[FeedEvent] = []
    for event in follow(base, game_id):
        if not events:
            thrower.start()
        events.append(event)
    thrower.join()
    assert isinstance(events[0], Snapshot) and isinstance(events[-1], End), events[-1]
    moves = [e for e in events if isinstance(e, Move)]
    assert [m.id for m in moves] == list(range(events[0].id + 1, moves[-1].id + 1))
    last = moves[-1].move.after
    final = events[-1].game
    assert last.version == final.version and last.status == final.status == GameStatus.FINISHED
    assert list(follow(base, game_id, since=events[-1].id)) == []
    print(f"live board: {len(moves)} moves followed, version {last.version}, {last.status.value}")
    gone = delete_game.sync_detailed(game_id, client=client)
    assert gone.status_code == 204, gone


def open_game(base: str, client: Client) -> None:
    """A game without seats, thrown, stopped and deleted through the plain
    client (no token): the document's token is optional, so the generated
    functions take a `Client` as well as an `AuthenticatedClient`
    (`mypy --strict` checks this file)."""
    created = create_game.sync(client=client, body=CreateGameRequest(seed="open-game"))
    assert isinstance(created, CreatedGameView), created
    assert created.host_token is None and created.seat_tokens is None
    game_id = created.id
    for n in range(1, 4):
        move = play_throw.sync(game_id, client=client)
        assert isinstance(move, ThrowView), move
        assert move.n == n and move.after.version == n, move
        assert move.after.status == move.state.status, move
        assert move.after.to_throw == move.state.to_throw, move
    # The board's PNG and a source's BibTeX, each at its own path, typed as
    # bytes and as text.
    png = get_board_png.sync(game_id, client=client)
    assert isinstance(png, File) and png.payload.read(8) == b"\x89PNG\r\n\x1a\n", png
    bibtex = get_source_bibtex.sync("culin1907", client=client)
    assert isinstance(bibtex, str) and bibtex.startswith("@incollection{culin1907,"), bibtex
    stopped = stop_game.sync(game_id, client=client)
    assert isinstance(stopped, StopView), stopped
    assert stopped.state.status == GameStatus.FINISHED, stopped
    # The generated stream_events reads the feed whole, typed as text: with
    # follow=False it is what there is and the end; NDJSON when the client
    # asks for it (feed.parse_all reads it), SSE by default.
    reader = Client(base_url=base, headers={"Accept": "application/x-ndjson"}, raise_on_unexpected_status=True)
    ndjson = stream_events.sync(game_id, client=reader, follow=False)
    assert isinstance(ndjson, str), ndjson
    told = parse_all(ndjson)
    assert [type(e) for e in told] == [Snapshot, End] and told[-1].id == 4, told
    sse = stream_events.sync(game_id, client=client, follow=False)
    assert isinstance(sse, str) and sse.startswith("retry: 2000") and "event: end" in sse, sse
    gone = delete_game.sync_detailed(game_id, client=client)
    assert gone.status_code == 204, gone
    print(f"{game_id}: an open game thrown, stopped, its feed read and deleted with a plain client")


if __name__ == "__main__":
    sys.exit(main())
