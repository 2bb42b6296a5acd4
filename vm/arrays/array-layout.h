/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm/arrays/array-layout.h - where a sector of an md RAID0 or dm-linear
 * array lives on its members, and which third of a member that is.
 *
 * Header-only, no I/O: the guest's hc-array (which builds the arrays) and
 * hc-arrayload (FIEMAP through the layout) and the host's hc-arraytrace
 * (the members' traces) all split ranges the same way.
 *
 * The two layouts, with n members of equal size M sectors:
 *   raid0   md RAID0 built without a superblock (mdadm --build): data from
 *           member sector 0, one strip zone (equal members), chunk c
 *           sectors; array sector s is chunk k = s / c, on member k % n at
 *           (k / n) * c + s % c.  M is rounded down to a whole chunk.
 *   linear  dm-linear concatenation: member s / M at s % M.
 *
 * The thirds of a member: sector x is in third 3x / M (0 outer, 2 inner).
 */
#ifndef ARRAY_LAYOUT_H
#define ARRAY_LAYOUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define AL_MAX_MEMBERS 16

enum al_kind { AL_RAID0, AL_LINEAR };

struct al_layout {
	enum al_kind kind;
	unsigned int n;		/* members */
	uint64_t chunk;		/* sectors, raid0 only */
	uint64_t member;	/* usable sectors per member */
};

/* Parse "raid0:CHUNK_KIB" or "linear"; returns 0 or -1. */
static inline int al_parse(const char *s, struct al_layout *l)
{
	memset(l, 0, sizeof(*l));
	if (!strcmp(s, "linear")) {
		l->kind = AL_LINEAR;
		return 0;
	}
	if (!strncmp(s, "raid0:", 6)) {
		char *end;
		unsigned long long k = strtoull(s + 6, &end, 10);

		/* md wants a power of two of at least a page */
		if (*end || k < 4 || k > 1048576 || (k & (k - 1)))
			return -1;
		l->kind = AL_RAID0;
		l->chunk = k * 2;
		return 0;
	}
	return -1;
}

/* Members of @member_sectors each: the usable size per member. */
static inline void al_set_members(struct al_layout *l, unsigned int n,
				  uint64_t member_sectors)
{
	l->n = n;
	l->member = member_sectors;
	if (l->kind == AL_RAID0)
		l->member -= member_sectors % l->chunk;
}

static inline uint64_t al_array_sectors(const struct al_layout *l)
{
	return l->member * l->n;
}

/* first sector of third t (0..3) of a member of m sectors */
static inline uint64_t al_third_start(uint64_t m, unsigned int t)
{
	return (m * t + 2) / 3;
}

/*
 * Add the sectors [s, s + len) of a member of @m sectors to bytes[0..2],
 * third by third.
 */
static inline void al_add_thirds(uint64_t m, uint64_t s, uint64_t len,
				 uint64_t bytes[3])
{
	unsigned int t;

	for (t = 0; t < 3 && len; t++) {
		uint64_t a = al_third_start(m, t), b = al_third_start(m, t + 1);
		uint64_t lo = s > a ? s : a, hi = s + len < b ? s + len : b;

		if (hi > lo)
			bytes[t] += (hi - lo) * 512;
	}
}

/*
 * Where hc-arrayload reads its phase markers on a member of @m sectors:
 * the middle, 4 KiB aligned.
 */
static inline uint64_t al_marker_sector(uint64_t m)
{
	return (m / 2) & ~(uint64_t)7;
}

/*
 * Split the array's sectors [s, s + len) into runs on the members:
 * fn(member, member sector, sectors, arg) for each, in array order.
 * Returns -1 if the range runs past the array's end, else 0.
 */
typedef void (*al_run_fn)(unsigned int member, uint64_t msec, uint64_t len,
			  void *arg);

static inline int al_map(const struct al_layout *l, uint64_t s, uint64_t len,
			 al_run_fn fn, void *arg)
{
	if (s + len > al_array_sectors(l) || s + len < s)
		return -1;
	while (len) {
		uint64_t run, msec;
		unsigned int mem;

		if (l->kind == AL_LINEAR) {
			mem = (unsigned int)(s / l->member);
			msec = s % l->member;
			run = l->member - msec;
		} else {
			uint64_t k = s / l->chunk;

			mem = (unsigned int)(k % l->n);
			msec = (k / l->n) * l->chunk + s % l->chunk;
			run = l->chunk - s % l->chunk;
		}
		if (run > len)
			run = len;
		fn(mem, msec, run, arg);
		s += run;
		len -= run;
	}
	return 0;
}

#endif /* ARRAY_LAYOUT_H */
