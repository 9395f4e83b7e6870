// `tsx src/follow-cli.ts URL GAME_ID`: follow a game's feed with `follow`,
// one JSON object a line on standard output: each event (`event`, `id`) and
// each wait to reconnect (`retry`: milliseconds, `reason`). The reconnect
// test (scripts/feed_reconnect.py) reads it while it kills the server.
import { follow } from "./feed.js";

const [baseUrl, id] = process.argv.slice(2);
if (baseUrl === undefined || id === undefined) {
  console.error("usage: follow-cli.ts URL GAME_ID");
  process.exit(2);
}
const say = (what: object): void => {
  process.stdout.write(`${JSON.stringify({ ...what, at: Date.now() / 1000 })}\n`);
};
for await (const line of follow(baseUrl, id, {
  backoffMs: 250,
  onRetry: (retry, reason) => say({ retry: retry / 1000, reason }),
})) {
  say({ event: line.event, id: line.id });
}
say({ closed: true });
