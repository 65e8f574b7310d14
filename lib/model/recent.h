/* recent.h - the latest publication times of a source, kept ascending in a
 * small caller-owned array (the feed readers' rules look at recent items). */
#ifndef FR_MODEL_RECENT_H
#define FR_MODEL_RECENT_H

#include <stdint.h>

/* Adds t to pub[0..*n) (ascending, at most cap entries): when full, the
 * oldest goes, and a t older than all of them is ignored. */
void fr_recent_add(float *pub, uint8_t *n, int cap, float t);

#endif
