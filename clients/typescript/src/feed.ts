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

export interface FollowOptions {
  /** Resume after this event's `id` (no snapshot); from the start without it. */
  since?: number;
  /** Narrate the moves for this audience. */
  audience?: components["schemas"]["Audience"];
  /** Stop following (the generator then returns). */
  signal?: AbortSignal;
  /** The first wait before reconnecting, doubled up to 30 s (default 500 ms). */
  backoffMs?: number;
}

/** Each event of game `id`'s feed, in order, each once, until the game ends or is deleted. */
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
    } catch {
      if (options.signal?.aborted) return;
      await sleep(wait, options.signal);
      wait = Math.min(wait * 2, 30_000);
      continue;
    }
    if (response.status === 204) return; // nothing more: the game is over
    if (response.status === 503) {
      const after = Number(response.headers.get("retry-after") ?? "5");
      await sleep(Math.max(after * 1000, wait), options.signal);
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
          const line: FeedLine = JSON.parse(text);
          since = line.id;
          yield line;
          if (line.event === "end" || line.event === "deleted") return;
        }
      }
    } catch {
      if (options.signal?.aborted) return;
    }
    // The stream closed without `end` (the server stopped, the network
    // dropped): resume after the last event.
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
