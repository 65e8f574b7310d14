/* test_addrpolicy.c - lib/net/addrpolicy.h: the address ranges refused by
 * default (IPv4, IPv6 and the IPv6 forms that carry an IPv4 address), URL
 * hosts written as literals, and the --connect-to entries. */
#include "net/addrpolicy.h"

#include "core/err.h"
#include "test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static const char *
judge(const char *ip)
{
	struct sockaddr_in s4;
	struct sockaddr_in6 s6;

	memset(&s4, 0, sizeof(s4));
	memset(&s6, 0, sizeof(s6));
	if (inet_pton(AF_INET, ip, &s4.sin_addr) == 1) {
		s4.sin_family = AF_INET;
		return fr_addr_forbidden((const struct sockaddr *)&s4);
	}
	if (inet_pton(AF_INET6, ip, &s6.sin6_addr) == 1) {
		s6.sin6_family = AF_INET6;
		return fr_addr_forbidden((const struct sockaddr *)&s6);
	}
	return "not an address";
}

static void
expect(const char *ip, const char *want)
{
	const char *got = judge(ip);

	if (!want) {
		CHECK(got == NULL);
		if (got)
			fprintf(stderr, "  %s: got '%s', want allowed\n", ip, got);
	} else {
		CHECK_STR(got, want);
		if (!got || strcmp(got, want))
			fprintf(stderr, "  %s: got '%s', want '%s'\n", ip, got ? got : "allowed", want);
	}
}

static void
test_ipv4_ranges(void)
{
	expect("0.0.0.0", "unspecified");
	expect("0.1.2.3", "unspecified");
	expect("127.0.0.1", "loopback");
	expect("127.255.255.254", "loopback");
	expect("10.0.0.1", "private");
	expect("172.16.0.1", "private");
	expect("172.31.255.255", "private");
	expect("192.168.1.1", "private");
	expect("169.254.169.254", "link-local");
	expect("100.64.0.1", "shared (CGNAT)");
	expect("100.127.255.255", "shared (CGNAT)");
	expect("224.0.0.1", "multicast");
	expect("239.255.255.250", "multicast");
	expect("240.0.0.1", "reserved");
	expect("255.255.255.255", "reserved");
	expect("198.18.0.1", "reserved");
	/* Neighbours of each range are public. */
	expect("1.1.1.1", NULL);
	expect("8.8.8.8", NULL);
	expect("11.0.0.1", NULL);
	expect("126.255.255.255", NULL);
	expect("128.0.0.1", NULL);
	expect("172.15.255.255", NULL);
	expect("172.32.0.0", NULL);
	expect("192.167.255.255", NULL);
	expect("192.169.0.0", NULL);
	expect("169.253.255.255", NULL);
	expect("100.63.255.255", NULL);
	expect("100.128.0.0", NULL);
	expect("223.255.255.255", NULL);
	expect("93.184.216.34", NULL);
}

static void
test_ipv6_ranges(void)
{
	expect("::", "unspecified");
	expect("::1", "loopback");
	expect("fe80::1", "link-local");
	expect("febf::1", "link-local");
	expect("fc00::1", "unique-local");
	expect("fd12:3456::1", "unique-local");
	expect("ff02::1", "multicast");
	expect("fec0::1", "private");
	/* IPv4 inside IPv6. */
	expect("::ffff:127.0.0.1", "loopback");
	expect("::ffff:169.254.169.254", "link-local");
	expect("::ffff:10.1.2.3", "private");
	expect("::ffff:8.8.8.8", NULL);
	expect("::127.0.0.1", "loopback");
	expect("64:ff9b::a9fe:a9fe", "link-local");
	expect("2002:7f00:1::", "loopback");
	expect("2002:0808:0808::", NULL);
	expect("2001:4860:4860::8888", NULL);
	expect("2606:4700::1111", NULL);
	expect("fbff::1", NULL);
}

static void
test_url_hosts(void)
{
	CHECK_STR(fr_host_forbidden("127.0.0.1"), "loopback");
	CHECK_STR(fr_host_forbidden("[::1]"), "loopback");
	CHECK_STR(fr_host_forbidden("[fe80::1%25eth0]"), "link-local");
	CHECK_STR(fr_host_forbidden("localhost"), "loopback");
	CHECK_STR(fr_host_forbidden("LocalHost."), "loopback");
	CHECK_STR(fr_host_forbidden("redis.localhost"), "loopback");
	CHECK(fr_host_forbidden("notlocalhost") == NULL);
	CHECK(fr_host_forbidden("example.com") == NULL);
	CHECK(fr_host_forbidden("8.8.8.8") == NULL);
	CHECK_STR(fr_url_forbidden("http://169.254.169.254/latest"), "link-local");
	CHECK_STR(fr_url_forbidden("http://[::ffff:127.0.0.1]:6379/"), "loopback");
	CHECK_STR(fr_url_forbidden("http://localhost:6379/"), "loopback");
	CHECK_STR(fr_url_forbidden("http://10.0.0.1/feed"), "private");
	/* Numeric forms libcurl turns into dotted quads. */
	CHECK_STR(fr_url_forbidden("http://2130706433/"), "loopback");
	CHECK_STR(fr_url_forbidden("http://0x7f.1/"), "loopback");
	CHECK(fr_url_forbidden("https://example.org/feed") == NULL);
	CHECK(fr_url_forbidden("not a url") == NULL);
}

static void
test_connect_to(void)
{
	char err[FR_ERRLEN];

	CHECK(fr_connect_to_check("::127.0.0.1:8080", err, sizeof(err)) == 0);
	CHECK(fr_connect_to_check("h1.test:80:127.0.0.1:8080", err, sizeof(err)) == 0);
	CHECK(fr_connect_to_check("[::1]:443:[::1]:8443", err, sizeof(err)) == 0);
	CHECK(fr_connect_to_check(":::", err, sizeof(err)) == 0);
	CHECK(fr_connect_to_check("garbage", err, sizeof(err)) < 0);
	CHECK(strstr(err, "'garbage'") != NULL);
	CHECK(fr_connect_to_check("a:b:c:d", err, sizeof(err)) < 0);
	CHECK(strstr(err, "port") != NULL);
	CHECK(fr_connect_to_check("::127.0.0.1:99999", err, sizeof(err)) < 0);
	CHECK(fr_connect_to_check("::127.0.0.1:80:1", err, sizeof(err)) < 0);
	CHECK(fr_connect_to_check("h o:80:x:1", err, sizeof(err)) < 0);
	CHECK(fr_connect_to_check("[zz]:80:x:1", err, sizeof(err)) < 0);
	CHECK(fr_connect_to_check("", err, sizeof(err)) < 0);
	/* Which hosts an entry names. */
	CHECK(fr_connect_to_names("::127.0.0.1:8080", "anything.example", 443));
	CHECK(fr_connect_to_names("h1.test::127.0.0.1:8080", "H1.Test", 8000));
	CHECK(fr_connect_to_names("h1.test:80:127.0.0.1:8080", "h1.test", 80));
	CHECK(!fr_connect_to_names("h1.test:80:127.0.0.1:8080", "h1.test", 81));
	CHECK(!fr_connect_to_names("h1.test:80:127.0.0.1:8080", "h2.test", 80));
	CHECK(fr_connect_to_names("[::1]:80:127.0.0.1:8080", "[::1]", 80));
	CHECK(fr_connect_to_names("[::1]:80:127.0.0.1:8080", "::1", 80));
	CHECK(!fr_connect_to_names("garbage", "garbage", 80));
}

int
main(void)
{
	RUN(test_ipv4_ranges);
	RUN(test_ipv6_ranges);
	RUN(test_url_hosts);
	RUN(test_connect_to);
	return TEST_DONE();
}
