/* addrpolicy.c - the address ranges the crawler refuses by default, and the
 * --connect-to entries (addrpolicy.h). */
#include "net/addrpolicy.h"

#include "core/err.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* An IPv4 address in host order. */
static const char *
v4_forbidden(uint32_t a)
{
	uint32_t o1 = a >> 24, o2 = (a >> 16) & 0xff;

	if (o1 == 0)
		return "unspecified"; /* 0.0.0.0/8: "this network" */
	if (o1 == 127)
		return "loopback";
	if (o1 == 10 || (o1 == 172 && (o2 & 0xf0) == 16) || (o1 == 192 && o2 == 168))
		return "private";
	if (o1 == 169 && o2 == 254)
		return "link-local";
	if (o1 == 100 && (o2 & 0xc0) == 64)
		return "shared (CGNAT)";
	if (o1 >= 224 && o1 < 240)
		return "multicast";
	if (o1 >= 240)
		return "reserved"; /* 240/4 and the broadcast address */
	if ((a & 0xffffff00u) == 0xc0000000u) /* 192.0.0.0/24: protocol assignments */
		return "reserved";
	if (o1 == 198 && (o2 & 0xfe) == 18) /* 198.18/15: benchmarking */
		return "reserved";
	return NULL;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const char *
v6_forbidden(const unsigned char *b)
{
	static const unsigned char zero[16];
	static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b};

	if (!memcmp(b, zero, 15))
		return b[15] == 0 ? "unspecified" : b[15] == 1 ? "loopback" : "reserved";
	if (!memcmp(b, mapped, 12) || !memcmp(b, zero, 12) || !memcmp(b, nat64, 12))
		return v4_forbidden(be32(b + 12)); /* ::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b:: */
	if (b[0] == 0x20 && b[1] == 0x02) /* 6to4: 2002:AABB:CCDD:: */
		return v4_forbidden(be32(b + 2));
	if ((b[0] & 0xfe) == 0xfc)
		return "unique-local";
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return "link-local";
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
		return "private"; /* fec0::/10, deprecated site-local */
	if (b[0] == 0xff)
		return "multicast";
	return NULL;
}

const char *
fr_addr_forbidden(const struct sockaddr *sa)
{
	if (!sa)
		return "reserved";
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)(const void *)sa;

		return v4_forbidden(ntohl(s->sin_addr.s_addr));
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)(const void *)sa;

		return v6_forbidden(s->sin6_addr.s6_addr);
	}
	return "reserved";
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
ends_with_ci(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (lower((unsigned char)s[n - k + i]) != suffix[i])
			return 0;
	return 1;
}

const char *
fr_host_forbidden(const char *host)
{
	char buf[64];
	size_t n;
	struct in_addr a4;
	struct in6_addr a6;

	if (!host)
		return NULL;
	n = strlen(host);
	while (n > 0 && host[n - 1] == '.') /* "localhost." */
		n--;
	if ((n == 9 && ends_with_ci(host, n, "localhost")) || ends_with_ci(host, n, ".localhost"))
		return "loopback";
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
		host++;
		n -= 2;
	}
	if (n == 0 || n >= sizeof(buf))
		return NULL;
	memcpy(buf, host, n);
	buf[n] = '\0';
	{
		char *pct = strchr(buf, '%'); /* fe80::1%eth0: the zone is no part of the address */

		if (pct)
			*pct = '\0';
	}
	if (inet_pton(AF_INET, buf, &a4) == 1)
		return v4_forbidden(ntohl(a4.s_addr));
	if (inet_pton(AF_INET6, buf, &a6) == 1)
		return v6_forbidden(a6.s6_addr);
	return NULL;
}

const char *
fr_url_forbidden(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL;
	const char *why = NULL;

	/* libcurl writes IPv4 literals in their dotted form ("0x7f.1" becomes
	 * "127.0.0.1"), as it would connect to them. */
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		why = fr_host_forbidden(host);
	curl_free(host);
	if (u)
		curl_url_cleanup(u);
	return why;
}

/* Splits the next part of a connect-to entry at *p: a bracketed IPv6 host
 * or a run up to ':'. Sets *b, *n to it and moves *p past the ':' (when
 * want_colon). Returns 0, or -1 when the part is malformed. */
static int
part(const char **p, const char **b, size_t *n, int want_colon)
{
	const char *s = *p, *e;

	if (*s == '[') {
		e = strchr(s, ']');
		if (!e)
			return -1;
		e++;
	} else {
		e = s + strcspn(s, ":");
	}
	*b = s;
	*n = (size_t)(e - s);
	if (want_colon) {
		if (*e != ':')
			return -1;
		e++;
	} else if (*e) {
		return -1;
	}
	*p = e;
	return 0;
}

static int
host_ok(const char *s, size_t n)
{
	if (n == 0)
		return 1;
	if (s[0] == '[') {
		char buf[64];
		struct in6_addr a6;

		if (n < 3 || n - 2 >= sizeof(buf))
			return 0;
		memcpy(buf, s + 1, n - 2);
		buf[n - 2] = '\0';
		return inet_pton(AF_INET6, buf, &a6) == 1;
	}
	if (n > 253)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(c == '-' || c == '.' || c == '_' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return 0;
	}
	return 1;
}

/* -1: malformed; 0: empty (any); else the port. */
static long
port_of(const char *s, size_t n)
{
	long v = 0;

	if (n == 0)
		return 0;
	if (n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v >= 1 && v <= 65535 ? v : -1;
}

struct cto {
	const char *h, *th;
	size_t hn, thn;
	long port, tport;
};

static int
cto_parse(const char *spec, struct cto *c, const char **why)
{
	const char *p = spec, *ps, *tps;
	size_t psn, tpsn;

	*why = "wants HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT, e.g. '::127.0.0.1:8080'";
	if (!spec || part(&p, &c->h, &c->hn, 1) < 0 || part(&p, &ps, &psn, 1) < 0 ||
	    part(&p, &c->th, &c->thn, 1) < 0 || part(&p, &tps, &tpsn, 0) < 0)
		return -1;
	*why = "a host is not a name nor a bracketed IPv6 address";
	if (!host_ok(c->h, c->hn) || !host_ok(c->th, c->thn))
		return -1;
	*why = "a port is not a number from 1 to 65535";
	c->port = port_of(ps, psn);
	c->tport = port_of(tps, tpsn);
	if (c->port < 0 || c->tport < 0)
		return -1;
	return 0;
}

int
fr_connect_to_check(const char *spec, char *err, size_t errlen)
{
	struct cto c;
	const char *why;

	if (cto_parse(spec, &c, &why) < 0)
		return fr_errf(err, errlen, "connect-to '%.200s': %s", spec ? spec : "", why);
	return 0;
}

int
fr_connect_to_names(const char *spec, const char *host, long port)
{
	struct cto c;
	const char *why, *h;
	size_t hn, n;

	if (!host || cto_parse(spec, &c, &why) < 0)
		return 0;
	if (c.port && c.port != port)
		return 0;
	if (c.hn == 0)
		return 1;
	h = c.h;
	hn = c.hn;
	if (hn >= 2 && h[0] == '[') {
		h++;
		hn -= 2;
	}
	n = strlen(host);
	if (n >= 2 && host[0] == '[') {
		host++;
		n -= 2;
	}
	if (n != hn)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)h[i]) != lower((unsigned char)host[i]))
			return 0;
	return 1;
}
