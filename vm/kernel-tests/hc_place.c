// SPDX-License-Identifier: GPL-2.0
/*
 * hc_place MODE DEV MNT
 *
 * Placement test for O_HOT/O_COLD on a mounted ext4 filesystem.
 *   MODE honour : patched kernel, rotational disk, root, > 3 groups:
 *                 hot -> inode and every data extent in [0, n/3),
 *                 cold -> [n - n/3, n), unhinted -> parent's flex group;
 *                 hint_honoured counts every hinted create.
 *   MODE nonrot : patched kernel, queue/rotational = 0: hints ignored
 *                 (file lands where the unhinted sibling lands),
 *                 hint_dropped_nonrot counts every hinted create.
 *   MODE small  : patched kernel, fs with <= 3 groups: hints ignored,
 *                 hint_honoured does not move.
 *   MODE stock  : unpatched kernel: hints ignored, no hint_* counters.
 *   MODE stock-nonrot / stock-small: stock expectations on a
 *                 non-rotational disk / a <= 3 group fs.
 */
#include "hotcold_test.h"

enum mode { M_HONOUR, M_NONROT, M_SMALL, M_STOCK };

static struct ext4_geom G;
static enum mode mode;
static int smallfs, want_rot = 1;
static long hinted;	/* hinted creates done */
static int seq;

#define SMALL_SIZE 4096
#define SMALL_COUNT 4
#define LARGE_SIZE (64u << 20)

/*
 * Create count files with flag in dir d, check them, print one TAP line
 * for the inode placement and (when a hint should be honoured) one for
 * the data placement.  *ref is the inode group of the unhinted sibling in
 * this dir (set by the flag==0 batch, which must run first).
 */
static void batch(const struct dirinfo *d, const char *dlabel, int flag,
		  size_t size, int count, int tmpfile, int64_t *ref)
{
	int honour = flag && mode == M_HONOUR;
	uint32_t lo = 0, hi = 0;
	int i, inode_ok = 1, data_ok = 1, created = 0;
	char what[160];

	if (flag == O_HOT) {
		lo = 0;
		hi = hot_end(&G);
	} else if (flag == O_COLD) {
		lo = cold_start(&G);
		hi = G.ngroups;
	}
	snprintf(what, sizeof(what), "%d %s %s%s file(s) of %zu KiB in %s "
		 "(dir group %u)", count, flag_name(flag),
		 tmpfile ? "O_TMPFILE " : "", size >= (1u << 20) ? "large" :
		 "small", size >> 10, dlabel, d->group);

	for (i = 0; i < count; i++) {
		struct fileres r;
		char name[64];
		int iok, dok = 1;

		snprintf(name, sizeof(name), "f%04d-%s", seq++,
			 flag_name(flag));
		if (make_file(&G, d->path, tmpfile ? NULL : name, flag, size,
			      &r)) {
			inode_ok = data_ok = 0;
			continue;
		}
		created++;
		if (flag)
			hinted++;
		if (honour) {
			iok = r.igroup >= lo && r.igroup < hi;
			if (size)
				dok = r.eg.nextents > 0 && !r.eg.unmapped &&
				      r.eg.min_group >= lo &&
				      r.eg.max_group < hi;
		} else if (!flag) {
			iok = same_flex(&G, r.igroup, d->group);
			if (*ref < 0)
				*ref = r.igroup;
		} else {
			/* ignored hint: exactly like the unhinted sibling */
			iok = same_flex(&G, r.igroup, d->group) &&
			      (*ref < 0 || r.igroup == (uint32_t)*ref);
		}
		inode_ok &= iok;
		data_ok &= dok;
		diag("  %s/%s ino %" PRIu64 " group %u (parent flex [%u,%u), "
		     "unhinted sibling group %" PRId64 ") extents %u "
		     "unmapped %u groups %u..%u: %s%s%s",
		     dlabel, tmpfile ? "(tmpfile)" : name, r.ino, r.igroup,
		     flex_start(&G, d->group),
		     flex_start(&G, d->group) + G.flex_size, *ref,
		     r.eg.nextents, r.eg.unmapped, r.eg.min_group,
		     r.eg.max_group, r.eg.desc, iok ? "" : " [INODE BAD]",
		     dok ? "" : " [DATA BAD]");
	}
	if (honour) {
		tap_ok(inode_ok && created == count,
		       "%s: inode groups in [%u,%u)", what, lo, hi);
		if (size)
			tap_ok(data_ok && created == count,
			       "%s: every data extent in groups [%u,%u)", what,
			       lo, hi);
	} else if (!flag) {
		tap_ok(inode_ok && created == count,
		       "%s: inode in the parent's flex group [%u,%u)", what,
		       flex_start(&G, d->group),
		       flex_start(&G, d->group) + G.flex_size);
	} else {
		tap_ok(inode_ok && created == count,
		       "%s: hint ignored, inode group == unhinted sibling's "
		       "(%" PRId64 ") in parent's flex group", what, *ref);
	}
}

static void dir_suite(const struct dirinfo *d, const char *label,
		      int large_flags)
{
	int64_t ref = -1;
	static const int flags[] = { 0, O_HOT, O_COLD };
	unsigned int i;

	/* Large files first: their data goal is then not disturbed. */
	for (i = 0; i < 3; i++)
		if (large_flags & (1 << i))
			batch(d, label, flags[i], LARGE_SIZE, 1, 0, &ref);
	for (i = 0; i < 3; i++)
		batch(d, label, flags[i], SMALL_SIZE, SMALL_COUNT, 0, &ref);
}

int main(int argc, char **argv)
{
	struct dirinfo root, mid, cold;
	struct counters c0, c1, c2, d;
	long long noregion0;
	const char *dev, *mnt, *devname;
	char prefix[32];
	int64_t ref;

	if (argc != 4) {
		fprintf(stderr, "usage: %s honour|nonrot|small|stock|stock-nonrot|"
			"stock-small DEV MNT\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "honour"))
		mode = M_HONOUR;
	else if (!strcmp(argv[1], "nonrot"))
		mode = M_NONROT, want_rot = 0;
	else if (!strcmp(argv[1], "small"))
		mode = M_SMALL, smallfs = 1;
	else if (!strcmp(argv[1], "stock"))
		mode = M_STOCK;
	else if (!strcmp(argv[1], "stock-nonrot"))
		mode = M_STOCK, want_rot = 0;
	else if (!strcmp(argv[1], "stock-small"))
		mode = M_STOCK, smallfs = 1;
	else {
		fprintf(stderr, "hc_place: bad MODE '%s'\n", argv[1]);
		return 2;
	}
	dev = argv[2];
	mnt = argv[3];
	devname = dev_basename(dev);
	snprintf(prefix, sizeof(prefix), "place-%s", argv[1]);
	tap_init(prefix);

	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	ext4_print_geom(dev, &G);
	if (dir_info(mnt, &G, &root))
		tap_bail("stat %s", mnt);

	/* preconditions */
	{
		char p[128], buf[8] = "";
		int fd;

		snprintf(p, sizeof(p), "/sys/block/%s/queue/rotational",
			 devname);
		fd = open(p, O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf) - 1) < 0)
				buf[0] = 0;
			close(fd);
		}
		tap_ok(buf[0] == (want_rot ? '1' : '0'),
		       "precondition: %s reads %c (got '%c')", p,
		       want_rot ? '1' : '0', buf[0] ? buf[0] : '?');
	}
	if (smallfs)
		tap_ok(G.ngroups <= 3, "precondition: %s has <= 3 block "
		       "groups (%u)", dev, G.ngroups);
	else
		tap_ok(G.ngroups > 3 && G.ngroups / 3 >= G.flex_size,
		       "precondition: %s has > 3 block groups (%u) and a third "
		       "holds a whole flex group (%u)", dev, G.ngroups,
		       G.flex_size);

	read_counters(devname, &c0);
	noregion0 = read_counter(devname, "hint_dropped_noregion");
	if (mode == M_STOCK)
		tap_ok(c0.v[C_HONOURED] < 0 && c0.v[C_FALLBACK] < 0,
		       "stock kernel has no /sys/fs/ext4/%s/hint_* counters",
		       devname);
	else
		tap_ok(counters_exist(&c0),
		       "patched kernel has /sys/fs/ext4/%s/hint_{honoured,"
		       "dropped_nonrot,dropped_noperm,fallback}", devname);

	if (smallfs) {
		struct dirinfo sub;
		char p[600];

		snprintf(p, sizeof(p), "%s/small-sub", mnt);
		if (mkdir(p, 0755) || dir_info(p, &G, &sub))
			tap_bail("mkdir %s: %s", p, strerror(errno));
		dir_suite(&root, "root", 0);
		dir_suite(&sub, "small-sub", 0);
		ref = -1;
		batch(&sub, "small-sub", 0, 8u << 20, 1, 0, &ref);
		batch(&sub, "small-sub", O_HOT, 8u << 20, 1, 0, &ref);
		batch(&sub, "small-sub", O_COLD, 8u << 20, 1, 0, &ref);
	} else {
		if (pick_dirs(mnt, "pd", &G, 0755, &mid, &cold))
			tap_bail("no top-level directory landed in the middle "
				 "third after 64 mkdirs");
		/* mid: hot and cold must both move; large for all */
		dir_suite(&mid, "mid", 7);
		/* root (group 0, hot side): cold must move */
		dir_suite(&root, "root", 4);
		if (cold.valid)
			dir_suite(&cold, "cold-side", 2);
		else
			diag("no top-level dir landed in the cold third; "
			     "skipping that (optional) variant");
	}

	read_counters(devname, &c1);
	if (mode != M_STOCK) {
		counters_delta(&c0, &c1, &d, "regular creates");
		if (mode == M_HONOUR)
			tap_ok(d.v[C_HONOURED] == hinted &&
			       !d.v[C_NONROT] && !d.v[C_NOPERM] &&
			       !d.v[C_FALLBACK],
			       "hint_honoured grew by the %ld hinted creates, "
			       "other counters unchanged", hinted);
		else if (mode == M_NONROT)
			tap_ok(d.v[C_NONROT] == hinted && !d.v[C_HONOURED] &&
			       !d.v[C_NOPERM] && !d.v[C_FALLBACK],
			       "hint_dropped_nonrot grew by the %ld hinted "
			       "creates, other counters unchanged", hinted);
		else
			tap_ok(d.v[C_HONOURED] == 0 && !d.v[C_FALLBACK] &&
			       read_counter(devname, "hint_dropped_noregion") -
			       noregion0 == hinted,
			       "small fs: the %ld hinted creates are counted in "
			       "hint_dropped_noregion (+%lld), none in "
			       "hint_honoured (%lld) or hint_fallback (%lld)",
			       hinted, read_counter(devname,
						    "hint_dropped_noregion") -
			       noregion0, d.v[C_HONOURED], d.v[C_FALLBACK]);
	}

	/* O_TMPFILE honours (or ignores) the flags the same way */
	{
		const struct dirinfo *td = smallfs ? &root : &mid;
		long h0 = hinted;

		ref = -1;
		batch(td, smallfs ? "root" : "mid", 0, SMALL_SIZE, 1,
		      1, &ref);
		batch(td, smallfs ? "root" : "mid", O_HOT, SMALL_SIZE,
		      1, 1, &ref);
		batch(td, smallfs ? "root" : "mid", O_COLD,
		      SMALL_SIZE, 1, 1, &ref);
		read_counters(devname, &c2);
		if (mode == M_HONOUR || mode == M_NONROT) {
			int idx = mode == M_HONOUR ? C_HONOURED : C_NONROT;

			counters_delta(&c1, &c2, &d, "O_TMPFILE creates");
			tap_ok(d.v[idx] == hinted - h0,
			       "O_TMPFILE: %s grew by %ld", counter_names[idx],
			       hinted - h0);
		}
	}
	return tap_exit();
}
