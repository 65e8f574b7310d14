# discover_many.py - the loopback web of tests/e2e/discover_many.sh: one
# port, the site chosen by the Host header. Usage: discover_many.py PORTFILE LOG
#   sNNN.test     a page whose <head> links /feed.xml, after DELAY seconds
#   r500.test     robots.txt answers 500
#   all500.test   every page answers 500 (robots.txt 404)
#   loop.test     / -> /a -> / (302s)
#   slow.test     / sends a byte every 2 s
#   big.test      / is 17 MiB: the feed <link> in its head, then filler
#   wide.test     / links 80 pages; /pN links /pN/d1 .. (depth), no feed
#   c1.test       / links a feed whose title holds ESC, C1 CSI (U+009B), BEL, DEL
# Every request is logged as "HOST PATH TIME".
import sys, time, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

DELAY = 0.1
RSS = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>%s</title>'
       b'<link>http://%s/</link><item><title>one</title><link>http://%s/1</link>'
       b'<guid>http://%s/1</guid></item></channel></rss>')
lock = threading.Lock()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, code, body, ctype="text/html", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        path = self.path
        with lock:
            log.write("%s %s %.3f\n" % (host, path, time.time()))
            log.flush()
        hb = host.encode()
        if path == "/robots.txt":
            if host == "r500.test":
                return self.send(500, b"oops", "text/plain")
            return self.send(404, b"none", "text/plain")
        if host == "all500.test":
            return self.send(500, b"<html><body>down</body></html>")
        if host == "loop.test":
            return self.send(302, b"", extra=[("Location", "/a" if path == "/" else "/")])
        if host == "slow.test":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(30):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(2)
            except OSError:
                pass
            return
        if host == "big.test" and path == "/":
            head = (b'<!DOCTYPE html><html><head><title>big</title>'
                    b'<link rel="alternate" type="application/rss+xml" href="/feed.xml">'
                    b'</head><body>')
            filler = b"<p>" + b"x" * 1020 + b"</p>\n"
            n = 17 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(head) + n * len(filler)))
            self.end_headers()
            try:
                self.wfile.write(head)
                for _ in range(n):
                    self.wfile.write(filler)
            except OSError:
                pass
            return
        if host == "wide.test":
            if path == "/":
                links = b"".join(b'<a href="/p%d">page %d</a>' % (i, i) for i in range(80))
            else:
                links = b'<a href="%s/d">deeper</a>' % path.encode()
            return self.send(200, b"<html><body>" + links + b"</body></html>")
        if host == "c1.test":
            if path == "/feed.xml":
                title = "esc\x1b[31m csi\u009b31m bel\x07 del\x7f end".encode()
                return self.send(200, RSS % (title, hb, hb, hb), "application/rss+xml")
            if path == "/":
                return self.send(200, b'<html><head><link rel="alternate" '
                                 b'type="application/rss+xml" href="/feed.xml"></head></html>')
            return self.send(404, b"no")
        time.sleep(DELAY)
        if path == "/":
            return self.send(200, b'<html><head><link rel="alternate" type="application/rss+xml" '
                             b'href="/feed.xml"></head><body>hi</body></html>')
        if path == "/feed.xml":
            return self.send(200, RSS % (hb, hb, hb, hb), "application/rss+xml")
        return self.send(404, b"no")


log = open(sys.argv[2], "a")
srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
srv.daemon_threads = True
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
