#!/usr/bin/env python3
"""api_stub.py - a small JSON API on loopback for tests/e2e/api_crawl.sh:
Mastodon-shaped timelines (pages of 10, Link rel="next" with max_id,
X-RateLimit-* headers) behind a bearer token, and paths that answer the
cases the crawler must handle: none left (Remaining 0 until a reset), a
429 with Retry-After, a redirect to another host, a 401 whose body echoes
the token it was given. Logs each request: time, Host, path, whether the
Authorization header was the right token (yes), another (bad) or none.

usage: api_stub.py PORT_FILE TOKEN LOG"""
import http.server, json, sys, threading, time, urllib.parse

PORT_FILE, TOKEN, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
N = 25  # posts per account
lock = threading.Lock()
slow_seen = set()
log = open(LOG, "a")


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        u = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(u.query)
        auth = self.headers.get("Authorization")
        who = "none" if auth is None else ("yes" if auth == "Bearer " + TOKEN else "bad")
        host = self.headers.get("Host", "")
        with lock:
            log.write("%.6f\t%s\t%s\t%s\n" % (time.time(), host, self.path, who))
            log.flush()
        parts = u.path.strip("/").split("/")
        if parts[0] == "redir":
            port = self.server.server_address[1]
            self.send_response(302)
            self.send_header("Location", "http://other.test:%d/m/%s/statuses" % (port, parts[1]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if who != "yes":
            given = auth[7:] if auth and auth.startswith("Bearer ") else ""
            self.send(401, {"error": "The access token %s is invalid" % given})
            return
        now = time.time()
        limit = [("X-RateLimit-Limit", "300"), ("X-RateLimit-Remaining", "250"),
                 ("X-RateLimit-Reset", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 30)))]
        if parts[0] == "slow":
            with lock:
                first = parts[1] not in slow_seen
                slow_seen.add(parts[1])
            if first:
                self.send(429, {"error": "Too many requests"}, [("Retry-After", "2")])
                return
        if parts[0] == "zero":
            limit = [("X-RateLimit-Limit", "300"), ("X-RateLimit-Remaining", "0"),
                     ("X-RateLimit-Reset", "%d" % int(now + 3))]
        max_id = int(q.get("max_id", [str(N + 1)])[0])
        ids = [i for i in range(N, 0, -1) if i < max_id][:10]
        acct = parts[1] if len(parts) > 1 else "a"
        body = [{"id": "%s-%02d" % (acct, i),
                 "created_at": "2026-01-01T00:%02d:00Z" % i,
                 "url": "https://m.example/@%s/%d" % (acct, i),
                 "content": "<p>post %d of %s</p>" % (i, acct),
                 "account": {"acct": acct}} for i in ids]
        hdrs = list(limit)
        if ids:
            port = self.server.server_address[1]
            hdrs.append(("Link", '<http://%s%s?max_id=%d&access_token=%s>; rel="next"'
                         % (host or "api.test:%d" % port, u.path, ids[-1], TOKEN)))
        self.send(200, body, hdrs)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(PORT_FILE + ".tmp", PORT_FILE)
srv.serve_forever()
