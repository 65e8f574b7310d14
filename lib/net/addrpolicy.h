/* addrpolicy.h - which addresses the crawler may connect to (a guard against
 * server-side request forgery: a feed or a redirect that points at the
 * crawler's own network), and the --connect-to mappings that name the hosts
 * a user sent somewhere on purpose. One policy for run, discover and parse;
 * the fetcher applies it to every address it is about to connect to. */
#ifndef FR_NET_ADDRPOLICY_H
#define FR_NET_ADDRPOLICY_H

#include <stddef.h>

struct sockaddr;

/* Why the address may not be connected to by default: "loopback",
 * "private", "link-local", "unique-local", "multicast", "unspecified",
 * "shared (CGNAT)", "reserved" (static strings), or NULL when it is a
 * public address. IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) and
 * 6to4 IPv6 forms are judged by the IPv4 address they carry. Families
 * other than IPv4 and IPv6 are "reserved". */
const char *fr_addr_forbidden(const struct sockaddr *sa);

/* The same for a URL host written as an address literal ("10.0.0.1",
 * "[fe80::1]", "::1"), or the name "localhost" or a name under
 * ".localhost" (RFC 6761: loopback); NULL for any other name (which is
 * judged when it resolves) and for a public literal. */
const char *fr_host_forbidden(const char *host);

/* The same for the host of an absolute URL; NULL when url has no host. */
const char *fr_url_forbidden(const char *url);

/* Checks a CURLOPT_CONNECT_TO entry "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT"
 * (each part may be empty; IPv6 hosts in brackets; ports 1..65535).
 * Returns 0, or -1 with err set naming the entry and what is wrong. */
int fr_connect_to_check(const char *spec, char *err, size_t errlen);

/* Whether connect-to entry spec maps requests to host:port (host without
 * brackets or with, any case; an empty HOST or PORT in spec matches any).
 * A malformed spec names nothing. */
int fr_connect_to_names(const char *spec, const char *host, long port);

#endif
