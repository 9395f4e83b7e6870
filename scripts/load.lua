-- wrk script for scripts/load.sh: POSTs throws (or the baseline write) and
-- counts the answers by kind; prints one RESULT line at the end.
--
--   wrk ... -s scripts/load.lua URL -- MODE [GAMES_FILE [CLIENTS]]
--
-- MODE: "baseline" (POST /bench/baseline), "many" (throws round-robin over
-- the games listed in GAMES_FILE, one id a line), "split" (as "many", but
-- with several targets each thread, so each server, takes its own share of
-- the games: every game played through one instance), "one" (every throw to
-- one game: the first of GAMES_FILE, then, when it ends (409), the next).
-- CLIENTS: the number of connections (for "one": after a switch, that many
-- answers may still be for the old game).

local threads = {}

-- LOAD_TARGETS (environment), "host:port,host:port": each wrk thread in
-- turn sends to the next of these servers instead of URL's (several
-- instances on one database; wrk adds up their answers and latencies).
local targets = {}
for target in string.gmatch(os.getenv("LOAD_TARGETS") or "", "[^,]+") do
  targets[#targets + 1] = target
end

function setup(thread)
  thread:set("thread_index", #threads)
  thread:set("thread_count", math.max(#targets, 1))
  if #targets > 0 then
    local host, port = targets[#threads % #targets + 1]:match("^(.+):(%d+)$")
    thread.addr = wrk.lookup(host, port)[1]
  end
  table.insert(threads, thread)
end

local ids = {}

function init(args)
  mode = args[1] or "many"
  clients = tonumber(args[3] or "1")
  if args[2] then
    local i = 0
    for line in io.lines(args[2]) do
      if #line > 0 then
        -- "split": this thread's share, every thread_count-th game.
        if mode ~= "split" or i % thread_count == thread_index % thread_count then
          ids[#ids + 1] = line
        end
        i = i + 1
      end
    end
  end
  ok, conflicts, other = 0, 0, 0
  next_game = 0
  one = 1
  since_switch = clients
end

function request()
  if mode == "baseline" then
    return wrk.format("POST", "/bench/baseline")
  end
  if mode == "one" then
    return wrk.format("POST", "/v1/games/" .. ids[one] .. "/throws")
  end
  next_game = next_game % #ids + 1
  return wrk.format("POST", "/v1/games/" .. ids[next_game] .. "/throws")
end

function response(status, headers, body)
  since_switch = since_switch + 1
  if status == 201 then
    ok = ok + 1
  elseif status == 409 then
    conflicts = conflicts + 1
    -- The game is over: every later throw goes to the next one. Each
    -- connection has at most one request in flight, so once CLIENTS
    -- answers have come after a switch, a 409 is the new game's end.
    if mode == "one" and since_switch > clients then
      one = one % #ids + 1
      since_switch = 0
    end
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local t_ok, t_conflicts, t_other = 0, 0, 0
  for _, t in ipairs(threads) do
    t_ok = t_ok + t:get("ok")
    t_conflicts = t_conflicts + t:get("conflicts")
    t_other = t_other + t:get("other")
  end
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT ok=%d ok_per_s=%.1f conflicts=%d other=%d requests=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f socket_errors=%d\n",
    t_ok, t_ok / seconds, t_conflicts, t_other, summary.requests,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout))
end
