# discover_tls.sh - `freshet discover` resumes TLS sessions (docs/discover.md,
# "TLS sessions are shared"): a loopback HTTPS server (discover_tls.py,
# Python's ssl) closes the connection after every answer, so each of the
# site's requests makes a new TLS connection; the server logs whether each
# handshake resumed an earlier session. Every transfer gets its own libcurl
# handle, so without the fetcher's share handle (CURL_LOCK_DATA_SSL_SESSION)
# every handshake is a full one.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
have_python || { e2e_say "skip: python3 is needed for the test server"; pass; finish; }
command -v openssl >/dev/null || fatal "openssl is needed (dev.sh installs it)"

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=freshet test" \
	-addext "subjectAltName=DNS:tls.test" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
	>/dev/null 2>&1 || fatal "openssl could not make a test certificate"
python3 "$E2E_DIR/discover_tls.py" "$WORK/cert.pem" "$WORK/key.pem" "$WORK/port" "$WORK/log" \
	2>"$WORK/py.err" &
PIDS="$PIDS $!"
for ((i = 0; i < 200; i++)); do [ -s "$WORK/port" ] && break; sleep 0.05; done
[ -s "$WORK/port" ] || { cat "$WORK/py.err" >&2; fatal "the test server did not start"; }
PORT=$(cat "$WORK/port")

expect_exit 0 "$F" discover https://tls.test/ --connect-to "::127.0.0.1:$PORT" \
	--cacert "$WORK/cert.pem" --gap 0 --format jsonl
expect_stdout_contains '"feed":"https://tls.test/feed.xml"'
n=$(wc -l <"$WORK/log")
full=$(grep -c ' full$' "$WORK/log")
resumed=$(grep -c ' resumed$' "$WORK/log")
e2e_say "TLS: $n requests, each on a new connection: $full full handshakes, $resumed resumed"
check "the site asked several times ($n)" test "$n" -ge 5
check "every connection after the first resumed its session ($full full)" test "$full" -le 1
finish
