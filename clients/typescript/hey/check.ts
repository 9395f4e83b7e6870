// hey-api's client as generated, checked to type the live feed as it
// yields it: `npx openapi-ts -i DOCUMENT -o hey/client` (CI, from the
// served document; not committed), `tsc -p hey`, then
// `tsx hey/check.ts URL`. `streamEvents` yields each SSE event's `data`,
// parsed; the document's event-stream schema is that data (`FeedData`),
// so the items are typed as what they are, with no cast.
import { client } from "./client/client.gen";
import { createGame, playThrow, stopGame, streamEvents } from "./client/sdk.gen";
import type { EndView, FeedData, FeedDeletion, GameView, MoveView } from "./client/types.gen";

// The compiler's check: the stream's items are the event's data (and
// `undefined` for a 204, which has none), not a framing object.
type Item<S> = S extends AsyncGenerator<infer T, unknown, unknown> ? T : never;
type Streamed = Item<Awaited<ReturnType<typeof streamEvents>>["stream"]>;
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const itemsAreTheData: Same<Exclude<Streamed, void | undefined>, FeedData> = true;
const dataIsTheViews: Same<FeedData, GameView | MoveView | EndView | FeedDeletion> = true;

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
client.setConfig({ baseUrl });

const { data: game, error } = await createGame({ body: { seed: "hey-api-feed" } });
if (game === undefined) throw new Error(`create: ${JSON.stringify(error)}`);
const id = game.id;
for (let i = 0; i < 3; i++) {
  const thrown = await playThrow({ path: { id } });
  if (thrown.data === undefined) throw new Error(`throw: ${JSON.stringify(thrown.error)}`);
}
const stopped = await stopGame({ path: { id } });
if (stopped.data === undefined) throw new Error(`stop: ${JSON.stringify(stopped.error)}`);

/** Every item of the feed as hey-api yields it, and the events' names. */
async function read(since?: number): Promise<{ seen: string[]; names: string[] }> {
  const names: string[] = [];
  const { stream } = await streamEvents({
    path: { id },
    query: since === undefined ? { follow: false } : { follow: false, since },
    sseMaxRetryAttempts: 1,
    onSseEvent: (event) => {
      if (event.event !== undefined) names.push(event.event);
    },
  });
  const seen: string[] = [];
  for await (const item of stream) {
    if (item === undefined) throw new Error("an item without data");
    // Told apart by their own required fields, each typed from the document.
    if ("caption" in item) {
      const move: MoveView = item;
      if (typeof move.n !== "number" || typeof move.after.version !== "number") throw new Error("not a move");
      seen.push(`move ${move.n}`);
    } else if ("reason" in item) {
      const deletion: FeedDeletion = item;
      seen.push(`deleted ${deletion.reason}`);
    } else if ("recap" in item) {
      const end: EndView = item;
      if (typeof end.version !== "number" || end.status !== "finished") throw new Error("not an end");
      seen.push(`end ${end.status}`);
    } else {
      const view: GameView = item;
      if (typeof view.version !== "number" || typeof view.status !== "string") throw new Error("not a game");
      seen.push(`game ${view.status}`);
    }
  }
  return { seen, names };
}

function expect(got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`hey-api's stream: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
}

const whole = await read();
expect(whole, { seen: ["game finished", "end finished"], names: ["snapshot", "end"] });
const resumed = await read(0);
expect(resumed, {
  seen: ["move 1", "move 2", "move 3", "end finished"],
  names: ["move", "move", "move", "end"],
});
console.log(`hey-api: ${[...whole.seen, ...resumed.seen].join(", ")} (${itemsAreTheData && dataIsTheViews ? "typed as the data" : ""})`);
