#!/usr/bin/env python3
"""sink_receiver.py PORTFILE LOG SECRET [PORT] - a webhook receiver for
tests/e2e/sink.sh on 127.0.0.1: each POST's body is checked against its
X-Freshet-Signature-256 header (HMAC-SHA256 with SECRET) and appended to LOG
as one JSON line {"sig_ok": bool, "body": <the body's JSON>} before the
answer 200 goes (a kill -9 between the two makes the sender send it again).
Listens on PORT (0: any free one) and writes the port to PORTFILE. It takes
0.1 s a request (as a real receiver would), so that a backlog builds up and
the kills of the test fall while batches are in flight."""
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

portfile, log, secret = sys.argv[1], sys.argv[2], sys.argv[3].encode()
port = int(sys.argv[4]) if len(sys.argv) > 4 else 0


class H(BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        time.sleep(0.1)
        want = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
        got = self.headers.get("X-Freshet-Signature-256", "")
        try:
            doc = json.loads(body)
        except ValueError:
            doc = None
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"sig_ok": hmac.compare_digest(want, got), "body": doc}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


HTTPServer.allow_reuse_address = True
srv = HTTPServer(("127.0.0.1", port), H)
tmp = portfile + ".tmp"
with open(tmp, "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(tmp, portfile)
srv.serve_forever()
