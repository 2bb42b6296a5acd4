// SPDX-License-Identifier: GPL-2.0
/*
 * hc_trace MODE DEV MNT
 *
 * Tracepoint ext4:ext4_hotcold_alloc, printk format
 *   "dev %d,%d dir %lu req %s outcome %s group %u"
 *   MODE honour : one hot + one cold create give exactly two lines,
 *                 "req hot outcome honoured group G" with G in [0,n/3)
 *                 and "req cold outcome honoured group G" with G in
 *                 [n-n/3,n); dev and dir match the file's fs and parent.
 *                 ext4:ext4_mballoc_alloc traced at the same time: the
 *                 first data allocation of each file prints HINT_REGION
 *                 among its flags (a flag above 0xffff: the event's
 *                 field must hold all 32 bits).
 *   MODE nonrot : same creates give outcome dropped_nonrot.
 *   MODE stock  : the event does not exist.
 */
#include "hotcold_test.h"
#include <sys/sysmacros.h>

#define TRACEFS "/sys/kernel/tracing"
#define EVDIR TRACEFS "/events/ext4/ext4_hotcold_alloc"
#define MBDIR TRACEFS "/events/ext4/ext4_mballoc_alloc"

enum mode { M_HONOUR, M_NONROT, M_STOCK };

static struct ext4_geom G;

struct ev {
	unsigned int maj, min;
	unsigned long dir;
	char req[16], outcome[32];
	unsigned int group;
};

int main(int argc, char **argv)
{
	const char *dev, *mnt;
	struct dirinfo mid, cold;
	struct ev evs[16];
	char mbflags[2][256] = { "", "" };
	struct fileres rh, rc;
	struct stat st;
	enum mode mode;
	char prefix[32], line[1024];
	int nev = 0, i, nlines = 0;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s honour|nonrot|stock DEV MNT\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "honour"))
		mode = M_HONOUR;
	else if (!strcmp(argv[1], "nonrot"))
		mode = M_NONROT;
	else if (!strcmp(argv[1], "stock"))
		mode = M_STOCK;
	else {
		fprintf(stderr, "hc_trace: bad MODE '%s'\n", argv[1]);
		return 2;
	}
	dev = argv[2];
	mnt = argv[3];
	snprintf(prefix, sizeof(prefix), "trace-%s", argv[1]);
	tap_init(prefix);

	if (mode == M_STOCK) {
		tap_ok(access(TRACEFS "/events/ext4", F_OK) == 0,
		       "tracefs ext4 events present at %s/events/ext4",
		       TRACEFS);
		tap_ok(access(EVDIR, F_OK) != 0,
		       "stock: no ext4_hotcold_alloc event");
		return tap_exit();
	}
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	if (stat(mnt, &st))
		tap_bail("stat %s: %s", mnt, strerror(errno));
	if (!tap_ok(access(EVDIR "/enable", W_OK) == 0,
		    "event %s exists", EVDIR))
		return tap_exit();
	if (pick_dirs(mnt, "td", &G, 0755, &mid, &cold))
		tap_bail("no top-level dir in the middle third");

	if (write_str(TRACEFS "/tracing_on", "1", 0) ||
	    write_str(TRACEFS "/trace", "", 1) ||
	    write_str(EVDIR "/enable", "1", 0) ||
	    write_str(MBDIR "/enable", "1", 0))
		tap_bail("cannot enable the events");
	if (make_file(&G, mid.path, "trace-hot", O_HOT, 4096, &rh) ||
	    make_file(&G, mid.path, "trace-cold", O_COLD, 4096, &rc))
		tap_bail("create failed");
	write_str(EVDIR "/enable", "0", 0);
	write_str(MBDIR "/enable", "0", 0);

	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		tap_bail("open trace: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "ext4_hotcold_alloc: ");
		char *m = strstr(line, "ext4_mballoc_alloc: ");

		if (m) {
			unsigned long ino;
			char fl[256];
			char *q = strstr(m, " inode ");
			char *r = strstr(m, " flags ");

			line[strcspn(line, "\n")] = 0;
			if (!q || !r || sscanf(q, " inode %lu", &ino) != 1 ||
			    sscanf(r, " flags %255s", fl) != 1) {
				diag("mballoc line not understood: %s", m);
				continue;
			}
			if (ino == rh.ino || ino == rc.ino) {
				diag("trace: %s", m);
				/* the first allocation of each file */
				if (!mbflags[ino == rc.ino][0])
					snprintf(mbflags[ino == rc.ino],
						 sizeof(mbflags[0]), "%s", fl);
			}
			continue;
		}
		if (!p)
			continue;
		nlines++;
		line[strcspn(line, "\n")] = 0;
		diag("trace: %s", p);
		if (nev < 16 &&
		    sscanf(p + 20, "dev %u,%u dir %lu req %15s outcome %31s "
			   "group %u", &evs[nev].maj, &evs[nev].min,
			   &evs[nev].dir, evs[nev].req, evs[nev].outcome,
			   &evs[nev].group) == 6)
			nev++;
		else
			diag("  ^ does not match the printk format");
	}
	fclose(f);
	diag("hot file ino %" PRIu64 " group %u, cold file ino %" PRIu64
	     " group %u, dir ino %" PRIu64 ", dev %u,%u", rh.ino, rh.igroup,
	     rc.ino, rc.igroup, mid.ino, major(st.st_dev), minor(st.st_dev));

	tap_ok(nlines == 2 && nev == 2, "two creates gave exactly two "
	       "well-formed ext4_hotcold_alloc lines (%d lines, %d parsed)",
	       nlines, nev);
	for (i = 0; i < 2; i++) {
		const char *req = i ? "cold" : "hot";
		const char *want = mode == M_HONOUR ? "honoured" :
						      "dropped_nonrot";
		uint32_t lo = i ? cold_start(&G) : 0;
		uint32_t hi = i ? G.ngroups : hot_end(&G);
		struct ev *e = NULL;
		int k;

		for (k = 0; k < nev; k++)
			if (!strcmp(evs[k].req, req))
				e = &evs[k];
		if (!tap_ok(e != NULL, "a 'req %s' line was traced", req))
			continue;
		tap_ok(!strcmp(e->outcome, want), "req %s outcome %s "
		       "(expected %s)", req, e->outcome, want);
		tap_ok(e->maj == major(st.st_dev) && e->min == minor(st.st_dev)
		       && e->dir == mid.ino,
		       "req %s: dev %u,%u dir %lu match the fs and parent "
		       "(%u,%u dir %" PRIu64 ")", req, e->maj, e->min, e->dir,
		       major(st.st_dev), minor(st.st_dev), mid.ino);
		if (mode == M_HONOUR)
			tap_ok(e->group >= lo && e->group < hi,
			       "req %s outcome honoured group %u in [%u,%u)",
			       req, e->group, lo, hi);
	}
	for (i = 0; mode == M_HONOUR && i < 2; i++) {
		char *fl = mbflags[i];
		size_t k = strlen("HINT_REGION");
		char *p = strstr(fl, "HINT_REGION");

		/* a whole name between '|' separators */
		tap_ok(p && (p == fl || p[-1] == '|') &&
		       (p[k] == '|' || p[k] == 0),
		       "ext4_mballoc_alloc of the %s file prints HINT_REGION "
		       "(flags '%s')", i ? "cold" : "hot", fl);
	}
	return tap_exit();
}
