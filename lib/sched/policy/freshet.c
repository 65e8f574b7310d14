/* freshet.c - freshet's own policy: learn each source's rate and daily and
 * weekly rhythm online (model/ratemodel), add the bursts the data shows
 * (an item makes another one likely soon: a self-exciting term whose share
 * and time scale are learned across sources), correct both by a hazard
 * table learned across sources (how the rate of a source of a given rate
 * class depends on the time since its last item: a daily poster is quiet
 * for hours, then due; a source silent for days has stopped), and fetch by
 * the square-root rule's index, the expected total waiting time of unseen
 * items (model/waitindex). No source waits longer than an exploration cap
 * derived from the budget, so a sleeping source that wakes up is found. */
#include "sched/policy.h"

#include "core/err.h"
#include "model/ratemodel.h"
#include "model/waitindex.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hazard table: sources by rate class (items per day: below 1/4, then
 * doubling, 16 and above) and the time since their last item seen in gap
 * buckets (hours, upper edges; the last bucket holds sources with no item
 * seen yet). */
#define HZ_CLASSES 8
#define HZ_BUCKETS 17
#define HZ_NONE (HZ_BUCKETS - 1)
static const double hz_edge_h[HZ_BUCKETS - 2] = {1,  2,  3,  4,  6,  8,  12, 16,
						20, 24, 28, 36, 48, 72, 120};
#define HZ_LAST_EDGE_H 120 /* the last of hz_edge_h */
/* Pseudo-items of the table's shrinkage: a class's level toward 1, its
 * buckets toward its level; and the table's decay time. */
#define HZ_PRIOR_LEVEL 30.0
#define HZ_PRIOR_GAP 300.0
/* A source's own correction on top of its class's: 4 coarse gap buckets,
 * shrunk toward 1 with this many pseudo-items, decayed over 90 days. */
#define HZ_COARSE 4
#define HZ_PRIOR_SOURCE 5.0
#define HZ_SOURCE_TAU_S (90 * 86400.0)
#define HZ_TAU_S (60 * 86400.0)

struct fs_ctx {
	struct fr_rateparams rp;
	struct fr_ratepop pop;
	int bursts;           /* model bursts */
	double cap_s;         /* exploration cap */
	double horizon_s;     /* how far due() looks ahead */
	double weight_exp;    /* index scaled by weight ^ this */
	const double *weight; /* [n_sources] */
	double theta_seen;    /* latest threshold the scheduler asked about */
	/* Bursts: a mixture of follow-ups (lag ~ exponential, mean tau) and
	 * background arrivals at the source's own rate, fitted online (EM). */
	double em_items, em_short; /* gaps seen, and of them within the burst window */
	double em_follow, em_lag;  /* sums of responsibilities, and of resp * lag */
	double follow_share;  /* pi: share of items that are follow-ups */
	/* Rates are heavy-tailed across sources: the prior of a new or quiet
	 * source is their geometric mean, not the mean the heavy ones make. */
	double log_rate_mean;
	double log_rate_n;
	double burst_tau_s;
	/* Hazard by time since the source's last item: items seen over items
	 * the model expected, per rate class and gap bucket, across sources. */
	int hazard;
	double hz_obs[HZ_CLASSES][HZ_BUCKETS], hz_pred[HZ_CLASSES][HZ_BUCKETS];
	double hz_g[HZ_CLASSES][HZ_BUCKETS]; /* the factor, shrunk toward 1 */
	double hz_level[HZ_CLASSES];         /* each class's items over expected, all gaps */
	double hz_at_s;                      /* decay clock of the table */
	unsigned char hz_by_hour[HZ_LAST_EDGE_H]; /* gap bucket by whole hour (hz_bucket) */
};

/* 160 + 32 + 8 + 8 + 8 + 32 = 248 bytes (the interface allows 256). */
struct fs_state {
	struct fr_ratemodel rm;
	struct fr_waitacc acc;
	double burst_amp;   /* follow-up rate expected right after the last fetch */
	double last_item_s; /* newest publication time seen, or NAN */
	float w;            /* weight ^ weight_exp */
	float pad;
	/* The source's own hazard: its items, and the items the model with
	 * the table expected, by coarse gap (HZ_COARSE), decayed. */
	float hs_obs[HZ_COARSE], hs_pred[HZ_COARSE];
};

/* Below this share of follow-ups the fit cannot tell bursts from a
 * background rhythm it describes imperfectly (a world without bursts fits
 * about 0.07): bursts are modelled only where the data shows more. */
#define BURST_MIN_SHARE 0.08

static double
follow_ratio(const struct fs_ctx *c)
{
	/* Follow-ups per item (branching ratio) from their share. */
	double pi = c->follow_share;
	return c->bursts && pi >= BURST_MIN_SHARE ? pi / (1 - pi) : 0;
}

static int
hz_class(double rate_per_s)
{
	double d = rate_per_s * 86400.0;
	/* floor(log2(x)) + 1 is frexp's exponent (x = f 2^e, f in [0.5, 1)),
	 * without the logarithm (called at every urgency and due). */
	int e = 0;
	if (d > 0) {
		/* a normal number's exponent from its bits (what frexp gives,
		 * without the call); frexp for the rest */
		double x = d * 4;
		uint64_t bits;
		memcpy(&bits, &x, sizeof(bits));
		int be = (int)((bits >> 52) & 0x7ff);
		if (be > 0 && be < 0x7ff)
			e = be - 1022;
		else
			(void)frexp(x, &e);
	}
	int k = d > 0 ? e : 0;
	return k < 0 ? 0 : k >= HZ_CLASSES ? HZ_CLASSES - 1 : k;
}

/* by_hour[h] for whole hours h below the last edge: the bucket of hour h,
 * the first whose edge is above it (the edges are whole hours, so floor(h)
 * decides). */
static void
hz_fill_by_hour(unsigned char by_hour[HZ_LAST_EDGE_H])
{
	for (int h = 0, b = 0; h < HZ_LAST_EDGE_H; h++) {
		while (b < HZ_BUCKETS - 3 && !(h < hz_edge_h[b]))
			b++;
		by_hour[h] = (unsigned char)b;
	}
}

/* The gap bucket of a source whose last item seen is gap_s old (NAN: none
 * seen yet), by a lookup in by_hour (hz_fill_by_hour): hz_rate asks for
 * every hour the index integrates. */
static int
hz_bucket(const unsigned char *by_hour, double gap_s)
{
	if (isnan(gap_s))
		return HZ_NONE;
	double h = gap_s / 3600.0;
	if (h < 0)
		return 0;
	return h < HZ_LAST_EDGE_H ? by_hour[(int)h] : HZ_BUCKETS - 2;
}

/* The rate the index integrates: the model's hourly rate times the hazard
 * of the source's class at the hour's gap since its last item, times the
 * source's own correction in that gap. */
struct hz_arg {
	const struct fr_ratesnap *snap;
	const double *g; /* the class's row of hz_g, or NULL: no table */
	double last_item_s;
	const float *so, *sp; /* the source's own counts (hs_obs, hs_pred) */
	const unsigned char *by_hour; /* the context's hz_by_hour */
};
/* The table's buckets in the source's own coarse ones: under 4 hours, 4 to
 * 16, 16 to 32 (a day's rhythm), 32 and more or none seen yet. */
static const int hz_coarse[HZ_BUCKETS] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3};

static double
hz_rate(const void *arg, int64_t hour)
{
	const struct hz_arg *a = arg;
	double r = fr_ratesnap_rate(a->snap, hour);
	if (a->g) {
		int bk = hz_bucket(a->by_hour, (double)hour * 3600.0 + 1800.0 - a->last_item_s);
		r *= a->g[bk];
		int cb = hz_coarse[bk];
		r *= (a->so[cb] + HZ_PRIOR_SOURCE) / (a->sp[cb] + HZ_PRIOR_SOURCE);
	}
	return r;
}

static void
hz_decay(struct fs_ctx *c, double now_s)
{
	if (!(now_s - c->hz_at_s > 3600.0))
		return;
	double e = exp(-(now_s - c->hz_at_s) / HZ_TAU_S);
	for (int k = 0; k < HZ_CLASSES; k++)
		for (int b = 0; b < HZ_BUCKETS; b++) {
			c->hz_obs[k][b] *= e;
			c->hz_pred[k][b] *= e;
		}
	c->hz_at_s = now_s;
}

/* Adds to class k's expected counts those of [a, e) for a source whose last
 * item was at last: the model's rate plus the follow-ups of the items seen
 * at the previous fetch (b), split where the hour or the gap bucket
 * changes; and to the source's own (spred) the same with the table's
 * factors applied. */
static void
hz_expect(struct fs_ctx *c, int k, const struct fr_ratesnap *snap, const struct fr_burst *b,
	  double last, double a, double e, float *spred)
{
	while (a < e) {
		double nb = (floor(a / 3600.0) + 1) * 3600.0;
		if (nb > e)
			nb = e;
		int bk = hz_bucket(c->hz_by_hour, a - last);
		if (bk < HZ_BUCKETS - 2) {
			double edge = last + hz_edge_h[bk] * 3600.0;
			if (edge > a && edge < nb)
				nb = edge;
		}
		if (!(nb > a)) /* rounding at a boundary */
			nb = a + 1e-3 < e ? a + 1e-3 : e;
		double x = fr_ratesnap_rate(snap, (int64_t)floor(a / 3600.0)) * (nb - a);
		if (b && b->amp > 0 && nb > b->from_s) {
			double s0 = a > b->from_s ? a : b->from_s;
			x += b->amp * b->tau_s *
			     (exp(-(s0 - b->from_s) / b->tau_s) - exp(-(nb - b->from_s) / b->tau_s));
		}
		c->hz_pred[k][bk] += x;
		if (spred)
			spred[hz_coarse[bk]] += (float)(x * c->hz_g[k][bk]);
		a = nb;
	}
}

/* Class k's factors from its counts: its level (the rate model's bias for
 * sources of that rate), then each gap's factor on it, shrunk toward it. */
static void
hz_refit(struct fs_ctx *c, int k)
{
	double so = 0, sp = 0;
	for (int bk = 0; bk < HZ_BUCKETS; bk++) {
		so += c->hz_obs[k][bk];
		sp += c->hz_pred[k][bk];
	}
	double level = (so + HZ_PRIOR_LEVEL) / (sp + HZ_PRIOR_LEVEL);
	c->hz_level[k] = level;
	for (int bk = 0; bk < HZ_BUCKETS; bk++) {
		double g = level * (c->hz_obs[k][bk] / level + HZ_PRIOR_GAP) /
			   (c->hz_pred[k][bk] + HZ_PRIOR_GAP);
		c->hz_g[k][bk] = !(g >= 0.05) ? 0.05 : g > 20 ? 20 : g; /* NaN: the floor */
	}
}

static int
cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* What a fetch at now saw, against what the model expected since prev: the
 * items of (prev, now] by their gaps, the expectation by the gap the
 * source was at. Items without a time, and items published before prev
 * (seen late: the model expected them in an earlier window), count in the
 * bucket the source was in halfway through the window; only the latter move
 * the last item. */
static void
hz_learn(struct fs_ctx *c, struct fs_state *f, int k, const struct fr_ratesnap *snap, const struct fr_burst *b,
	 double beta, double last, double prev, double now, const double *pub, size_t n)
{
	double small[64], *p = small;
	size_t m = 0;

	if (n > 64 && !(p = malloc(n * sizeof(*p))))
		return;
	size_t undated = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isnan(pub[i]) && pub[i] >= prev && pub[i] <= now) {
			p[m++] = pub[i];
			continue;
		}
		undated++;
		if (!isnan(pub[i]) && pub[i] < prev && (isnan(last) || pub[i] > last))
			last = pub[i];
	}
	if (m > 1)
		qsort(p, m, sizeof(*p), cmp_dbl);
	hz_decay(c, now);
	/* The burst term expects the follow-ups of every item, those the
	 * fetch found too: the table is what it leaves unexplained. */
	struct fr_burst run = *b;
	double t = prev;
	float e = (float)exp(-(now - prev) / HZ_SOURCE_TAU_S);
	for (int q = 0; q < HZ_COARSE; q++) {
		f->hs_obs[q] *= e;
		f->hs_pred[q] *= e;
	}
	if (undated > 0) {
		int bk = hz_bucket(c->hz_by_hour, (prev + now) / 2 - last);
		c->hz_obs[k][bk] += (double)undated;
		f->hs_obs[hz_coarse[bk]] += (float)undated;
	}
	for (size_t i = 0; i < m; i++) {
		hz_expect(c, k, snap, &run, last, t, p[i], f->hs_pred);
		int bk = hz_bucket(c->hz_by_hour, p[i] - last);
		c->hz_obs[k][bk] += 1;
		f->hs_obs[hz_coarse[bk]] += 1;
		last = t = p[i];
		if (beta > 0) {
			double a = run.amp > 0 ? run.amp * exp(-(p[i] - run.from_s) / run.tau_s) : 0;
			run.amp = a + beta / run.tau_s;
			run.from_s = p[i];
		}
	}
	hz_expect(c, k, snap, &run, last, t, now, f->hs_pred);
	hz_refit(c, k);
	if (p != small)
		free(p);
}

static void
snapshot(const struct fs_ctx *c, const struct fs_state *s, struct fr_ratesnap *snap,
	 struct fr_burst *b)
{
	/* The hourly counts hold follow-ups too, and the base rate keeps
	 * them: the follow-ups of items published since the fetch (unseen)
	 * mostly fall in the same interval, as fetch intervals are long next to
	 * the lag. The burst term adds those of the items the fetch saw. */
	fr_ratemodel_snapshot(&s->rm, &c->pop, &c->rp, 1, snap);
	b->amp = s->burst_amp;
	b->from_s = s->acc.last_s;
	b->tau_s = c->burst_tau_s;
}

/* What the index integrates for source f: its snapshot, the burst term
 * scaled by its class's level (the table measured the burst term too), and
 * the hazard factors (ha->g NULL with hazard=0). */
static void
index_rate(const struct fs_ctx *c, const struct fs_state *f, struct fr_ratesnap *snap,
	   struct fr_burst *b, struct hz_arg *ha)
{
	snapshot(c, f, snap, b);
	*ha = (struct hz_arg){snap, NULL, f->last_item_s, f->hs_obs, f->hs_pred, c->hz_by_hour};
	if (c->hazard) {
		int k = hz_class(snap->r);
		ha->g = c->hz_g[k];
		b->amp *= c->hz_level[k];
	}
}

static int
fs_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct fs_ctx *c = calloc(1, sizeof(*c));
	double tau_d, ptau_d, fast_d, prior_d, explore, bursts, hazard, profile, horizon_d;

	if (!c)
		return fr_errf(err, errlen, "out of memory");
	if (fr_params_double(params, "tau", 60, 0.5, 3650, &tau_d, err, errlen) < 0 ||
	    fr_params_double(params, "profile_tau", 365, 0.5, 36500, &ptau_d, err, errlen) < 0 ||
	    fr_params_double(params, "fast", 7, 0.05, 365, &fast_d, err, errlen) < 0 ||
	    fr_params_double(params, "prior", 1, 0, 365, &prior_d, err, errlen) < 0 ||
	    fr_params_double(params, "shrink", 1000, 0, 1e6, &c->rp.prior_items, err, errlen) < 0 ||
	    fr_params_double(params, "change_z", 3, 0.5, 100, &c->rp.change_z, err, errlen) < 0 ||
	    fr_params_double(params, "explore", 16, 0.5, 1e6, &explore, err, errlen) < 0 ||
	    fr_params_double(params, "bursts", 1, 0, 1, &bursts, err, errlen) < 0 ||
	    fr_params_double(params, "hazard", 1, 0, 1, &hazard, err, errlen) < 0 ||
	    fr_params_double(params, "profile", 1, 0, 1, &profile, err, errlen) < 0 ||
	    fr_params_double(params, "weight", 0, 0, 4, &c->weight_exp, err, errlen) < 0 ||
	    fr_params_double(params, "horizon", 14, 0.1, 3650, &horizon_d, err, errlen) < 0) {
		free(c);
		return -1;
	}
	c->rp.tau_s = tau_d * 86400;
	c->rp.profile_tau_s = ptau_d * 86400;
	c->rp.fast_tau_s = fast_d * 86400;
	c->rp.prior_s = prior_d * 86400;
	c->rp.floor_rate = 1.0 / (30 * 86400.0);
	c->bursts = bursts > 0;
	c->hazard = hazard > 0;
	c->rp.flat = profile == 0;
	fr_rateparams_prepare(&c->rp);
	c->rp.cache = fr_ratecache_new(); /* NULL: slower, the same figures */
	c->hz_at_s = env->start_s;
	hz_fill_by_hour(c->hz_by_hour);
	for (int k = 0; k < HZ_CLASSES; k++)
		hz_refit(c, k); /* no counts yet: every factor 1 */
	c->horizon_s = horizon_d * 86400;
	/* Each source at least once per explore x (sources / calls per second):
	 * explore times the round-robin cycle. */
	double cycle = env->calls_per_s > 0 ? env->n_sources / env->calls_per_s : 3600;
	c->cap_s = explore * cycle;
	c->weight = env->weight;
	fr_ratepop_init(&c->pop, env->start_s, c->rp.tau_s);
	c->follow_share = 0.05;
	c->burst_tau_s = 900;
	/* Pseudo-observations so the first items do not swing the fit. */
	c->em_items = 20;
	c->em_short = 4;
	c->em_follow = 20 * c->follow_share;
	c->em_lag = c->em_follow * c->burst_tau_s;
	*ctx = c;
	return 0;
}

static void
fs_destroy(void *ctx)
{
	struct fs_ctx *c = ctx;

	if (c)
		free(c->rp.cache);
	free(c);
}

static size_t
fs_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct fs_state);
}

static void
fs_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct fs_ctx *c = ctx;
	struct fs_state *f = st;

	fr_ratemodel_init(&f->rm, now_s);
	fr_waitacc_reset(&f->acc, now_s);
	f->burst_amp = 0;
	f->last_item_s = NAN;
	memset(f->hs_obs, 0, sizeof(f->hs_obs));
	memset(f->hs_pred, 0, sizeof(f->hs_pred));
	f->w = (float)(c->weight && c->weight_exp > 0 ? pow(c->weight[s], c->weight_exp) : 1.0);
}

static double
fs_urgency(void *ctx, void *st, double now_s)
{
	struct fs_ctx *c = ctx;
	struct fs_state *f = st;
	struct fr_ratesnap snap;
	struct fr_burst b;
	struct hz_arg ha;

	index_rate(c, f, &snap, &b, &ha);
	double u = f->w * fr_waitacc_advance(&f->acc, now_s, hz_rate, &ha, &b);
	/* Past the exploration cap a source ranks above the threshold. */
	if (now_s >= f->acc.last_s + c->cap_s && u < 2 * c->theta_seen)
		u = 2 * c->theta_seen;
	return u;
}

static double
fs_due(void *ctx, void *st, double now_s, double theta)
{
	struct fs_ctx *c = ctx;
	struct fs_state *f = st;
	struct fr_ratesnap snap;
	struct fr_burst b;
	struct hz_arg ha;
	(void)now_s;

	c->theta_seen = theta;
	index_rate(c, f, &snap, &b, &ha);
	double d = fr_waitacc_due(&f->acc, theta / f->w, hz_rate, &ha, &b, c->horizon_s);
	double cap = f->acc.last_s + c->cap_s;
	return d < cap ? d : cap;
}

/* Gaps longer than this are background: bursts are fitted on short gaps
 * only, so a background the rate model describes imperfectly (rhythm,
 * changes) cannot pass for a slow burst. */
#define BURST_WINDOW_S (3 * 3600.0)

/* One EM step for the gap between two items of a source: a follow-up (lag
 * exponential with the current tau) or background, both truncated to the
 * burst window. Background gaps that short are close to uniform for sources
 * that publish less than about once per window, whatever their rhythm, so
 * only those sources are fitted: the rate model's errors stay out. */
static void
learn_gap(struct fs_ctx *c, double gap_s, double r)
{
	if (r * BURST_WINDOW_S > 0.3)
		return;
	c->em_items += 1;
	if (gap_s < BURST_WINDOW_S) {
		double tau = c->burst_tau_s, G = BURST_WINDOW_S;
		double pi = c->em_short > 0 ? c->em_follow / c->em_short : 0.5;
		if (pi < 0.01)
			pi = 0.01;
		if (pi > 0.99)
			pi = 0.99;
		double fb = exp(-gap_s / tau) / (tau * (1 - exp(-G / tau)));
		double fo = 1 / G;
		double rho = pi * fb / (pi * fb + (1 - pi) * fo + 1e-300);
		c->em_short += 1;
		c->em_follow += rho;
		c->em_lag += rho * gap_s;
		if (c->em_follow > 0) {
			c->burst_tau_s = c->em_lag / c->em_follow;
			if (c->burst_tau_s < 30)
				c->burst_tau_s = 30;
			if (c->burst_tau_s > G / 3)
				c->burst_tau_s = G / 3;
		}
	}
	c->follow_share = c->em_follow / c->em_items;
	if (c->follow_share > 0.9)
		c->follow_share = 0.9;
}

static void
fs_fetched(void *ctx, void *st, const struct fr_fetch *fe)
{
	struct fs_ctx *c = ctx;
	struct fs_state *f = st;
	double now = fe->now_s, prev = f->acc.last_s;

	/* A failed fetch saw nothing: the unseen items still wait, and the
	 * next window still opens at the last fetch that worked. */
	if (fe->status == FR_FETCH_ERROR)
		return;
	/* A 304 found nothing new: its window (prev, now] is observed, as a
	 * simulated fetch that finds nothing is (before, a live crawl lost
	 * the exposure of every 304: tests/e2e/parity.sh). */
	if (fe->status == FR_FETCH_OK || fe->status == FR_FETCH_NOT_MODIFIED) {
		struct fr_ratesnap snap, bsnap;
		struct fr_burst b;
		if (c->hazard || c->bursts)
			snapshot(c, f, &snap, &b);
		if (c->hazard)
			hz_learn(c, f, hz_class(snap.r), &snap, &b, follow_ratio(c), f->last_item_s, prev, now,
				 fe->published_s, fe->n_items);
		/* The background is the source's own rate at the hour of the
		 * item, rhythm included: bursts are what it does not explain.
		 * The same snapshot (the model has not moved), scaled. */
		if (c->bursts) {
			bsnap = snap;
			bsnap.scale = 1 - c->follow_share;
		}
		for (size_t i = 0; i < fe->n_items; i++) {
			double p = fe->published_s[i];
			if (isnan(p))
				continue;
			if (c->bursts && !isnan(f->last_item_s) && p >= f->last_item_s)
				learn_gap(c, p - f->last_item_s,
					  fr_ratesnap_rate(&bsnap, (int64_t)floor(p / 3600)));
			if (isnan(f->last_item_s) || p > f->last_item_s)
				f->last_item_s = p;
		}
		fr_ratemodel_observe(&f->rm, &c->pop, &c->rp, prev, now, fe->published_s,
				     (unsigned)fe->n_items);
		/* Each source's own estimate (no prior) feeds the prior once it
		 * has been watched for a few days. */
		double e = f->rm.at_s - f->rm.since_s;
		if (e > 3 * 86400.0) {
			double own = (f->rm.count + 0.5) / (c->rp.tau_s * (1 - exp(-e / c->rp.tau_s)));
			double k = c->log_rate_n < 1000 ? 1 / (c->log_rate_n + 1) : 1e-3;
			c->log_rate_mean += k * (log(own) - c->log_rate_mean);
			c->log_rate_n += 1;
			c->pop.prior_rate = exp(c->log_rate_mean);
		}
	}
	/* Follow-ups still expected after now: the old ones decayed, plus the
	 * new items' (beta / tau) e^{-(now - p) / tau} each. */
	double beta = follow_ratio(c), tau = c->burst_tau_s;
	double amp = f->burst_amp > 0 ? f->burst_amp * exp(-(now - prev) / tau) : 0;
	if (c->bursts && fe->status == FR_FETCH_OK)
		for (size_t i = 0; i < fe->n_items; i++)
			if (!isnan(fe->published_s[i]) && now - fe->published_s[i] < 20 * tau)
				amp += beta / tau * exp(-(now - fe->published_s[i]) / tau);
	/* Fewer than 0.002 follow-ups still expected: none (saves the burst
	 * arithmetic for the many quiet sources). */
	f->burst_amp = amp * tau < 0.002 ? 0 : amp;
	fr_waitacc_reset(&f->acc, now);
}

static void
fs_rhythm(void *ctx, const void *st, double out[24])
{
	const struct fs_ctx *c = ctx;
	const struct fs_state *f = st;
	fr_ratemodel_profile(&f->rm, &c->pop, &c->rp, out);
}

static double
fs_rate(void *ctx, const void *st, double now_s)
{
	const struct fs_ctx *c = ctx;
	const struct fs_state *x = st;

	(void)now_s;
	return fr_ratemodel_mean_rate(&x->rm, &c->pop, &c->rp);
}

/* What the context learns across sources: the population's rhythm and rate
 * prior, the burst fit and the hazard table. The parameters, weights and the scheduler's
 * threshold are not learned state and stay as created. */
struct fs_learned {
	uint32_t magic, size;
	struct fr_ratepop pop;
	double em_items, em_short, em_follow, em_lag, follow_share;
	double log_rate_mean, log_rate_n, burst_tau_s;
	double hz_obs[HZ_CLASSES][HZ_BUCKETS], hz_pred[HZ_CLASSES][HZ_BUCKETS], hz_at_s;
};

#define FS_LEARNED_MAGIC 0x66736336u /* "fsc6": no unaligned hourly counts in the population */

static size_t
fs_ctx_save(const void *ctx, void *buf, size_t cap)
{
	const struct fs_ctx *c = ctx;
	struct fs_learned l;

	if (cap < sizeof(l))
		return sizeof(l);
	memset(&l, 0, sizeof(l));
	l.magic = FS_LEARNED_MAGIC;
	l.size = sizeof(l);
	l.pop = c->pop;
	l.em_items = c->em_items;
	l.em_short = c->em_short;
	l.em_follow = c->em_follow;
	l.em_lag = c->em_lag;
	l.follow_share = c->follow_share;
	l.log_rate_mean = c->log_rate_mean;
	l.log_rate_n = c->log_rate_n;
	l.burst_tau_s = c->burst_tau_s;
	memcpy(l.hz_obs, c->hz_obs, sizeof(l.hz_obs));
	memcpy(l.hz_pred, c->hz_pred, sizeof(l.hz_pred));
	l.hz_at_s = c->hz_at_s;
	memcpy(buf, &l, sizeof(l));
	return sizeof(l);
}

/* Puts learned state l into the context. */
static void
fs_apply(struct fs_ctx *c, const struct fs_learned *l)
{
	c->pop = l->pop;
	c->em_items = l->em_items;
	c->em_short = l->em_short;
	c->em_follow = l->em_follow;
	c->em_lag = l->em_lag;
	c->follow_share = l->follow_share;
	c->log_rate_mean = l->log_rate_mean;
	c->log_rate_n = l->log_rate_n;
	c->burst_tau_s = l->burst_tau_s;
	memcpy(c->hz_obs, l->hz_obs, sizeof(l->hz_obs));
	memcpy(c->hz_pred, l->hz_pred, sizeof(l->hz_pred));
	c->hz_at_s = l->hz_at_s;
	for (int k = 0; k < HZ_CLASSES; k++)
		hz_refit(c, k); /* the factors follow from the counts */
}

/* Whether a source learning under the context keeps finite answers: a few
 * fetches, each followed by urgency and due. Changes the context (its
 * learning); the caller puts it back. */
static int
fs_probe(struct fs_ctx *c)
{
	union {
		struct fs_state st;
		unsigned char b[256];
	} u;
	double now = c->pop.at_s > 0 && c->pop.at_s < 1e11 ? c->pop.at_s : 1.7e9;

	memset(&u, 0, sizeof(u));
	fs_init(c, &u.st, 0, now);
	for (int i = 0; i < 6; i++) {
		double pub[3] = {0, 0, NAN};
		struct fr_fetch f = {0};

		now += 3600.0 * (i + 1);
		pub[0] = now - 600;
		pub[1] = now - 1800;
		f.now_s = now;
		f.status = i % 3 == 0 ? FR_FETCH_OK : i % 3 == 1 ? FR_FETCH_NOT_MODIFIED : FR_FETCH_ERROR;
		f.n_items = f.status == FR_FETCH_OK ? 3 : 0;
		f.published_s = pub;
		fs_fetched(c, &u.st, &f);
		double r[24];

		if (isnan(fs_urgency(c, &u.st, now + 60)) || isnan(fs_due(c, &u.st, now, 100)) ||
		    isnan(fs_rate(c, &u.st, now)))
			return -1;
		fs_rhythm(c, &u.st, r);
		for (int h = 0; h < 24; h++)
			if (isnan(r[h]))
				return -1;
	}
	return 0;
}

/* v within [lo, hi] (NaN is not), else an error naming it. */
static int
fs_in(double v, const char *name, double lo, double hi, char *err, size_t errlen)
{
	if (v >= lo && v <= hi)
		return 0;
	return fr_errf(err, errlen, "%s = %g is outside [%g, %g]", name, v, lo, hi);
}

#define FS_MAX_COUNT 1e15
#define FS_MAX_TIME_S 1e11

/* The context's own learned values within the ranges its learning keeps
 * them in (fs_create's start, learn_gap, hz_learn); the population's are
 * the model's (fr_ratepop_check). */
static int
fs_check(const struct fs_learned *l, char *err, size_t errlen)
{
	const double M = FS_MAX_COUNT;
	char name[48];

	if (fr_ratepop_check(&l->pop, err, errlen) < 0 ||
	    fs_in(l->em_items, "em_items", 0, M, err, errlen) < 0 ||
	    fs_in(l->em_short, "em_short", 0, l->em_items, err, errlen) < 0 ||
	    fs_in(l->em_follow, "em_follow", 0, l->em_short, err, errlen) < 0 ||
	    fs_in(l->em_lag, "em_lag", 0, l->em_follow * BURST_WINDOW_S * (1 + 1e-9), err, errlen) <
	        0 ||
	    fs_in(l->follow_share, "follow_share", 0, 0.9, err, errlen) < 0 ||
	    fs_in(l->burst_tau_s, "burst_tau_s", 30, BURST_WINDOW_S / 3, err, errlen) < 0 ||
	    /* log items per second: 1e-22 to 1e4 */
	    fs_in(l->log_rate_mean, "log_rate_mean", -50, 10, err, errlen) < 0 ||
	    fs_in(l->log_rate_n, "log_rate_n", 0, M, err, errlen) < 0 ||
	    fs_in(l->hz_at_s, "hz_at_s", 0, FS_MAX_TIME_S, err, errlen) < 0)
		return -1;
	for (int k = 0; k < HZ_CLASSES; k++)
		for (int b = 0; b < HZ_BUCKETS; b++) {
			snprintf(name, sizeof(name), "hz_obs[%d][%d]", k, b);
			if (fs_in(l->hz_obs[k][b], name, 0, M, err, errlen) < 0)
				return -1;
			snprintf(name, sizeof(name), "hz_pred[%d][%d]", k, b);
			if (fs_in(l->hz_pred[k][b], name, 0, M, err, errlen) < 0)
				return -1;
		}
	return 0;
}

/* A saved context is outside data (the store's file): every value must lie
 * in the range learning can reach (fs_check), and a source learning under
 * it must keep finite answers (a last guard: the probe); else the context
 * stays as it was. */
static int
fs_ctx_load(void *ctx, const void *buf, size_t len, char *err, size_t errlen)
{
	struct fs_ctx *c = ctx;
	struct fs_learned l, old;
	char why[200];

	if (len != sizeof(l))
		return fr_errf(err, errlen, "freshet context: %zu bytes, this version saves %zu",
		               len, sizeof(l));
	memcpy(&l, buf, sizeof(l));
	if (l.magic != FS_LEARNED_MAGIC || l.size != sizeof(l))
		return fr_errf(err, errlen,
		               "freshet context: version 0x%08x of %u bytes, not 0x%08x",
		               (unsigned)l.magic, (unsigned)l.size, FS_LEARNED_MAGIC);
	if (fs_check(&l, why, sizeof(why)) < 0)
		return fr_errf(err, errlen, "freshet context: %s", why);
	fs_ctx_save(c, &old, sizeof(old));
	fs_apply(c, &l);
	if (fs_probe(c) != 0) {
		fs_apply(c, &old);
		return fr_errf(err, errlen,
		               "freshet context: a source learning under it gets a NaN");
	}
	fs_apply(c, &l); /* the probe's learning undone */
	return 0;
}

const struct fr_policy_ops fr_policy_freshet = {
	.name = "freshet",
	.help = "learned rates, rhythm and bursts, square-root index: tau=60 profile_tau=365 "
		"fast=7 prior=1 (days) shrink=1000 change_z=3 explore=16 bursts=1 hazard=1 profile=1 "
		"weight=0",
	.kind = FR_POLICY_INDEX,
	.theta0 = 100,
	.create = fs_create,
	.destroy = fs_destroy,
	.state_size = fs_state_size,
	.init = fs_init,
	.urgency = fs_urgency,
	.due = fs_due,
	.fetched = fs_fetched,
	.rhythm = fs_rhythm,
	.rate = fs_rate,
	.ctx_save = fs_ctx_save,
	.ctx_load = fs_ctx_load,
};
