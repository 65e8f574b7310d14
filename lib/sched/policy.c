/* policy.c - the registry of policies by name. */
#include "sched/policy.h"

#include <string.h>

/* NOTE: keep in the order --help lists them. */
static const struct fr_policy_ops *const all[] = {
	&fr_policy_roundrobin,
	&fr_policy_buzzwise,
	&fr_policy_airballoon,
	/* baselines (baselines.md) */
	&fr_policy_nutch,
	&fr_policy_stormcrawler,
	&fr_policy_heritrix,
	&fr_policy_miniflux,
	&fr_policy_newsblur,
	&fr_policy_ttrss,
	&fr_policy_mediacloud,
	&fr_policy_commafeed,
	/* research limits and freshet's own */
	&fr_policy_freshet,
	&fr_policy_oracle,
	/* revisit schedules for pages that change (politeness.md) */
	&fr_policy_cho_delayed,
	&fr_policy_opt_polite_delayed,
	&fr_policy_cho_equal,
};

const struct fr_policy_ops *
fr_policy_find(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

const struct fr_policy_ops *
fr_policy_at(size_t i)
{
	return i < sizeof(all) / sizeof(all[0]) ? all[i] : NULL;
}
