/* report.c - the simulation report as one self-contained HTML page: a table
 * and hand-drawn inline SVG charts (no assets, no scripts). Numbers are
 * formatted with integer arithmetic, so the page is the same in any locale. */
#include "sim/report.h"

#include "core/err.h"
#include "core/timefmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WEEK_S 604800.0
#define N_PALETTE 16
#define N_DASHES 4
#define LABEL_MAX 40   /* legend labels are cut after this many characters */
#define CHAR_W 6.6     /* estimated width of a 12 px character, for layout */
#define LEGEND_ROW 18.0
#define MARKERS_MAX 30 /* weekly lines get point markers up to this many weeks */

/* Distinct colours, in the order runs take them; past 16 runs the colours
 * repeat with the next dash pattern. */
static const char *const palette[N_PALETTE] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#0b3d66", "#7a0177", "#00a087",
	"#b15928", "#5e5e5e", "#fb6a4a", "#6a51a3",
};
static const char *const dashes[N_DASHES] = {NULL, "8 4", "2 3", "10 3 2 3"};

/* The CDF's histogram: bins are the top bits of a float's representation
 * above 1.0f (exponent and 7 mantissa bits: 128 bins per doubling, 0.5%
 * wide), so a delay is binned without a logarithm and any float fits. */
#define CDF_SHIFT 16
#define CDF_ONE 0x3f800000u
#define CDF_BINS (((0x7f800000u - CDF_ONE) >> CDF_SHIFT) + 1)

struct out {
	FILE *f;
	int err;
};

struct style {
	const char *color;
	const char *dash; /* stroke-dasharray, or NULL for a solid line */
	double width;
};

/* A plot area inside an svg: pixel box and data domain. */
struct plot {
	double w, h;         /* the svg's size */
	double l, t, pw, ph; /* the plot area: left, top, width, height */
	double x0, x1, y0, y1;
	int xlog;
	int clip_y; /* values above y1 are drawn at y1 */
};

/* ---- output ---- */

static void
put(struct out *o, const char *s)
{
	if (!o->err && fputs(s, o->f) == EOF)
		o->err = 1;
}

/* Only for integers and strings: floating point goes through num(). */
static void putf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
putf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->err)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->err = 1;
	va_end(ap);
}

/* Writes at most max_chars characters of s (UTF-8; 0: no limit), escaped
 * for HTML text and attribute values; a cut string ends with an ellipsis.
 * Control characters, invalid in HTML, become U+FFFD. */
static void
esc_n(struct out *o, const char *s, size_t max_chars)
{
	size_t chars = 0;

	if (!s)
		return;
	for (const char *p = s; *p && !o->err; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c & 0xc0) != 0x80 && max_chars && chars++ == max_chars) {
			put(o, "\xe2\x80\xa6");
			return;
		}
		switch (c) {
		case '&': put(o, "&amp;"); break;
		case '<': put(o, "&lt;"); break;
		case '>': put(o, "&gt;"); break;
		case '"': put(o, "&quot;"); break;
		case '\'': put(o, "&#39;"); break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				put(o, "\xef\xbf\xbd");
			else if (fputc(c, o->f) == EOF)
				o->err = 1;
		}
	}
}

static void
esc(struct out *o, const char *s)
{
	esc_n(o, s, 0);
}

static size_t
utf8_len(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* ---- numbers ---- */

/* v with dec (0..6) decimals, '.' as the decimal point and, when group,
 * commas between thousands; "-" when v is not finite. Returns buf. */
static const char *
num(char *buf, size_t len, double v, int dec, int group)
{
	static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	char digits[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
	double a = fabs(v) * p10[dec];
	if (a >= 9e18) { /* beyond integer arithmetic; "%.0f" has no decimal point */
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	uint64_t r = (uint64_t)(a + 0.5), scale = (uint64_t)p10[dec];
	uint64_t ip = r / scale, fp = r % scale;
	int nd = snprintf(digits, sizeof(digits), "%" PRIu64, ip);
	size_t k = 0;
	if (v < 0 && r != 0 && k + 1 < len)
		buf[k++] = '-';
	for (int i = 0; i < nd && k + 1 < len; i++) {
		if (group && i > 0 && (nd - i) % 3 == 0 && k + 2 < len)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = '\0';
	if (dec > 0 && k < len)
		snprintf(buf + k, len - k, ".%0*" PRIu64, dec, fp);
	return buf;
}

/* Writes v with dec decimals, no grouping: for coordinates. */
static void
putn(struct out *o, double v, int dec)
{
	char b[48];
	put(o, num(b, sizeof(b), v, dec, 0));
}

/* Writes a count with grouping: 1,234,567. */
static void
putc64(struct out *o, uint64_t v)
{
	char b[48];
	put(o, num(b, sizeof(b), (double)v, 0, 1));
}

/* A duration for people: "42 s", "3.5 min", "2.1 h", "4.0 d". */
static const char *
dur(char *buf, size_t len, double s)
{
	static const struct {
		double div;
		const char *unit;
		double below;
	} u[] = {{1, "s", 60}, {60, "min", 3600}, {3600, "h", 86400}, {86400, "d", INFINITY}};
	char b[48];

	if (!isfinite(s)) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (fabs(s) < u[i].below) {
			double v = s / u[i].div;
			int dec = fabs(v) < 10 && !(i == 0 && v == floor(v)) ? 1 : 0;
			snprintf(buf, len, "%s %s", num(b, sizeof(b), v, dec, 1), u[i].unit);
			break;
		}
	return buf;
}

/* A round step (1, 2 or 5 times a power of ten) giving about n ticks. */
static double
nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static int
step_decimals(double step)
{
	int d = (int)ceil(-log10(step) - 1e-9);
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* ---- plots ---- */

static double
px(const struct plot *p, double x)
{
	double u = p->xlog ? (log10(x) - log10(p->x0)) / (log10(p->x1) - log10(p->x0))
			   : (x - p->x0) / (p->x1 - p->x0);
	return p->l + u * p->pw;
}

static double
py(const struct plot *p, double y)
{
	if (p->clip_y && y > p->y1)
		y = p->y1;
	return p->t + p->ph - (y - p->y0) / (p->y1 - p->y0) * p->ph;
}

static struct style
run_style(size_t i)
{
	struct style st = {palette[i % N_PALETTE], dashes[(i / N_PALETTE) % N_DASHES], 2};
	return st;
}

static void
stroke(struct out *o, struct style st)
{
	putf(o, " stroke=\"%s\" stroke-width=\"", st.color);
	putn(o, st.width, 1);
	put(o, "\"");
	if (st.dash)
		putf(o, " stroke-dasharray=\"%s\"", st.dash);
}

static const char *
run_label(const struct fr_report *r, size_t i)
{
	return r->runs[i].label ? r->runs[i].label : "(unnamed)";
}

static int
run_has_rhythm(const struct fr_report *r, size_t i)
{
	return r->runs[i].has_rhythm && r->runs[i].rhythm;
}

static void
svg_open(struct out *o, const struct plot *p, const char *title, const char *title2)
{
	put(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	putn(o, p->w, 0);
	put(o, "\" height=\"");
	putn(o, p->h, 0);
	put(o, "\" viewBox=\"0 0 ");
	putn(o, p->w, 0);
	put(o, " ");
	putn(o, p->h, 0);
	put(o, "\" role=\"img\"><title>");
	esc(o, title);
	esc(o, title2);
	put(o, "</title>\n");
}

static void
line(struct out *o, const char *cls, double x1, double y1, double x2, double y2)
{
	putf(o, "<line class=\"%s\" x1=\"", cls);
	putn(o, x1, 1);
	put(o, "\" y1=\"");
	putn(o, y1, 1);
	put(o, "\" x2=\"");
	putn(o, x2, 1);
	put(o, "\" y2=\"");
	putn(o, y2, 1);
	put(o, "\"/>");
}

/* Opens a <text> element at (x, y); the caller writes the text and closes. */
static void
text_at(struct out *o, const char *cls, const char *anchor, double x, double y)
{
	putf(o, "<text class=\"%s\" text-anchor=\"%s\" x=\"", cls, anchor);
	putn(o, x, 1);
	put(o, "\" y=\"");
	putn(o, y, 1);
	put(o, "\">");
}

enum yfmt { Y_NUMBER, Y_PERCENT };

/* The y axis from y0 to y1 in steps of step: grid lines, tick labels and a
 * rotated title; then the frame's left and bottom edges. */
static void
y_axis(struct out *o, const struct plot *p, double step, enum yfmt fmt, const char *title)
{
	char b[48];
	int dec = fmt == Y_PERCENT ? step_decimals(step * 100) : step_decimals(step);

	put(o, "<g>");
	for (int k = 0; k < 100; k++) {
		double v = p->y0 + k * step;
		if (v > p->y1 + step * 1e-6)
			break;
		double y = py(p, v);
		line(o, "grid", p->l, y, p->l + p->pw, y);
		text_at(o, "tick", "end", p->l - 7, y + 4);
		put(o, num(b, sizeof(b), fmt == Y_PERCENT ? 100 * v : v, dec, 1));
		put(o, fmt == Y_PERCENT ? "%</text>" : "</text>");
	}
	put(o, "<text class=\"axt\" text-anchor=\"middle\" transform=\"translate(15,");
	putn(o, p->t + p->ph / 2, 1);
	put(o, ") rotate(-90)\">");
	esc(o, title);
	put(o, "</text>");
	line(o, "axis", p->l, p->t, p->l, p->t + p->ph);
	line(o, "axis", p->l, p->t + p->ph, p->l + p->pw, p->t + p->ph);
	put(o, "</g>\n");
}

/* One x tick: a grid line, a tick mark and its label. */
static void
x_tick(struct out *o, const struct plot *p, double x, const char *label)
{
	double b = p->t + p->ph;
	line(o, "grid", x, p->t, x, b);
	line(o, "axis", x, b, x, b + 5);
	text_at(o, "tick", "middle", x, b + 18);
	esc(o, label);
	put(o, "</text>");
}

static void
x_title(struct out *o, const struct plot *p, const char *title)
{
	text_at(o, "axt", "middle", p->l + p->pw / 2, p->t + p->ph + 38);
	esc(o, title);
	put(o, "</text>\n");
}

/* A polyline drawn point by point: a non-finite y lifts the pen, leaving a
 * gap. A segment of a single point is drawn as a dot (a zero-length subpath
 * with round caps), so an isolated week still shows. */
struct pen {
	struct out *o;
	const struct plot *p;
	int pending; /* the first point of a segment, not yet written */
	int drawing; /* inside a segment of two or more points */
	double px, py;
};

static void
pen_xy(struct pen *pn, char cmd, double x, double y)
{
	char b[8] = {cmd, '\0'};
	put(pn->o, b);
	putn(pn->o, x, 1);
	put(pn->o, " ");
	putn(pn->o, y, 1);
}

static void
pen_lift(struct pen *pn)
{
	if (pn->pending) {
		pen_xy(pn, 'M', pn->px, pn->py);
		put(pn->o, "h0");
	}
	pn->pending = pn->drawing = 0;
}

/* Moves to data point (x, y) (y non-finite: a gap). */
static void
pen_to(struct pen *pn, double x, double y)
{
	if (!isfinite(x) || !isfinite(y)) {
		pen_lift(pn);
		return;
	}
	double X = px(pn->p, x), Y = py(pn->p, y);
	if (pn->drawing) {
		pen_xy(pn, 'L', X, Y);
	} else if (pn->pending) {
		pen_xy(pn, 'M', pn->px, pn->py);
		pen_xy(pn, 'L', X, Y);
		pn->pending = 0;
		pn->drawing = 1;
	} else {
		pn->pending = 1;
		pn->px = X;
		pn->py = Y;
	}
}

static void
path_open(struct out *o, const char *series, struct style st)
{
	putf(o, "<path class=\"ln\" data-series=\"%s\" fill=\"none\"", series);
	stroke(o, st);
	put(o, " d=\"");
}

/* The legend: the runs (those with a rhythm when rhythm_only), then an
 * optional extra line. Laid out left to right from (x, y) within width w,
 * wrapping; returns its height. Draws only when draw is set. */
struct legend {
	const struct fr_report *r;
	int rhythm_only;
	const char *extra_label;
	struct style extra;
};

static double
legend(struct out *o, const struct legend *lg, double x, double y, double w, int draw)
{
	size_t n = lg->r->n_runs + (lg->extra_label ? 1 : 0);
	double cx = x, cy = y;
	int any = 0;

	if (draw)
		put(o, "<g class=\"legend\">");
	for (size_t i = 0; i < n; i++) {
		int extra = i == lg->r->n_runs;
		if (!extra && lg->rhythm_only && !run_has_rhythm(lg->r, i))
			continue;
		const char *label = extra ? lg->extra_label : run_label(lg->r, i);
		struct style st = extra ? lg->extra : run_style(i);
		size_t chars = utf8_len(label);
		double ew = 26 + 6 + CHAR_W * (double)(chars > LABEL_MAX ? LABEL_MAX + 1 : chars) + 18;
		if (any && cx + ew > x + w) {
			cx = x;
			cy += LEGEND_ROW;
		}
		any = 1;
		if (draw) {
			put(o, "<g><title>");
			esc(o, label);
			put(o, "</title><line");
			stroke(o, st);
			put(o, " x1=\"");
			putn(o, cx, 1);
			put(o, "\" y1=\"");
			putn(o, cy + 9, 1);
			put(o, "\" x2=\"");
			putn(o, cx + 26, 1);
			put(o, "\" y2=\"");
			putn(o, cy + 9, 1);
			put(o, "\"/>");
			text_at(o, "lg", "start", cx + 32, cy + 13);
			esc_n(o, label, LABEL_MAX);
			put(o, "</text></g>");
		}
		cx += ew;
	}
	if (draw)
		put(o, "</g>\n");
	return any ? cy - y + LEGEND_ROW : 0;
}

/* ---- the page ---- */

static const char css[] =
	":root{color-scheme:light}\n"
	"body{margin:0;background:#f4f5f7;color:#1d2330;"
	"font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,"
	"sans-serif}\n"
	"main{max-width:1000px;margin:0 auto;padding:20px 20px 40px}\n"
	"h1{font-size:23px;margin:4px 0 10px;overflow-wrap:anywhere}\n"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:0 0 20px;"
	"font-size:14px}\n"
	"dl.meta dt{font-weight:600;color:#444}\n"
	"dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
	"figure{background:#fff;border:1px solid #dde1e7;border-radius:8px;margin:0 0 20px;"
	"padding:14px 18px 16px}\n"
	"figcaption{margin:0 0 10px}\n"
	"figcaption b{display:block;font-size:17px}\n"
	"figcaption span{display:block;color:#555;font-size:13.5px}\n"
	"svg{display:block;max-width:100%;height:auto}\n"
	"svg text{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif;"
	"font-size:12px;fill:#222}\n"
	"svg .tick{font-size:11px;fill:#555}\n"
	"svg .axt{font-size:12px;fill:#333}\n"
	"svg .head{font-size:13px;font-weight:600}\n"
	"svg .grid{stroke:#e8eaee;stroke-width:1}\n"
	"svg .axis{stroke:#555;stroke-width:1}\n"
	"svg .ref{stroke:#aab;stroke-width:1;stroke-dasharray:4 3}\n"
	"svg .ln{stroke-linejoin:round;stroke-linecap:round}\n"
	"table{border-collapse:collapse;width:100%;font-size:13.5px;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{padding:5px 6px;border-bottom:1px solid #e6e8ec;text-align:right;"
	"white-space:nowrap}\n"
	"th{background:#f2f4f7;font-weight:600;vertical-align:bottom;white-space:normal}\n"
	"th:first-child,td:first-child{text-align:left}\n"
	"td.pol{white-space:normal;overflow-wrap:anywhere;min-width:12em}\n"
	"td .sub,th .sub{display:block;color:#777;font-size:11.5px;font-weight:normal}\n"
	".sw{display:inline-block;width:22px;height:0;margin-right:8px;vertical-align:middle;"
	"border-top:3px solid}\n"
	".cells{display:flex;flex-wrap:wrap;gap:12px}\n"
	".note{color:#555;font-size:14px;margin:4px 0}\n"
	"footer{color:#777;font-size:12px}\n";

static void
caption(struct out *o, const char *head, const char *text)
{
	put(o, "<figcaption><b>");
	esc(o, head);
	put(o, "</b>");
	if (text) {
		put(o, "<span>");
		esc(o, text);
		put(o, "</span>");
	}
	put(o, "</figcaption>\n");
}

static void
td_delay(struct out *o, double s)
{
	char b[48], d[48];

	if (!isfinite(s)) {
		put(o, "<td>-</td>");
		return;
	}
	putf(o, "<td>%s<span class=\"sub\">%s</span></td>", num(b, sizeof(b), s, s < 10 ? 1 : 0, 1),
	     dur(d, sizeof(d), s));
}

static void
section_table(struct out *o, const struct fr_report *r)
{
	char b[64], d[48];
	int cost = isfinite(r->target_delay_s);
	double first = r->n_runs ? r->runs[0].m->delay_mean_s : NAN;

	put(o, "<figure id=\"fig-table\">\n");
	caption(o, "Policies side by side",
		"Delay: time from an item's publication to the call that found it, over the items "
		"fetched. \"vs first\": mean delay divided by the first row's. Small print: "
		"the same delay in minutes, hours or days; the share of requests that were "
		"empty.");
	if (r->n_runs == 0) {
		put(o, "<p class=\"note\">No runs.</p></figure>\n");
		return;
	}
	put(o, "<table>\n<thead><tr><th>policy</th><th>items</th><th>fetched</th>"
	       "<th>coverage</th><th>mean delay<span class=\"sub\">s</span></th>"
	       "<th>median<span class=\"sub\">s</span></th><th>p90<span class=\"sub\">s</span></th>"
	       "<th>requests</th><th>empty requests</th>");
	if (cost) {
		put(o, "<th>budget needed<span class=\"sub\">calls / ");
		if (isfinite(r->window_s) && r->window_s > 0)
			esc(o, dur(d, sizeof(d), r->window_s));
		else
			put(o, "window");
		put(o, "</span></th>");
	}
	put(o, "<th>vs&nbsp;first<span class=\"sub\">mean delay</span></th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < r->n_runs; i++) {
		const struct fr_metrics *m = r->runs[i].m;
		struct style st = run_style(i);
		putf(o, "<tr><td class=\"pol\"><span class=\"sw\" style=\"border-top-color:%s%s\">"
			"</span>",
		     st.color, st.dash ? ";border-top-style:dashed" : "");
		esc(o, run_label(r, i));
		put(o, "</td><td>");
		putc64(o, m->items);
		put(o, "</td><td>");
		putc64(o, m->fetched);
		putf(o, "</td><td>%s%%</td>", num(b, sizeof(b), 100 * m->coverage, 2, 1));
		td_delay(o, m->delay_mean_s);
		td_delay(o, m->delay_median_s);
		td_delay(o, m->delay_p90_s);
		put(o, "<td>");
		putc64(o, m->requests);
		put(o, "</td><td>");
		putc64(o, m->empty_requests);
		if (m->requests) {
			putf(o, "<span class=\"sub\">%s%%</span>",
			     num(b, sizeof(b), 100.0 * (double)m->empty_requests / (double)m->requests,
				 1, 1));
		}
		put(o, "</td>");
		if (cost) {
			double bn = r->runs[i].budget_needed;
			if (isnan(bn))
				put(o, "<td>-</td>");
			else if (isinf(bn))
				put(o, "<td>unreachable</td>");
			else
				putf(o, "<td>%s</td>", num(b, sizeof(b), bn, bn < 10 ? 1 : 0, 1));
		}
		if (isfinite(first) && first > 0 && isfinite(m->delay_mean_s))
			putf(o, "<td>%s</td>", num(b, sizeof(b), m->delay_mean_s / first, 3, 1));
		else
			put(o, "<td>-</td>");
		put(o, "</tr>\n");
	}
	put(o, "</tbody></table>\n");
	if (cost) {
		put(o, "<p class=\"note\">Budget needed: the calls per window each policy needs to "
		       "reach a mean delay of ");
		esc(o, dur(d, sizeof(d), r->target_delay_s));
		if (r->target_desc) {
			put(o, " (");
			esc(o, r->target_desc);
			put(o, ")");
		}
		put(o, "; \"unreachable\" when no budget tried reaches it.</p>\n");
	}
	put(o, "</figure>\n");
}

/* The weeks shown: from the earliest run start to the latest week start. */
static void
week_domain(const struct fr_report *r, double *first, double *last)
{
	*first = INFINITY;
	*last = -INFINITY;
	for (size_t i = 0; i < r->n_runs; i++) {
		const struct fr_metrics *m = r->runs[i].m;
		if (!m->n_weeks)
			continue;
		if (m->start_s < *first)
			*first = m->start_s;
		if (m->start_s + WEEK_S * (double)(m->n_weeks - 1) > *last)
			*last = m->start_s + WEEK_S * (double)(m->n_weeks - 1);
	}
}

enum weekly { W_DELAY, W_FETCHED };

static double
week_value(const struct fr_metrics *m, size_t w, enum weekly what)
{
	const struct fr_week_stats *ws = &m->weeks[w];
	if (what == W_FETCHED)
		return (double)ws->fetched;
	return ws->fetched ? ws->delay_sum_s / (double)ws->fetched : NAN;
}

/* One weekly line (a path, gaps where a week has no value) and, for short
 * runs, a marker with a tooltip on each point. */
static void
weekly_series(struct out *o, const struct plot *p, const struct fr_metrics *m, const char *series,
	      const char *label, struct style st, int published, enum weekly what)
{
	struct pen pn = {o, p, 0, 0, 0, 0};
	int any = 0;

	for (size_t w = 0; w < m->n_weeks; w++)
		any |= published || isfinite(week_value(m, w, what));
	if (!any)
		return;
	path_open(o, series, st);
	for (size_t w = 0; w < m->n_weeks; w++)
		pen_to(&pn, m->start_s + WEEK_S * (double)w,
		       published ? (double)m->weeks[w].published : week_value(m, w, what));
	pen_lift(&pn);
	put(o, "\"/>\n");
	if (m->n_weeks > MARKERS_MAX || published)
		return;
	putf(o, "<g fill=\"%s\">", st.color);
	for (size_t w = 0; w < m->n_weeks; w++) {
		double v = week_value(m, w, what);
		char date[32], b[48];
		if (!isfinite(v))
			continue;
		put(o, "<circle r=\"2.8\" cx=\"");
		putn(o, px(p, m->start_s + WEEK_S * (double)w), 1);
		put(o, "\" cy=\"");
		putn(o, py(p, v), 1);
		put(o, "\"><title>");
		esc(o, label);
		fr_time_format(m->start_s + WEEK_S * (double)w, date, sizeof(date));
		date[10] = '\0';
		putf(o, ", week of %s: %s", date, num(b, sizeof(b), v, 0, 1));
		put(o, what == W_DELAY ? " s" : " items");
		put(o, "</title></circle>");
	}
	put(o, "</g>\n");
}

static void
section_weekly(struct out *o, const struct fr_report *r, enum weekly what)
{
	const char *id = what == W_DELAY ? "fig-weekly-delay" : "fig-weekly-fetched";
	struct style pubst = {"#8a8f99", "5 4", 1.6};
	struct legend lg = {r, 0, what == W_FETCHED ? "published (all items)" : NULL, pubst};
	struct plot p = {960, 0, 84, 14, 852, 300, 0, 1, 0, 1, 0, 0};
	double first, last, ymax = 0;

	putf(o, "<figure id=\"%s\">\n", id);
	if (what == W_DELAY)
		caption(o, "Mean delay per week",
			"Mean discovery delay of the items published each week (by publication "
			"week). A gap: no item of that week was fetched.");
	else
		caption(o, "Items fetched per week",
			"Items fetched, counted by publication week: of the items published in a week, "
			"how many the policy fetched before the end of the run. Dashed grey: all items "
			"published that week.");
	week_domain(r, &first, &last);
	if (!isfinite(first)) {
		put(o, "<p class=\"note\">No runs.</p></figure>\n");
		return;
	}
	for (size_t i = 0; i < r->n_runs; i++) {
		const struct fr_metrics *m = r->runs[i].m;
		for (size_t w = 0; w < m->n_weeks; w++) {
			double v = week_value(m, w, what);
			if (isfinite(v) && v > ymax)
				ymax = v;
			if (what == W_FETCHED && (double)m->weeks[w].published > ymax)
				ymax = (double)m->weeks[w].published;
		}
	}
	/* One policy far slower than the rest (Nutch's month-long start)
	 * would flatten every other line: cut the axis at three times the
	 * median of the runs' weekly maxima and say which lines run above. */
	char above[512] = "";
	if (what == W_DELAY && r->n_runs >= 3) {
		double *mx = malloc(r->n_runs * sizeof(*mx));
		if (mx) {
			for (size_t i = 0; i < r->n_runs; i++) {
				const struct fr_metrics *m = r->runs[i].m;
				mx[i] = 0;
				for (size_t w = 0; w < m->n_weeks; w++) {
					double v = week_value(m, w, what);
					if (isfinite(v) && v > mx[i])
						mx[i] = v;
				}
			}
			double *sorted = malloc(r->n_runs * sizeof(*sorted));
			if (sorted) {
				memcpy(sorted, mx, r->n_runs * sizeof(*sorted));
				for (size_t i = 1; i < r->n_runs; i++)
					for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
						double t = sorted[j];
						sorted[j] = sorted[j - 1];
						sorted[j - 1] = t;
					}
				double cap = 3 * sorted[r->n_runs / 2];
				if (cap > 0 && ymax > cap) {
					size_t off = 0;
					ymax = cap;
					for (size_t i = 0; i < r->n_runs && off + 2 < sizeof(above); i++)
						if (mx[i] > cap) {
							int k = snprintf(above + off, sizeof(above) - off,
									 "%s%s", off ? ", " : "",
									 run_label(r, i));
							off += k > 0 ? (size_t)k : 0;
						}
				}
				free(sorted);
			}
			free(mx);
		}
	}
	if (above[0]) {
		put(o, "<p class=\"note\">Axis cut to keep the others readable; above it: ");
		esc(o, above);
		put(o, ".</p>\n");
	}
	p.clip_y = what == W_DELAY;
	double step = nice_step(ymax > 0 ? ymax : 1, 6);
	p.y1 = step * ceil((ymax > 0 ? ymax : 1) / step - 1e-9);
	/* Half a week of margin either side keeps markers off the axis. */
	p.x0 = first - WEEK_S / 2;
	p.x1 = last + WEEK_S / 2;
	double lh = legend(o, &lg, p.l, 0, p.pw, 0);
	p.h = p.t + p.ph + 56 + lh + 6;

	svg_open(o, &p, what == W_DELAY ? "Mean delay per week, seconds, by policy"
					: "Items fetched per week (by publication week), by policy",
		 "");
	y_axis(o, &p, step, Y_NUMBER,
	       what == W_DELAY ? "mean delay (s)" : "items (by publication week)");
	/* Week labels spaced at least ~80 px apart. */
	double nweeks = (last - first) / WEEK_S + 1;
	size_t stride = (size_t)ceil(80.0 / (p.pw / nweeks));
	put(o, "<g>");
	for (size_t w = 0; first + WEEK_S * (double)w <= last + 1; w += stride ? stride : 1) {
		char date[32];
		fr_time_format(first + WEEK_S * (double)w, date, sizeof(date));
		date[10] = '\0';
		x_tick(o, &p, px(&p, first + WEEK_S * (double)w), date);
	}
	put(o, "</g>\n");
	x_title(o, &p, "week starting (UTC)");
	for (size_t i = 0; i < r->n_runs; i++) {
		char series[24];
		snprintf(series, sizeof(series), "%zu", i);
		weekly_series(o, &p, r->runs[i].m, series, run_label(r, i), run_style(i), 0, what);
	}
	/* On top: the runs often come close to it. */
	if (what == W_FETCHED && r->n_runs)
		weekly_series(o, &p, r->runs[0].m, "published", "published", pubst, 1, what);
	legend(o, &lg, p.l, p.t + p.ph + 50, p.pw, 1);
	put(o, "</svg>\n</figure>\n");
}

static uint32_t
float_bits(float v)
{
	uint32_t u;
	memcpy(&u, &v, sizeof(u));
	return u;
}

static float
bits_float(uint32_t u)
{
	float v;
	memcpy(&v, &u, sizeof(v));
	return v;
}

/* The bin of a delay: 0 for 1 s and below. */
static uint32_t
cdf_bin(float d)
{
	return d <= 1.0f ? 0 : (float_bits(d) - CDF_ONE) >> CDF_SHIFT;
}

/* The delay CDF of each run on a log axis from 1 s to the longest delay,
 * as a share of the items published (so a curve ends at the coverage). */
static int
section_cdf(struct out *o, const struct fr_report *r, char *err, size_t errlen)
{
	static const struct {
		double s;
		const char *label;
	} ticks[] = {
		{1, "1 s"},       {10, "10 s"},  {60, "1 min"},     {600, "10 min"},
		{3600, "1 h"},    {21600, "6 h"}, {86400, "1 d"},    {604800, "1 wk"},
		{2592000, "30 d"}, {31536000, "1 yr"}, {315360000, "10 yr"},
	};
	struct legend lg = {r, 0, NULL, {NULL, NULL, 0}};
	struct plot p = {960, 0, 84, 14, 852, 300, 1, 10, 0, 1, 1, 0};
	float maxd = 0;

	put(o, "<figure id=\"fig-cdf\">\n");
	caption(o, "Delay distribution",
		"Share of the items published in the run that were fetched within a given delay "
		"(log scale). A curve ends at the policy's coverage; higher and further left is "
		"better.");
	if (r->n_runs == 0) {
		put(o, "<p class=\"note\">No runs.</p></figure>\n");
		return 0;
	}
	for (size_t i = 0; i < r->n_runs; i++) {
		const struct fr_metrics *m = r->runs[i].m;
		for (size_t k = 0; k < m->fetched; k++)
			if (m->delays[k] > maxd && isfinite(m->delays[k]))
				maxd = m->delays[k];
	}
	p.x1 = maxd > 10 ? maxd : 10;
	uint32_t nbins = cdf_bin((float)p.x1) + 1;
	uint64_t *hist = malloc(nbins * sizeof(*hist));
	if (!hist)
		return fr_errf(err, errlen, "report: out of memory");

	double lh = legend(o, &lg, p.l, 0, p.pw, 0);
	p.h = p.t + p.ph + 56 + lh + 6;
	svg_open(o, &p, "Delay distribution by policy: share of items fetched within a delay", "");
	y_axis(o, &p, 0.2, Y_PERCENT, "share of items published");
	put(o, "<g>");
	for (size_t k = 0; k < sizeof(ticks) / sizeof(ticks[0]); k++)
		if (ticks[k].s <= p.x1 * 1.0001)
			x_tick(o, &p, px(&p, ticks[k].s), ticks[k].label);
	put(o, "</g>\n");
	x_title(o, &p, "discovery delay (log scale)");
	for (size_t i = 0; i < r->n_runs && !o->err; i++) {
		const struct fr_metrics *m = r->runs[i].m;
		double denom = m->items ? (double)m->items : (double)m->fetched;
		uint64_t cum = 0;
		char series[24];
		if (denom <= 0)
			continue;
		memset(hist, 0, nbins * sizeof(*hist));
		for (size_t k = 0; k < m->fetched; k++) {
			float d = m->delays[k];
			if (d == d) { /* not NaN */
				uint32_t b = cdf_bin(d);
				hist[b < nbins ? b : nbins - 1]++;
			}
		}
		snprintf(series, sizeof(series), "%zu", i);
		path_open(o, series, run_style(i));
		/* One point per pixel column, the last of the column's bins. */
		struct pen pn = {o, &p, 0, 0, 0, 0};
		double col = -1, lx = 0, ly = 0;
		for (uint32_t b = 0; b < nbins; b++) {
			cum += hist[b];
			/* The bin's upper edge; NaN past the largest float. */
			double x = bits_float(CDF_ONE + ((b + 1) << CDF_SHIFT));
			double y = (double)cum / denom;
			x = x < p.x1 ? x : p.x1; /* NaN too */
			double c = floor(px(&p, x));
			if (c != col && col >= 0)
				pen_to(&pn, lx, ly);
			col = c;
			lx = x;
			ly = y;
		}
		pen_to(&pn, lx, ly);
		pen_to(&pn, p.x1, ly);
		pen_lift(&pn);
		put(o, "\"/>\n");
	}
	free(hist);
	legend(o, &lg, p.l, p.t + p.ph + 50, p.pw, 1);
	put(o, "</svg>\n</figure>\n");
	return 0;
}

/* Scales 24 values to mean 1 into out; 0 when that is impossible. */
static int
normalise24(const double *v, double out[24])
{
	double sum = 0;
	for (int h = 0; h < 24; h++)
		sum += isfinite(v[h]) ? v[h] : 0;
	if (!(sum > 0) || !isfinite(sum))
		return 0;
	for (int h = 0; h < 24; h++)
		out[h] = v[h] * 24 / sum;
	return 1;
}

static void
rhythm_chart(struct out *o, const struct fr_report *r, uint32_t s)
{
	struct style truest = {"#111", "5 4", 1.8};
	struct legend lg = {r, 1, r->true_rhythm ? "true rhythm" : NULL, truest};
	struct plot p = {292, 0, 48, 30, 232, 150, 0, 24, 0, 1, 0, 0};
	double v[24], ymax = 1;
	char name[32];
	const char *nm = r->rhythm_names && r->rhythm_names[s] ? r->rhythm_names[s] : NULL;

	if (!nm) {
		snprintf(name, sizeof(name), "source %" PRIu32, s + 1);
		nm = name;
	}
	for (size_t i = 0; i < r->n_runs; i++)
		if (run_has_rhythm(r, i) && normalise24(r->runs[i].rhythm + (size_t)s * 24, v))
			for (int h = 0; h < 24; h++)
				ymax = isfinite(v[h]) && v[h] > ymax ? v[h] : ymax;
	if (r->true_rhythm && normalise24(r->true_rhythm + (size_t)s * 24, v))
		for (int h = 0; h < 24; h++)
			ymax = isfinite(v[h]) && v[h] > ymax ? v[h] : ymax;
	double step = nice_step(ymax, 4);
	p.y1 = step * ceil(ymax / step - 1e-9);
	double lh = legend(o, &lg, 8, 0, p.w - 16, 0);
	p.h = p.t + p.ph + 50 + lh + 4;

	put(o, "<div>");
	svg_open(o, &p, "Learned 24-hour rhythm of ", nm);
	text_at(o, "head", "start", 8, 17);
	esc_n(o, nm, 38);
	put(o, "</text>\n");
	y_axis(o, &p, step, Y_NUMBER, "relative activity");
	put(o, "<g>");
	for (int h = 0; h <= 24; h += 6) {
		char b[8];
		snprintf(b, sizeof(b), "%02d", h);
		x_tick(o, &p, px(&p, h), b);
	}
	put(o, "</g>\n");
	line(o, "ref", p.l, py(&p, 1), p.l + p.pw, py(&p, 1));
	x_title(o, &p, "hour of day (UTC)");
	if (r->true_rhythm && normalise24(r->true_rhythm + (size_t)s * 24, v)) {
		struct pen pn = {o, &p, 0, 0, 0, 0};
		path_open(o, "true", truest);
		for (int h = 0; h < 24; h++)
			pen_to(&pn, h + 0.5, v[h]);
		pen_lift(&pn);
		put(o, "\"/>\n");
	}
	for (size_t i = 0; i < r->n_runs; i++) {
		char series[24];
		if (!run_has_rhythm(r, i) || !normalise24(r->runs[i].rhythm + (size_t)s * 24, v))
			continue;
		struct pen pn = {o, &p, 0, 0, 0, 0};
		snprintf(series, sizeof(series), "%zu", i);
		path_open(o, series, run_style(i));
		for (int h = 0; h < 24; h++)
			pen_to(&pn, h + 0.5, v[h]);
		pen_lift(&pn);
		put(o, "\"/>\n");
	}
	legend(o, &lg, 8, p.t + p.ph + 46, p.w - 16, 1);
	put(o, "</svg></div>\n");
}

static void
section_rhythm(struct out *o, const struct fr_report *r)
{
	int any = 0;

	for (size_t i = 0; i < r->n_runs; i++)
		any |= run_has_rhythm(r, i);
	put(o, "<figure id=\"fig-rhythm\">\n");
	caption(o, "Learned 24-hour rhythm",
		r->true_rhythm ? "Activity per hour of the day (UTC) each policy learned for a few "
				 "sources, scaled to a mean of 1 (grey line). Dashed black: the true "
				 "rhythm of the synthetic world."
			       : "Activity per hour of the day (UTC) each policy learned for a few "
				 "sources, scaled to a mean of 1 (grey line).");
	if (!any || r->n_rhythm == 0) {
		put(o, "<p class=\"note\">No policy in this report learns a daily rhythm, or no "
		       "source was chosen.</p>\n</figure>\n");
		return;
	}
	put(o, "<div class=\"cells\">\n");
	for (uint32_t s = 0; s < r->n_rhythm && !o->err; s++)
		rhythm_chart(o, r, s);
	put(o, "</div>\n</figure>\n");
}

static void
meta(struct out *o, const char *dt, const char *dd)
{
	if (!dd)
		return;
	put(o, "<dt>");
	esc(o, dt);
	put(o, "</dt><dd>");
	esc(o, dd);
	put(o, "</dd>\n");
}

int
fr_report_html(FILE *f, const struct fr_report *r, char *err, size_t errlen)
{
	struct out o = {f, 0};
	const char *title = r->title ? r->title : "freshet simulation report";
	char d[48];

	for (size_t i = 0; i < r->n_runs; i++)
		if (!r->runs[i].m)
			return fr_errf(err, errlen, "report: run %zu has no metrics", i);
	put(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	esc(&o, title);
	putf(&o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", css);
	esc(&o, title);
	put(&o, "</h1>\n<dl class=\"meta\">\n");
	meta(&o, "Input", r->input_desc);
	meta(&o, "Budget", r->budget_desc);
	if (isfinite(r->target_delay_s)) {
		put(&o, "<dt>Cost target</dt><dd>mean delay ");
		esc(&o, dur(d, sizeof(d), r->target_delay_s));
		if (r->target_desc) {
			put(&o, " (");
			esc(&o, r->target_desc);
			put(&o, ")");
		}
		put(&o, "</dd>\n");
	}
	put(&o, "</dl>\n");
	section_table(&o, r);
	section_weekly(&o, r, W_DELAY);
	section_weekly(&o, r, W_FETCHED);
	if (section_cdf(&o, r, err, errlen) < 0)
		return -1;
	section_rhythm(&o, r);
	put(&o, "<footer>Written by freshet.</footer>\n</main>\n</body>\n</html>\n");
	if (!o.err && fflush(f) == EOF)
		o.err = 1;
	if (o.err || ferror(f))
		return fr_errf(err, errlen, "report: write error");
	return 0;
}
