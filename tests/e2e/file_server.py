#!/usr/bin/env python3
"""file_server.py - one file on loopback, for the e2e tests that fetch a URL.

Usage: file_server.py FILE PORTFILE PATH CONTENT-TYPE N [--latin1]

Serves FILE's bytes at PATH with CONTENT-TYPE (--latin1: FILE is UTF-8 text,
sent re-encoded as ISO-8859-1), answers /moved with a 301 to PATH and any
other path with a 404; writes its port to PORTFILE (atomically) once it
listens, and exits after N requests or 30 s without one.
"""
import http.server
import os
import sys

path, portfile, where, ctype, n = sys.argv[1:6]
if "--latin1" in sys.argv[6:]:
    body = open(path, encoding="utf-8").read().encode("latin-1")
else:
    body = open(path, "rb").read()


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/moved":
            self.send_response(301)
            self.send_header("Location", where)
            self.end_headers()
            return
        if self.path != where:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(portfile + ".tmp", "w") as f:
    f.write(str(s.server_address[1]))
os.rename(portfile + ".tmp", portfile)
s.timeout = 30
for _ in range(int(n)):
    s.handle_request()
