#!/usr/bin/env python3
"""hostile_server.py - the hostile loopback web of e2e/hostile.sh.

One threaded HTTP server on 127.0.0.1 whose answers depend on the Host
header (each host is sent here by its own --connect-to entry), and a second
listener, the "forbidden" port, that no --connect-to names: any request
reaching it is an SSRF the crawler let through, and is logged.

usage: hostile_server.py PORTFILE LOG
  writes "PORT FPORT STALLPORT CLOSEDPORT" to PORTFILE once listening; LOG
  gets one line per request: "time<TAB>host<TAB>path<TAB>status".
  STALLPORT accepts connections and never answers; CLOSEDPORT was bound
  and closed (connections to it are refused).
"""
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORTFILE, LOG = sys.argv[1], sys.argv[2]
lock = threading.Lock()
FPORT = 0
RA4 = [0]  # requests to ra4.test/feed so far
GAPI = [0]  # requests to gapi.test/moved so far


def log(t, host, path, status):
    with lock:
        with open(LOG, "a") as f:
            f.write("%.6f\t%s\t%s\t%s\n" % (t, host, path, status))


def rss(host, n):
    items = "".join(
        "<item><title>%s item %d</title><link>http://%s/i/%d</link>"
        "<guid>http://%s/i/%d</guid><pubDate>Mon, 02 Jan 2023 10:%02d:00 GMT</pubDate></item>"
        % (host, k, host, k, host, k, k)
        for k in range(n)
    )
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>%s</title>'
        "<link>http://%s/</link>%s</channel></rss>" % (host, host, items)
    ).encode()


def board(host):
    """A board page: thread rows with their last post's date, and a pager
    whose pages differ in the host's number (fq1.test, fq2.test)."""
    rows = "".join(
        '<tr class="row"><td class="t"><a class="topictitle" href="/t/%d">Thread number %d '
        'about the weather</a><br><span class="by">by <a href="/u/%d">user%d</a></span></td>'
        '<td class="n">%d</td><td class="last">2023-01-%02d 10:%02d</td></tr>'
        % (k, k, k, k, k * 3, 10 - k, k) for k in range(1, 4))
    return ("<html><head><title>Board</title></head><body><h1>Board</h1>"
            '<table class="topics"><tr><th>Topic</th><th>Replies</th><th>Last post</th></tr>'
            "%s</table>"
            '<div class="pagination">Page <a href="http://fq1.test/forum/">1</a> '
            '<a href="http://fq2.test/forum/">2</a></div></body></html>' % rows).encode()


def thread(host, path):
    posts = "".join(
        '<div class="post"><span class="author"><a href="/u/%d">user%d</a></span> '
        '<span class="date">2023-01-0%d 1%d:00</span><div class="content">Post %d of %s: '
        "some words about the weather today, and more words to make it a post.</div></div>"
        % (k, k, k, k, k, path) for k in range(1, 5))
    return ("<html><head><title>Thread</title></head><body><h1>Thread</h1>%s</body></html>"
            % posts).encode()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        log(self.t_in, self.host, self.path, status)

    def do_GET(self):
        self.t_in = time.time()
        self.host = (self.headers.get("Host") or "").split(":")[0]
        h, p = self.host, self.path
        if self.server.server_address[1] == FPORT:
            return self.send(200, b"internal secret\n")
        if p == "/robots.txt":
            if h == "robots5xx.test":
                return self.send(503, b"down\n")
            if h in ("denied.test", "fdenied.test"):
                return self.send(200, b"User-agent: *\nDisallow: /\n")
            return self.send(404, b"no robots\n")  # RFC 9309: 4xx allows all
        if h.startswith("good") and p.startswith("/feed"):
            return self.send(200, rss(h + p, 3), [("Content-Type", "application/rss+xml")])
        if h == "evil.test" and p == "/feed":  # SSRF through a redirect
            return self.send(302, b"", [("Location", "http://127.0.0.1:%d/secret" % FPORT)])
        if h == "evil.test" and p == "/feed2":
            return self.send(302, b"", [("Location", "http://localhost:%d/secret" % FPORT)])
        if h == "redir.test":  # a redirect to a host whose robots.txt forbids it
            return self.send(302, b"", [("Location", "http://denied.test/feed")])
        if h == "denied.test":
            return self.send(200, rss(h, 1), [("Content-Type", "application/rss+xml")])
        if h == "fredir.test":  # forum pages that redirect to other hosts
            to = "fdenied.test" if p.startswith("/forum/") else "fok.test"
            return self.send(302, b"", [("Location", "http://%s/board/" % to)])
        if h in ("fdenied.test", "fok.test") and p == "/board/":
            return self.send(200, b"<html><head><title>board</title></head><body>"
                             b"<a href='/board/t1'>a thread</a></body></html>",
                             [("Content-Type", "text/html")])
        # e2e/hostile_forum_gap.sh: a forum board on fq1.test whose pager's next
        # page is on fq2.test (a link, not a redirect), a host whose own
        # feeds the crawl asks too.
        if h in ("fq1.test", "fq2.test") and p == "/forum/":
            return self.send(200, board(h), [("Content-Type", "text/html")])
        if h in ("fq1.test", "fq2.test") and p.startswith("/t/"):
            return self.send(200, thread(h, p), [("Content-Type", "text/html")])
        if h == "fq2.test" and p.startswith("/feed"):
            return self.send(200, rss(h + p, 2), [("Content-Type", "application/rss+xml")])
        # Redirects to another host (e2e/hostile_gap.sh): gapa -> gapb and
        # gapc -> gapd, hosts the crawl also asks for themselves; gapf and
        # gapg -> gape, a host no source names.
        redir = {"gapa.test": "gapb.test", "gapc.test": "gapd.test",
                 "gapf.test": "gape.test", "gapg.test": "gape.test",
                 "gaph.test": "gapi.test"}
        if h == "gapi.test" and p == "/moved":  # the first redirect met: 429
            with lock:
                GAPI[0] += 1
                n = GAPI[0]
            if n == 1:
                return self.send(429, b"slow down\n", [("Retry-After", "3")])
        # e2e/hostile_pause.sh: pza.test/feed redirects to pzb.test, which
        # answers the hop 429 with an hour's Retry-After; their other feeds
        # answer.
        if h == "pza.test" and p == "/feed":
            return self.send(302, b"", [("Location", "http://pzb.test/moved")])
        if h == "pzb.test" and p == "/moved":
            return self.send(429, b"slow down\n", [("Retry-After", "3600")])
        if h in ("pza.test", "pzb.test"):
            return self.send(200, rss(h + p, 2), [("Content-Type", "application/rss+xml")])
        if h in redir and p == "/feed":
            return self.send(302, b"", [("Location", "http://%s/moved" % redir[h])])
        if h in ("gapb.test", "gapd.test", "gape.test", "gapi.test"):
            return self.send(200, rss(h + p, 2), [("Content-Type", "application/rss+xml")])
        if h == "robots5xx.test":
            return self.send(200, rss(h, 1), [("Content-Type", "application/rss+xml")])
        if h == "ra4.test" and p == "/feed":  # rate-limited: 429 to its first 4 asks
            with lock:
                RA4[0] += 1
                n = RA4[0]
            if n <= 4:
                return self.send(429, b"slow down\n", [("Retry-After", "1")])
            return self.send(200, rss(h, 3), [("Content-Type", "application/rss+xml")])
        if h == "ra1.test":  # Retry-After far beyond any cap
            return self.send(429, b"slow down\n", [("Retry-After", "99999999")])
        if h == "ra2.test":
            return self.send(503, b"busy\n", [("Retry-After", "9" * 27)])
        if h == "ra3.test":
            return self.send(429, b"", [("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")])
        if h == "hdr.test":  # a 1 MiB header line
            self.send_response(200)
            self.send_header("X-Big", "a" * (1 << 20))
            self.send_header("Content-Length", "0")
            self.end_headers()
            log(self.t_in, h, p, 200)
            return
        if h == "slow.test":  # dribbles a body for a minute
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            log(self.t_in, h, p, 200)
            try:
                for _ in range(600):
                    self.wfile.write(b" " * 20)
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            return
        return self.send(404, b"nothing here\n")

    def log_message(self, *a):
        pass


class S(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # The kernel completes a connection's handshake only while the listen
    # queue has room; socketserver's default of 5 filled whenever this
    # process was slow to accept (a loaded machine: a crawler under ASan
    # opens a dozen connections at once), and the SYNs beyond it were
    # dropped and sent again 1 s, then 3 s later: past the tests'
    # --connect-timeout 3. Room for every connection a crawl opens at once,
    # whatever this process's speed (e2e/hostile.sh checks it stopped).
    request_queue_size = 256


def stall_loop(sock):
    held = []
    while True:
        c, _ = sock.accept()
        held.append(c)  # never answered, never closed


main = S(("127.0.0.1", 0), H)
forbidden = S(("127.0.0.1", 0), H)
FPORT = forbidden.server_address[1]
stall = socket.socket()
stall.bind(("127.0.0.1", 0))
stall.listen(64)
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
closed_port = closed.getsockname()[1]
closed.close()
threading.Thread(target=forbidden.serve_forever, daemon=True).start()
threading.Thread(target=stall_loop, args=(stall,), daemon=True).start()
with open(PORTFILE + ".tmp", "w") as f:
    f.write("%d %d %d %d\n" % (main.server_address[1], FPORT, stall.getsockname()[1], closed_port))
os.rename(PORTFILE + ".tmp", PORTFILE)
main.serve_forever()
