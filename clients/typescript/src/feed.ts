// A typed reader of a game's live feed (`GET /v1/games/{id}/events`), in its
// NDJSON framing: one `FeedLine` (the document's schema) a line. No generator
// makes a working reader of a stream, so this is the one hand-written part
// of the client, and it is typed by the generated types alone.
//
// It resumes with `since` after the last event it yielded, reconnects with
// back-off when the connection drops, and ends after `end` or `deleted`, or
// when the server answers 204 (a resume at or after the end: nothing more).
import type { components } from "./api.js";

export type FeedLine = components["schemas"]["FeedLine"];
type GameView = components["schemas"]["GameView"];
type MoveView = components["schemas"]["MoveView"];
type EndView = components["schemas"]["EndView"];
type FeedDeletion = components["schemas"]["FeedDeletion"];

/** A line of the feed that is not a `FeedLine` of the document (`line`: as received). */
export class MalformedFeedEvent extends Error {
  constructor(
    readonly line: string,
    reason: string,
  ) {
    super(`a malformed feed event (${reason}): ${line.slice(0, 200)}`);
    this.name = "MalformedFeedEvent";
  }
}

/** The keys `T` requires: the compiler checks each list below against the generated schema. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Keys<T> = Record<RequiredKeys<T>, true>;

const gameKeys: Keys<GameView> = {
  audience: true, created_at: true, detail: true, extra_throw_pending: true, id: true, links: true,
  result: true, ruleset: true, seated: true, seed: true, sides: true, sides_report_throws: true,
  status: true, throws: true, to_throw: true, updated_at: true, version: true, winner: true,
};
const moveKeys: Keys<MoveView> = {
  after: true, caption: true, chances: true, counters: true, events: true, flat_faces: true,
  from: true, n: true, narration: true, origin: true, player: true, probability: true,
  sahe_flat: true, side: true, spinner: true, sticks: true, throws_again: true, to: true,
  value: true,
};
const endKeys: Keys<EndView> = { ...gameKeys, recap: true };
const deletionKeys: Keys<FeedDeletion> = { id: true, reason: true };

/** Whether `value` is an object with every key `keys` lists. */
function has<T>(value: unknown, keys: Keys<T>): value is T {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.keys(keys).every((key) => key in value);
}

/** One line of the NDJSON feed, checked against the document's `FeedLine` (its data's required fields). */
export function parseFeedLine(text: string): FeedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedFeedEvent(text, "not JSON");
  }
  if (typeof value !== "object" || value === null || !("event" in value) || !("id" in value) || !("data" in value)) {
    throw new MalformedFeedEvent(text, "not an object with event, id and data");
  }
  const { event, id, data } = value;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 0) {
    throw new MalformedFeedEvent(text, "its id is not a move number");
  }
  switch (event) {
    case "snapshot":
      if (has<GameView>(data, gameKeys)) return { event, id, data };
      throw new MalformedFeedEvent(text, `its data is not a GameView`);
    case "end":
      if (has<EndView>(data, endKeys)) return { event, id, data };
      throw new MalformedFeedEvent(text, `its data is not an EndView`);
    case "move":
      if (has<MoveView>(data, moveKeys)) return { event, id, data };
      throw new MalformedFeedEvent(text, `its data is not a MoveView`);
    case "deleted":
      if (has<FeedDeletion>(data, deletionKeys)) return { event, id, data };
      throw new MalformedFeedEvent(text, `its data is not a FeedDeletion`);
    default:
      throw new MalformedFeedEvent(text, `an unknown event ${JSON.stringify(event)}`);
  }
}

export interface FollowOptions {
  /** Resume after this event's `id` (no snapshot); from the start without it. */
  since?: number;
  /** Narrate the moves for this audience. */
  audience?: components["schemas"]["Audience"];
  /** Stop following (the generator then returns). */
  signal?: AbortSignal;
  /** The first wait before reconnecting, doubled up to 30 s (default 500 ms). */
  backoffMs?: number;
  /** Told before each wait to reconnect: the wait, in milliseconds, and why. */
  onRetry?: (waitMs: number, reason: string) => void;
}

/**
 * Each event of game `id`'s feed, in order, each once, until the game ends or is deleted.
 * A line that is not a `FeedLine` ends it with a `MalformedFeedEvent`.
 */
export async function* follow(
  baseUrl: string,
  id: string,
  options: FollowOptions = {},
): AsyncGenerator<FeedLine, void, void> {
  let since = options.since;
  let wait = options.backoffMs ?? 500;
  while (!options.signal?.aborted) {
    const url = new URL(`/v1/games/${encodeURIComponent(id)}/events`, baseUrl);
    if (since !== undefined) url.searchParams.set("since", String(since));
    if (options.audience !== undefined) url.searchParams.set("audience", options.audience);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: "application/x-ndjson" },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      options.onRetry?.(wait, `no connection: ${String(error)}`);
      await sleep(wait, options.signal);
      wait = Math.min(wait * 2, 30_000);
      continue;
    }
    if (response.status === 204) return; // nothing more: the game is over
    if (response.status === 503) {
      const after = Math.max(Number(response.headers.get("retry-after") ?? "5") * 1000, wait);
      options.onRetry?.(after, "503: the feeds are full");
      await sleep(after, options.signal);
      continue;
    }
    if (!response.ok || response.body === null) {
      throw new Error(`the feed of ${id}: ${response.status} ${await response.text()}`);
    }
    wait = options.backoffMs ?? 500;
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true });
        let newline = buffered.indexOf("\n");
        while (newline >= 0) {
          const text = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf("\n");
          if (text === "") continue; // keep-alive
          const line = parseFeedLine(text);
          since = line.id;
          yield line;
          if (line.event === "end" || line.event === "deleted") return;
        }
      }
    } catch (error) {
      if (error instanceof MalformedFeedEvent) throw error;
      if (options.signal?.aborted) return;
    }
    // The stream closed without `end` (the server stopped, the network
    // dropped): resume after the last event.
    options.onRetry?.(wait, "the stream closed before the end");
    await sleep(wait, options.signal);
    wait = Math.min(wait * 2, 30_000);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      done();
    });
  });
}
