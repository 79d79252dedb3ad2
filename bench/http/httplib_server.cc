// Minimal cpp-httplib server for the HTTP library comparison (bench/http/README.md): GET /healthz
// and POST /v1/echo (a JSON body in, a small JSON reply out), on loopback. Not part of the build.
#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const int port = argc > 1 ? std::atoi(argv[1]) : 18080;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 8;
  httplib::Server server;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Off by default in 0.11: without it Nagle + delayed ACK cap a keep-alive connection at ~25
  // req/s.
  server.set_tcp_nodelay(true);
  server.set_payload_max_length(1 << 20);
  // Default 5: a keep-alive connection is closed after 5 requests.
  server.set_keep_alive_max_count(100000);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"status":"ok"})", "application/json");
  });
  server.Post("/v1/echo", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content("{\"stored\":true,\"bytes\":" + std::to_string(req.body.size()) + "}",
                    "application/json");
  });
  std::fprintf(stderr, "listening 127.0.0.1:%d\n", port);
  return server.listen("127.0.0.1", port) ? 0 : 1;
}
