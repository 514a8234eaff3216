-- wrk script of the benchmark (bench/wrk.py): extra request headers, optional
-- pacing, and a one-line JSON summary that bench/wrk.py reads.
--
--   wrk -s bench/wrk.lua URL -- "HX-Request: true" "If-None-Match: \"1-2\"" delay=1000
--
-- Arguments after "--": "Name: value" adds a request header; "delay=MS" makes
-- every connection wait MS milliseconds between its requests (a spectator's
-- phone polling on a timer rather than a closed loop).

local delay_ms = nil

function init(args)
  for _, arg in ipairs(args) do
    local ms = arg:match("^delay=(%d+)$")
    if ms then
      delay_ms = tonumber(ms)
    else
      local name, value = arg:match("^([^:]+):%s*(.*)$")
      if name then
        wrk.headers[name] = value
      end
    end
  end
  if delay_ms then
    -- wrk looks for a global "delay" after init: only paced runs define it.
    delay = function()
      return delay_ms
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, "connect_errors": %d, ' ..
    '"read_errors": %d, "write_errors": %d, "status_errors": %d, "timeouts": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write,
    e.status, e.timeout, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, latency.mean))
end
