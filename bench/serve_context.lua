-- wrk: GET /v1/context for a typical task, and a non-2xx count on the last line.
wrk.path = "/v1/context?server_type=shopify&type=mcp-server&stage=review&dimensions=error-handling,security"

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_SUMMARY requests=%d non2xx=%d connect=%d read=%d write=%d " ..
                         "timeout=%d\n", summary.requests, e.status, e.connect, e.read, e.write,
                         e.timeout))
end
