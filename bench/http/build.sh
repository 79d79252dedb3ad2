#!/bin/sh
# Builds the two minimal servers of the HTTP library comparison (not part of the main build).
set -eu
cd "$(dirname "$0")"
out=${OUT:-/tmp/kaizen-http-bench}
mkdir -p "$out"
g++ -std=c++20 -O2 -o "$out/httplib_server" httplib_server.cc $(pkg-config --cflags --libs cpp-httplib 2>/dev/null || echo -pthread)
g++ -std=c++20 -O2 -o "$out/beast_server" beast_server.cc -pthread
echo "$out"
