// Every operation of the Zohn Ahl API through openapi-fetch, typed by the
// types openapi-typescript generated from the served document (src/api.d.ts):
// no casts, no non-null assertions on the API's data. The live feed through
// the small typed reader of src/feed.ts, as a live board.
//
//   ZOHN_AHL_URL=http://127.0.0.1:8080 npm run example
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";
import { follow, type FeedLine } from "./feed.js";

type Game = components["schemas"]["GameView"];
type Move = components["schemas"]["MoveView"];
type Event = components["schemas"]["EventView"];

const base = process.env.ZOHN_AHL_URL ?? "http://127.0.0.1:8080";
// One client per media type: each operation's answer is typed by the
// content it is asked for (JSON; BibTeX; the board's SVG and PNG; the feed's
// SSE). Each media type but the feed's has operations of its own.
const api = createClient<paths, "application/json" | "application/problem+json">({ baseUrl: base });
const bib = createClient<paths, "application/x-bibtex">({ baseUrl: base });
const svg = createClient<paths, "image/svg+xml">({ baseUrl: base });
const png = createClient<paths, "image/png">({ baseUrl: base });
const sse = createClient<paths, "text/event-stream">({ baseUrl: base });

/** What a call answered, or an error naming the operation and the problem. */
function ok<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/** One event in words: the switch is exhaustive over the event kinds. */
function said(event: Event): string {
  switch (event.kind) {
    case "moved":
      return `moved ${event.steps} from ${event.from} to ${event.to}`;
    case "passed_north_creek":
      return "passed the north creek";
    case "completed_circuit":
      return `circuit ${event.circuits}`;
    case "fell_into_creek":
      return `fell into the ${event.creek} creek`;
    case "whipped":
      return `whipped ${event.victim}`;
    case "counter_paid":
      return `${event.payer} paid ${event.payee} (${event.reason})`;
    case "counter_unpaid":
      return `${event.payer} owed ${event.payee} (${event.reason})`;
    case "forced_pass":
      return `could not play ${event.value}`;
    case "landed_on_dry_branch":
      return "landed on a dry branch";
    case "lost_throw":
      return event.extra_throw_lost ? "lost the extra throw" : "loses the next turn";
    case "crossed_dry_branch":
      return `crossed from ${event.from} to ${event.to}`;
    case "turn_skipped":
      return `${event.seat.name} skips a turn`;
    case "throws_again":
      return `${event.seat.name} throws again`;
    case "turn_passed":
      return `over to ${event.seat.name}`;
    case "won":
      return `${event.side} won (${event.reason})`;
    case "drawn":
      return "a draw";
    default: {
      const never: never = event;
      return never;
    }
  }
}

function finished(game: Game): boolean {
  switch (game.status) {
    case "finished":
      return true;
    case "in_progress":
      return false;
  }
}

async function main(): Promise<void> {
  // Health and reference data.
  console.log("health:", ok("check_health", await api.GET("/healthz")).status);
  console.log("ready:", ok("check_readiness", await api.GET("/readyz")).status);
  const tables = ok("list_throw_tables", await api.GET("/v1/sticks")).items;
  console.log("throw tables:", tables.map((t) => t.id).join(", "));
  const rulesets = ok("list_rulesets", await api.GET("/v1/rulesets"));
  for (const option of rulesets.options) {
    const shown: string = option.default === null ? "off" : String(option.default);
    console.log(`option ${option.name} = ${shown}`);
  }
  const lesson = ok(
    "get_ruleset",
    await api.GET("/v1/rulesets/{preset}", {
      params: { path: { preset: "a4" }, query: { audience: "young" } },
    }),
  );
  console.log("lesson sections:", lesson.sections.length);
  const emptyBoard = ok(
    "get_ruleset_board",
    await svg.GET("/v1/rulesets/{preset}/board.svg", {
      params: { path: { preset: "composite" } },
      parseAs: "text",
    }),
  );
  const emptyPng = ok(
    "get_ruleset_board_png",
    await png.GET("/v1/rulesets/{preset}/board.png", {
      params: { path: { preset: "composite" } },
      parseAs: "arrayBuffer",
    }),
  );
  console.log("empty board:", emptyBoard.length, "bytes of SVG,", emptyPng.byteLength, "of PNG");
  let statistics = await api.GET("/v1/rulesets/{preset}/statistics", {
    params: { path: { preset: "composite" } },
  });
  for (let tries = 0; statistics.response.status === 503 && tries < 60; tries++) {
    await new Promise((done) => setTimeout(done, 1000));
    statistics = await api.GET("/v1/rulesets/{preset}/statistics", {
      params: { path: { preset: "composite" } },
    });
  }
  console.log(
    "first side wins:",
    ok("get_ruleset_statistics", statistics).first_side_win_probability,
  );
  const sources = ok("list_sources", await api.GET("/v1/sources")).items;
  for (const source of sources.slice(0, 3)) {
    const authors = (source.author ?? []).map((a) => a.family ?? a.literal ?? "").join(", ");
    console.log(`source ${source.id}: ${source.title} (${authors}; ${source.custom.rights})`);
  }
  const culin = ok(
    "get_source",
    await api.GET("/v1/sources/{id}", { params: { path: { id: "culin1907" } } }),
  );
  console.log("source:", culin.title, culin.issued?.["date-parts"][0]?.[0] ?? "undated");
  const bibtex = ok("list_sources_bibtex", await bib.GET("/v1/sources.bib", { parseAs: "text" }));
  const culinBib = ok(
    "get_source_bibtex",
    await bib.GET("/v1/sources/{id}.bib", { params: { path: { id: "culin1907" } }, parseAs: "text" }),
  );
  console.log("BibTeX:", bibtex.split("\n")[0], "|", culinBib.split("\n")[0]);
  const terms = ok("list_glossary_terms", await api.GET("/v1/glossary")).items;
  const term = ok(
    "get_glossary_term",
    await api.GET("/v1/glossary/{term}", { params: { path: { term: "zohn" } } }),
  );
  console.log(`glossary: ${terms.length} terms; zohn: ${term.meaning}`);
  const facts = ok("list_facts", await api.GET("/v1/facts")).items;
  const fact = ok(
    "get_fact",
    await api.GET("/v1/facts/{id}", { params: { path: { id: facts[0]?.id ?? "womens-game" } } }),
  );
  console.log(`facts: ${facts.length}; first: ${fact.text.general.slice(0, 60)}...`);
  const rules = ok("list_rules", await api.GET("/v1/rules", { params: { query: { preset: "a4" } } }));
  const rule = ok(
    "get_rule",
    await api.GET("/v1/rules/{id}", { params: { path: { id: "whip" } } }),
  );
  console.log(`rules: ${rules.items.length}; whip: ${rule.statement.general.slice(0, 60)}...`);

  // A seeded game, played to the end with empty throws.
  const created = ok(
    "create_game",
    await api.POST("/v1/games", {
      body: { seed: "lesson-4", sides: { a: { name: "Ama" }, b: { name: "Bea" } } },
    }),
  );
  const id = created.id;
  console.log(`game ${id}: tokens ${created.seat_tokens === null ? "none" : "given"}`);
  const params = { params: { path: { id } } };
  let game: Game = ok("get_game", await api.GET("/v1/games/{id}", params));
  let last: Move | null = null;
  while (!finished(game)) {
    const thrown = ok("play_throw", await api.POST("/v1/games/{id}/throws", params));
    // Every move says how the game stands after it (as the feed's do).
    if (thrown.after.version !== thrown.state.version || thrown.after.status !== thrown.state.status) {
      throw new Error(`move ${thrown.n}: after ${JSON.stringify(thrown.after)}`);
    }
    last = thrown;
    game = thrown.state;
  }
  const winner = game.winner ?? "nobody";
  console.log(`finished after ${game.throws} throws: ${game.result ?? "?"}, ${winner} won`);
  if (last !== null) console.log("last move:", last.caption, "|", last.events.map(said).join("; "));

  // Every page of the move log: next_cursor goes back as cursor as it is.
  let cursor: string | null = null;
  let logged = 0;
  do {
    const page: components["schemas"]["MovePage"] = ok(
      "list_moves",
      await api.GET("/v1/games/{id}/moves", {
        params: { path: { id }, query: { cursor, limit: 100, audience: "young" } },
      }),
    );
    logged += page.items.length;
    cursor = page.next_cursor;
  } while (cursor !== null);
  console.log("moves logged:", logged);
  const first = ok(
    "get_move",
    await api.GET("/v1/games/{id}/moves/{n}", { params: { path: { id, n: 1 } } }),
  );
  console.log("move 1:", first.caption, first.sticks?.join(" ") ?? first.spinner ?? "");
  const board = ok("get_board", await svg.GET("/v1/games/{id}/board.svg", { ...params, parseAs: "text" }));
  const moveBoard = ok(
    "get_move_board",
    await svg.GET("/v1/games/{id}/moves/{n}/board.svg", {
      params: { path: { id, n: 1 } },
      parseAs: "text",
    }),
  );
  const boardPng = ok("get_board_png", await png.GET("/v1/games/{id}/board.png", { ...params, parseAs: "arrayBuffer" }));
  const moveBoardPng = ok(
    "get_move_board_png",
    await png.GET("/v1/games/{id}/moves/{n}/board.png", {
      params: { path: { id, n: 1 } },
      parseAs: "arrayBuffer",
    }),
  );
  console.log("boards:", board.length, moveBoard.length, "bytes of SVG;", boardPng.byteLength, moveBoardPng.byteLength, "of PNG");
  const feed = ok(
    "stream_events",
    await sse.GET("/v1/games/{id}/events", {
      params: { path: { id }, query: { follow: false } },
      parseAs: "text",
    }),
  );
  console.log("feed:", feed.split("\n").filter((l) => l.startsWith("event:")).length, "events");

  // A live board: the feed followed while the game is thrown to its end;
  // each move's `after` keeps the board without reading the game again.
  await liveBoard();

  // A seated game: the host's token throws, reports, asks the odds, stops.
  const seated = ok("create_game", await api.POST("/v1/games", { body: { seats: true } }));
  if (seated.host_token === null) throw new Error("a seated game gives a host token");
  const host = { Authorization: `Bearer ${seated.host_token}` };
  const at = { params: { path: { id: seated.id } }, headers: host };
  const reported = ok(
    "play_throw (reported)",
    await api.POST("/v1/games/{id}/throws", { ...at, body: { sticks: ["flat", "round", "flat", "flat"] } }),
  );
  console.log("reported:", reported.origin, reported.value);
  const odds = await api.GET("/v1/games/{id}/odds", { params: { path: { id: seated.id } } });
  if (odds.data !== undefined) {
    for (const side of odds.data.sides) console.log(`odds ${side.side}: ${side.win_probability}`);
  } else {
    console.log("odds: not now,", odds.response.status);
  }
  const fairness = ok(
    "get_game_fairness",
    await api.GET("/v1/games/{id}/fairness", { params: { path: { id: seated.id } } }),
  );
  const classFairness = ok(
    "get_class_fairness",
    await api.GET("/v1/fairness", { params: { query: { game: [seated.id, id] } } }),
  );
  console.log("fairness tests:", fairness.tests.length, classFairness.tests.length);
  const stopped = ok("stop_game", await api.POST("/v1/games/{id}/stop", at));
  console.log("stopped:", stopped.state.status, stopped.state.result ?? "");

  // Delete both; a read after is 404.
  const gone = await api.DELETE("/v1/games/{id}", params);
  const goneSeated = await api.DELETE("/v1/games/{id}", at);
  for (const answer of [gone, goneSeated]) {
    if (answer.response.status !== 204) throw new Error(`delete_game: ${answer.response.status}`);
  }
  const after = await api.GET("/v1/games/{id}", params);
  if (after.error === undefined) throw new Error("a deleted game is still served");
  console.log("deleted:", after.error.type);
}

async function liveBoard(): Promise<void> {
  const live = ok("create_game", await api.POST("/v1/games", { body: { seed: "live-board" } }));
  const at = { params: { path: { id: live.id } } };
  const seen: FeedLine[] = [];
  const reading = (async () => {
    for await (const line of follow(base, live.id)) seen.push(line);
  })();
  let state: Game = live;
  while (!finished(state)) {
    state = ok("play_throw", await api.POST("/v1/games/{id}/throws", at)).state;
  }
  await reading;
  let board: { version: number; status: Game["status"]; moves: number } = {
    version: 0,
    status: "in_progress",
    moves: 0,
  };
  for (const line of seen) {
    switch (line.event) {
      case "snapshot":
        board = { version: line.data.version, status: line.data.status, moves: line.id };
        break;
      case "move":
        if (line.id !== board.moves + 1) throw new Error(`feed: move ${line.id} after ${board.moves}`);
        board = { version: line.data.after.version, status: line.data.after.status, moves: line.id };
        break;
      case "end":
      case "deleted":
        break;
    }
  }
  const end = seen[seen.length - 1];
  if (end?.event !== "end" || board.version !== state.version || board.status !== state.status) {
    throw new Error(`feed: ended with ${JSON.stringify(end)}; board ${JSON.stringify(board)}`);
  }
  // Resuming from the end: nothing more (the server answers 204).
  let more = 0;
  for await (const _ of follow(base, live.id, { since: end.id })) more += 1;
  if (more !== 0) throw new Error(`feed: ${more} events after the end`);
  console.log(`live board: ${board.moves} moves followed, version ${board.version}, ${board.status}`);
  const gone = await api.DELETE("/v1/games/{id}", at);
  if (gone.response.status !== 204) throw new Error(`delete_game: ${gone.response.status}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
