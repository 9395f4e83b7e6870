-- wrk script for scripts/load.sh: POSTs throws (or the baseline write) and
-- counts the answers by kind; prints one RESULT line at the end.
--
--   wrk ... -s scripts/load.lua URL -- MODE [GAMES_FILE]
--
-- MODE: "baseline" (POST /bench/baseline), "many" (throws round-robin over
-- the games listed in GAMES_FILE, one id a line), "one" (every throw to the
-- first game of GAMES_FILE; when that game ends, the script creates a new
-- long game and carries on with it).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local ids = {}
local create_body = '{"ruleset":{"options":{"counters_per_side":15}}}'

function init(args)
  mode = args[1] or "many"
  if args[2] then
    for line in io.lines(args[2]) do
      if #line > 0 then ids[#ids + 1] = line end
    end
  end
  ok, conflicts, other, created = 0, 0, 0, 0
  next_game = 0
  one = ids[1]
  need_new, creating = false, false
end

function request()
  if mode == "baseline" then
    return wrk.format("POST", "/bench/baseline")
  end
  if mode == "one" then
    if need_new and not creating then
      creating = true
      return wrk.format("POST", "/v1/games", { ["Content-Type"] = "application/json" }, create_body)
    end
    return wrk.format("POST", "/v1/games/" .. one .. "/throws")
  end
  next_game = next_game % #ids + 1
  return wrk.format("POST", "/v1/games/" .. ids[next_game] .. "/throws")
end

function response(status, headers, body)
  if status == 201 then
    local location = headers["location"] or headers["Location"] or ""
    local game = string.match(location, "^/v1/games/([%x%-]+)$")
    if game then
      created = created + 1
      one = game
      need_new, creating = false, false
    else
      ok = ok + 1
    end
  elseif status == 409 then
    conflicts = conflicts + 1
    if mode == "one" then need_new = true end
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local t_ok, t_conflicts, t_other, t_created = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    t_ok = t_ok + t:get("ok")
    t_conflicts = t_conflicts + t:get("conflicts")
    t_other = t_other + t:get("other")
    t_created = t_created + t:get("created")
  end
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT ok=%d ok_per_s=%.1f conflicts=%d other=%d created=%d requests=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f socket_errors=%d\n",
    t_ok, t_ok / seconds, t_conflicts, t_other, t_created, summary.requests,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout))
end
