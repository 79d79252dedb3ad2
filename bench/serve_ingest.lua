-- wrk: POST /v1/feedback, one small (~490-byte) feedback event per request, each with its own session, modal
-- and work product ids (thread id + counter), so every request stores one new event.
-- The token comes from the KAIZEN_TOKEN environment variable.
local counter = 0
thread_id = 0  -- global: setup() sets it per thread (thread:set)
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("KAIZEN_TOKEN")
end

function request()
  counter = counter + 1
  local id = string.format("%d-%d", thread_id, counter)
  local body = string.format(
    '{"timestamp":"2025-07-10T10:00:00Z","sessionId":"s-%s","modalId":"m-%s",' ..
    '"workProduct":{"type":"code-module","id":"wp-%s","version":"v1","summary":"a module",' ..
    '"bubaConfidence":0.5,"generationContext":{"promptHash":"abc123","memorySnapshot":[],' ..
    '"modelUsed":"m","generationTimeMs":1200,"iterationCount":1}},' ..
    '"pipelineStage":"review","reviewerId":"jake",' ..
    '"decision":{"decision":"approved","reason":"looks right"},' ..
    '"scores":[{"dimension":"naming","score":8}],"meta":{"timeToDecisionMs":42000}}', id, id, id)
  return wrk.format(nil, "/v1/feedback", nil, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_SUMMARY requests=%d non2xx=%d connect=%d read=%d write=%d " ..
                         "timeout=%d\n", summary.requests, e.status, e.connect, e.read, e.write,
                         e.timeout))
end
