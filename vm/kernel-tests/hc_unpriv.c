// SPDX-License-Identifier: GPL-2.0
/*
 * hc_unpriv MODE DEV MNT
 *
 * Forks a child that drops to uid/gid 65534 (no supplementary groups, no
 * capabilities) and creates files in a world-writable top-level directory
 * whose flex group lies in the middle third of DEV.
 *   MODE drop   : patched, fs reserved gid is not 65534: O_HOT is dropped
 *                 (lands like the unhinted sibling, hint_dropped_noperm
 *                 counts it), O_COLD is honoured.
 *   MODE resgid : patched, fs reserved gid (tune2fs -g) is 65534: both
 *                 honoured.
 *   MODE stock  : unpatched: both ignored.
 * The same directory is reused when run again on the same fs.
 */
#include "hotcold_test.h"
#include <grp.h>
#include <sys/wait.h>

#define NOBODY 65534
#define NFILES 3

enum mode { M_DROP, M_RESGID, M_STOCK };

static struct ext4_geom G;

static unsigned long long cap_eff(void)
{
	char buf[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "CapEff:", 7))
			v = strtoull(buf + 7, NULL, 16);
	fclose(f);
	return v;
}

/* Child: returns exit status */
static int child(enum mode mode, const struct dirinfo *d, const char *tag)
{
	static const int flags[] = { 0, O_HOT, O_COLD };
	int64_t ref = -1;
	unsigned int fi;
	int i;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		tap_ok(0, "drop to uid/gid %d: %s", NOBODY, strerror(errno));
		return 1;
	}
	tap_ok(getuid() == NOBODY && geteuid() == NOBODY &&
	       getgid() == NOBODY && getegid() == NOBODY &&
	       getgroups(0, NULL) == 0,
	       "child runs as uid %d gid %d, no supplementary groups",
	       (int)geteuid(), (int)getegid());
	tap_ok(cap_eff() == 0, "child has no effective capabilities "
	       "(CapEff %#llx), so no CAP_SYS_RESOURCE", cap_eff());

	for (fi = 0; fi < 3; fi++) {
		int flag = flags[fi];
		int honour = flag && (mode == M_RESGID ||
				      (mode == M_DROP && flag == O_COLD));
		uint32_t lo = flag == O_COLD ? cold_start(&G) : 0;
		uint32_t hi = flag == O_COLD ? G.ngroups : hot_end(&G);
		int all_ok = 1, created = 0;

		for (i = 0; i < NFILES; i++) {
			struct fileres r;
			char name[64];
			int ok;

			snprintf(name, sizeof(name), "%s-%s-%d", tag,
				 flag_name(flag), i);
			if (make_file(&G, d->path, name, flag, 4096, &r)) {
				all_ok = 0;
				continue;
			}
			created++;
			if (honour)
				ok = r.igroup >= lo && r.igroup < hi &&
				     r.eg.nextents && !r.eg.unmapped &&
				     r.eg.min_group >= lo && r.eg.max_group < hi;
			else {
				ok = same_flex(&G, r.igroup, d->group) &&
				     (ref < 0 || r.igroup == (uint32_t)ref);
				if (!flag && ref < 0)
					ref = r.igroup;
			}
			all_ok &= ok;
			diag("  %s ino %" PRIu64 " group %u data groups %u..%u "
			     "(%s) dir group %u sibling %" PRId64 "%s", name,
			     r.ino, r.igroup, r.eg.min_group, r.eg.max_group,
			     r.eg.desc, d->group, ref, ok ? "" : " [BAD]");
		}
		if (honour)
			tap_ok(all_ok && created == NFILES,
			       "uid %d %s files: honoured, inode and data in "
			       "[%u,%u)", NOBODY, flag_name(flag), lo, hi);
		else if (!flag)
			tap_ok(all_ok && created == NFILES,
			       "uid %d unhinted files: in the dir's flex group",
			       NOBODY);
		else
			tap_ok(all_ok && created == NFILES,
			       "uid %d %s files: hint dropped, placed like the "
			       "unhinted sibling (group %" PRId64 ")", NOBODY,
			       flag_name(flag), ref);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct dirinfo mid, cold;
	struct counters c0, c1, d;
	const char *dev, *mnt, *devname;
	enum mode mode;
	char prefix[32];
	int status;
	pid_t pid;

	if (argc != 4) {
		fprintf(stderr, "usage: %s drop|resgid|stock DEV MNT\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "drop"))
		mode = M_DROP;
	else if (!strcmp(argv[1], "resgid"))
		mode = M_RESGID;
	else if (!strcmp(argv[1], "stock"))
		mode = M_STOCK;
	else {
		fprintf(stderr, "hc_unpriv: bad MODE '%s'\n", argv[1]);
		return 2;
	}
	dev = argv[2];
	mnt = argv[3];
	devname = dev_basename(dev);
	snprintf(prefix, sizeof(prefix), "unpriv-%s", argv[1]);
	tap_init(prefix);
	if (geteuid() != 0)
		tap_bail("must start as root");
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	ext4_print_geom(dev, &G);
	if (mode == M_RESGID)
		tap_ok(G.def_resgid == NOBODY, "precondition: s_def_resgid is "
		       "%d (got %u)", NOBODY, G.def_resgid);
	else if (mode == M_DROP)
		tap_ok(G.def_resgid != NOBODY && G.def_resuid != NOBODY,
		       "precondition: reserved uid/gid (%u/%u) is not %d",
		       G.def_resuid, G.def_resgid, NOBODY);
	if (pick_dirs(mnt, "ud", &G, 01777, &mid, &cold))
		tap_bail("no world-writable top-level dir in the middle third");

	read_counters(devname, &c0);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		char tag[48];	/* unique per run: the fs may be reused */

		snprintf(tag, sizeof(tag), "%s%d", argv[1], (int)getppid());
		_exit(child(mode, &mid, tag));
	}
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "unprivileged child finished normally (status %#x)", status);
	read_counters(devname, &c1);
	if (mode == M_STOCK) {
		tap_ok(c0.v[C_HONOURED] < 0, "stock: no hint_* counters");
		return tap_exit();
	}
	counters_delta(&c0, &c1, &d, "unprivileged creates");
	if (mode == M_DROP)
		tap_ok(d.v[C_NOPERM] == NFILES && d.v[C_HONOURED] == NFILES &&
		       !d.v[C_NONROT] && !d.v[C_FALLBACK],
		       "hint_dropped_noperm +%d (hot), hint_honoured +%d "
		       "(cold)", NFILES, NFILES);
	else
		tap_ok(d.v[C_HONOURED] == 2 * NFILES && !d.v[C_NOPERM] &&
		       !d.v[C_NONROT] && !d.v[C_FALLBACK],
		       "reserved gid: hint_honoured +%d (hot and cold), "
		       "hint_dropped_noperm unchanged", 2 * NFILES);
	return tap_exit();
}
