# discover_tls.py - an HTTPS server on loopback for tests/e2e/discover_tls.sh
# that closes the connection after every answer, so each request of a
# client makes a new TLS connection, and logs whether the handshake resumed
# an earlier session. Usage: discover_tls.py CERT KEY PORTFILE LOG
#   tls.test/     links /p1 ... /p5 and its feed /feed.xml
#   tls.test/pN   a page
# LOG gets one line per request: "HOST PATH resumed|full".
import os, ssl, sys, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

CERT, KEY, PORTFILE, LOG = sys.argv[1:5]
lock = threading.Lock()
RSS = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>tls</title>'
       b'<link>https://tls.test/</link><item><title>one</title>'
       b'<guid>https://tls.test/1</guid></item></channel></rss>')


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        with lock, open(LOG, "a") as f:
            f.write("%s %s %s\n" % (host, self.path,
                                    "resumed" if self.connection.session_reused else "full"))
        if self.path == "/robots.txt":
            code, body, ctype = 404, b"none", "text/plain"
        elif self.path == "/feed.xml":
            code, body, ctype = 200, RSS, "application/rss+xml"
        elif self.path == "/":
            links = b"".join(b'<a href="/p%d">page %d</a>' % (i, i) for i in range(1, 6))
            code, ctype = 200, "text/html"
            body = (b'<html><head><link rel="alternate" type="application/rss+xml" '
                    b'href="/feed.xml"></head><body>' + links + b"</body></html>")
        else:
            code, body, ctype = 200, b"<html><body>a page</body></html>", "text/html"
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True


ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(CERT, KEY)
srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
srv.daemon_threads = True
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
srv.serve_forever()
