// SPDX-License-Identifier: GPL-2.0
#include "dp_stats.h"

#include <string.h>

#include "pxp_maps.h"

static const struct {
	const char *name;
	bool drop;
} fields[PXP_DP_F__MAX] = {
#define X(field, column, width, rate_column) { #field, !(rate_column) },
	PXP_DP_QUEUE_FIELDS(X)
#undef X
};

const char *pxp_dp_field_name(unsigned int field)
{
	return field < PXP_DP_F__MAX ? fields[field].name : "?";
}

bool pxp_dp_field_is_drop(unsigned int field)
{
	return field < PXP_DP_F__MAX && fields[field].drop;
}

enum pxp_dp_field pxp_dp_counter_field(unsigned int counter)
{
	static const enum pxp_dp_field field_of[PXP_CNT__MAX] = {
#define X(id, key, field, description) [PXP_CNT_##id] = PXP_DP_F_##field,
		PXP_COUNTERS(X)
#undef X
	};

	return counter < PXP_CNT__MAX ? field_of[counter] : PXP_DP_F_none;
}

void pxp_dp_stats_total(const struct pxp_dp_stats *st, struct pxp_dp_queue_stats *total)
{
	memset(total, 0, sizeof(*total));
	for (unsigned int i = 0; i < st->nr_queues && i < PXP_DP_MAX_QUEUES; i++)
		for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
			total->field[f] += st->queue[i].field[f];
}
