// `tsx src/feed-check.ts`: feed.ts's check of each line, without a server.
// Lines made from the recorded answers of openapi/examples.json (a game, a
// move) are read; each malformed one ends the reader with a
// MalformedFeedEvent.
import { readFileSync } from "node:fs";

import { MalformedFeedEvent, parseFeedLine } from "./feed.js";

const examples: unknown = JSON.parse(readFileSync(new URL("../../../openapi/examples.json", import.meta.url), "utf8"));
function recorded(operation: string): Record<string, unknown> {
  if (typeof examples !== "object" || examples === null || !(operation in examples)) throw new Error(operation);
  const byStatus: unknown = Object.entries(examples).find(([id]) => id === operation)?.[1];
  const answer: unknown =
    typeof byStatus === "object" && byStatus !== null ? Object.entries(byStatus).find(([s]) => s === "200")?.[1] : undefined;
  if (typeof answer !== "object" || answer === null) throw new Error(`${operation}: no 200 example`);
  return { ...answer };
}
const game = recorded("get_game");
const move = recorded("get_move");
const { caption: _dropped, ...moveWithoutCaption } = move;

const good = [
  { event: "snapshot", id: 3, data: game },
  { event: "move", id: 2, data: move },
  { event: "end", id: 4, data: { ...game, recap: null } },
  { event: "deleted", id: 4, data: { id: "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79", reason: "request" } },
];
for (const line of good) {
  const parsed = parseFeedLine(JSON.stringify(line));
  if (parsed.event !== line.event || parsed.id !== line.id) throw new Error(`misread: ${parsed.event}`);
}
const bad: [string, string][] = [
  ["{not json", "not JSON"],
  [JSON.stringify({ event: "move", id: 2 }), "not an object with event, id and data"],
  [JSON.stringify({ event: "move", id: "2", data: move }), "its id is not a move number"],
  [JSON.stringify({ event: "move", id: -1, data: move }), "its id is not a move number"],
  [JSON.stringify({ event: "moved", id: 2, data: move }), "an unknown event"],
  [JSON.stringify({ event: "move", id: 2, data: moveWithoutCaption }), "its data is not a MoveView"],
  [JSON.stringify({ event: "snapshot", id: 2, data: move }), "its data is not a GameView"],
  [JSON.stringify({ event: "deleted", id: 2, data: { id: "x" } }), "its data is not a FeedDeletion"],
  [JSON.stringify({ event: "end", id: 2, data: null }), "its data is not an EndView"],
  [JSON.stringify({ event: "end", id: 2, data: game }), "its data is not an EndView"],
];
for (const [line, reason] of bad) {
  try {
    parseFeedLine(line);
  } catch (error) {
    if (error instanceof MalformedFeedEvent && error.message.includes(reason) && error.line === line) continue;
    throw new Error(`${line}: ${String(error)}`);
  }
  throw new Error(`read as an event: ${line}`);
}
console.log(`feed.ts: ${good.length} lines read, ${bad.length} malformed ones refused with MalformedFeedEvent`);
