// SPDX-License-Identifier: GPL-2.0
/*
 * test-array-layout - array-layout.h on the host: the layouts' parsing,
 * where array sectors land on 2 and 4 members (RAID0, dm-linear), and the
 * split into thirds.  arrays-check also checks the mapping against the
 * kernel (traces vs FIEMAP) for 2 members; this covers the arithmetic for
 * any count.  TAP on stdout (vm/lib/tap.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "tap.h"
#include "array-layout.h"

struct runs {
	unsigned int n;
	unsigned int mem[64];
	uint64_t msec[64], len[64];
};

static void collect(unsigned int m, uint64_t msec, uint64_t len, void *arg)
{
	struct runs *r = arg;

	if (r->n < 64) {
		r->mem[r->n] = m;
		r->msec[r->n] = msec;
		r->len[r->n] = len;
	}
	r->n++;
}

/* one run expected: member m at msec, len sectors */
static int one(const struct al_layout *l, uint64_t s, uint64_t len,
	       unsigned int m, uint64_t msec)
{
	struct runs r = { 0 };

	if (al_map(l, s, len, collect, &r) || r.n != 1)
		return 0;
	if (r.mem[0] != m || r.msec[0] != msec || r.len[0] != len) {
		diag("sector %" PRIu64 "+%" PRIu64 ": member %u at %" PRIu64
		     ", want %u at %" PRIu64, s, len, r.mem[0], r.msec[0], m, msec);
		return 0;
	}
	return 1;
}

int main(void)
{
	struct al_layout l;
	struct runs r = { 0 };
	uint64_t b[3] = { 0 }, M = 2097152;	/* a 1 GiB member */
	unsigned int i;
	int ok;

	tap_init("array-layout");
	tap_ok(!al_parse("raid0:512", &l) && l.kind == AL_RAID0 && l.chunk == 1024,
	       "raid0:512 is a RAID0 with 1024-sector chunks");
	tap_ok(!al_parse("linear", &l) && l.kind == AL_LINEAR, "linear parses");
	tap_ok(al_parse("raid0:3", &l) && al_parse("raid0:2", &l) &&
	       al_parse("raid0:", &l) && al_parse("raid5:64", &l) &&
	       al_parse("raid0:64x", &l),
	       "a chunk not a power of two >= 4 KiB, or another level, is refused");

	al_parse("raid0:512", &l);
	al_set_members(&l, 2, M + 1000);
	tap_ok(l.member == M && al_array_sectors(&l) == 2 * M,
	       "RAID0 members are cut to whole chunks");
	ok = one(&l, 0, 8, 0, 0) && one(&l, 1024, 8, 1, 0) &&
	     one(&l, 2048 + 5, 3, 0, 1024 + 5) && one(&l, 2 * M - 8, 8, 1, M - 8);
	tap_ok(ok, "RAID0 over 2: chunks alternate, stripe k at k chunks in");
	al_set_members(&l, 4, M);
	ok = one(&l, 3 * 1024, 8, 3, 0) && one(&l, 4 * 1024, 8, 0, 1024) &&
	     one(&l, 4 * M - 1, 1, 3, M - 1);
	tap_ok(ok, "RAID0 over 4: chunk 3 on member 3, chunk 4 back on member 0");
	tap_ok(al_map(&l, 512, 2048, collect, &r) == 0 && r.n == 3 &&
	       r.mem[0] == 0 && r.len[0] == 512 && r.mem[1] == 1 &&
	       r.len[1] == 1024 && r.mem[2] == 2 && r.len[2] == 512,
	       "a range across chunk boundaries splits at each (512 + 1024 + 512)");
	tap_ok(al_map(&l, 4 * M - 8, 16, collect, &r) == -1,
	       "a range past the array's end is refused");

	al_parse("linear", &l);
	al_set_members(&l, 4, M + 1000);
	tap_ok(l.member == M + 1000, "linear members keep their whole size");
	ok = one(&l, 0, 8, 0, 0) && one(&l, M + 1000, 8, 1, 0) &&
	     one(&l, 3 * (M + 1000) + 7, 1, 3, 7);
	tap_ok(ok, "linear over 4: member s / M at s %% M");
	r.n = 0;
	tap_ok(al_map(&l, M + 1000 - 4, 8, collect, &r) == 0 && r.n == 2 &&
	       r.mem[0] == 0 && r.len[0] == 4 && r.mem[1] == 1 && r.msec[1] == 0,
	       "a range across members splits at the boundary");

	/* thirds of a 1 GiB member: [0, 699051), [699051, 1398102), [.., M) */
	al_add_thirds(M, 0, M, b);
	tap_ok(b[0] + b[1] + b[2] == M * 512 && b[0] == 699051ull * 512 &&
	       b[1] == 699051ull * 512 && b[2] == 699050ull * 512,
	       "a whole member splits into thirds that add up");
	for (i = 0; i < 3; i++)
		b[i] = 0;
	al_add_thirds(M, 699050, 2, b);
	tap_ok(b[0] == 512 && b[1] == 512 && b[2] == 0,
	       "a range across the first boundary counts a sector on each side");
	tap_ok(al_marker_sector(M) == M / 2 && al_marker_sector(M + 5) % 8 == 0,
	       "the marker sector is the member's middle, 4 KiB aligned");
	return tap_exit();
}
