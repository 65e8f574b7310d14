/* sfeed.c - sfeed(5) lines. */
#include "sfeed.h"

#include "dbopt.h"

#include <stdlib.h>

enum field { PLAIN, CONTENT, CATEGORY };

static void
put_field(FILE *out, const char *s, enum field kind)
{
	char *tmp;

	if (!s)
		return;
	s = dbopt_utf8(s, &tmp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;

		if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { /* C1 control */
			p++;
			continue;
		}
		if (kind == CONTENT) {
			if (c == '\t')
				fputs("\\t", out);
			else if (c == '\n')
				fputs("\\n", out);
			else if (c == '\\')
				fputs("\\\\", out);
			else if (c >= 0x20 && c != 0x7f)
				fputc(c, out);
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
		    (kind == CATEGORY && c == '|'))
			fputc(' ', out);
		else if (c >= 0x20 && c != 0x7f)
			fputc(c, out);
	}
	free(tmp);
}

void
sfeed_write(FILE *out, const struct sfeed_item *it)
{
	if (it->time_s != INT64_MIN)
		fprintf(out, "%lld", (long long)it->time_s);
	fputc('\t', out);
	put_field(out, it->title, PLAIN);
	fputc('\t', out);
	put_field(out, it->link, PLAIN);
	fputc('\t', out);
	put_field(out, it->content, CONTENT);
	fputc('\t', out);
	if (it->content && *it->content)
		fputs(it->content_type ? it->content_type : "html", out);
	fputc('\t', out);
	put_field(out, it->id, PLAIN);
	fputc('\t', out);
	put_field(out, it->author, PLAIN);
	fputc('\t', out);
	put_field(out, it->enclosure, PLAIN);
	fputc('\t', out);
	for (size_t k = 0; k < it->n_categories; k++) {
		if (k)
			fputc('|', out);
		put_field(out, it->categories[k], CATEGORY);
	}
	fputc('\n', out);
}
