-- wrk: POST a ~300-byte JSON event body (the size of a typical feedback event).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"kind":"feedback","timestamp":"2025-03-04T10:00:00Z","reviewer":"alice","workProduct":{"id":"wp-1234"},"decision":"changes_requested","scores":[{"dimension":"correctness","score":6},{"dimension":"clarity","score":8}],"comment":"The error path drops the cause; wrap it and name the field so the caller can act on it."}'
