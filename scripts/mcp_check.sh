#!/usr/bin/env bash
# The MCP server as a chatbot client sees it, through the MCP Inspector's
# command line (pinned in clients/mcp-inspector): list the tools in strict
# mode (schema portability problems fail), create a game and throw, over
# stdio (`zohn-ahl mcp`) and over HTTP (`/mcp` of a running server).
#
#   scripts/mcp_check.sh BIN DATABASE_URL [HTTP_BASE]
#
# BIN is the zohn-ahl binary; DATABASE_URL the database the stdio server
# opens; HTTP_BASE (e.g. http://127.0.0.1:8080) a running server to check
# over HTTP too. `npm ci` must have run in clients/mcp-inspector.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1"
db="$2"
base="${3:-}"
inspector="clients/mcp-inspector/node_modules/.bin/inspector"

# The game id in a tools/call answer (the structured content, or the JSON
# the Inspector prints).
game_id() {
  python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["structuredContent"]["game"]["game_id"])'
}

check() {
  local label="$1"; shift
  echo "-- $label: tools/list --strict"
  "$inspector" --cli "$@" --method tools/list --strict > /tmp/mcp-tools.$$.json
  python3 - /tmp/mcp-tools.$$.json <<'EOF'
import json, sys
tools = {t["name"] for t in json.load(open(sys.argv[1]))["tools"]}
want = {"create_game", "throw", "report_throw", "get_game", "list_moves", "stop_game",
        "get_odds", "explain_rule", "get_fact", "get_lesson", "get_source",
        "search_glossary", "get_board"}
missing = want - tools
assert not missing, f"tools missing: {sorted(missing)}"
print(f"   {len(tools)} tools")
EOF
  rm -f /tmp/mcp-tools.$$.json
  echo "-- $label: tools/call create_game, then throw"
  local id
  id="$("$inspector" --cli "$@" --method tools/call --tool-name create_game --tool-arg seed=ci | game_id)"
  "$inspector" --cli "$@" --method tools/call --tool-name throw --tool-arg "game_id=$id" \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); assert not r.get("isError"), r; assert r["structuredContent"]["move"]["n"] == 1, r; print("   " + r["content"][0]["text"].splitlines()[0])'
}

check "stdio" "$bin" mcp --database-url "$db"
if [ -n "$base" ]; then
  check "http" "$base/mcp"
fi
