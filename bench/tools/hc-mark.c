// SPDX-License-Identifier: GPL-2.0
/*
 * hc-mark - mark an ext4 directory hot or cold (patch 12), so that files
 * created in it by any program, unchanged, inherit the hint.
 *
 * SYNOPSIS
 *	hc-mark hot|cold DIR...
 *	hc-mark none DIR...
 *	hc-mark DIR...
 *
 * DESCRIPTION
 *	hot or cold sets the directory's system.hotcold extended attribute;
 *	none removes it (a directory never marked is left as it is); with no
 *	mode, each DIR's mark is printed ("DIR hot", "DIR cold" or "DIR
 *	none").  The kernel's rules apply: only the directory's owner or
 *	CAP_FOWNER may mark it, and "hot" also needs the right to create O_HOT
 *	files (CAP_SYS_RESOURCE).  The guest's busybox has no setfattr; this
 *	is the benchmark's (bench/guest/guest-scenario.sh aged, the ";@mark" lines of a job
 *	file).
 *
 * EXIT STATUS
 *	0 every DIR done; 1 the kernel refused one (the message names it and
 *	the reason: EOPNOTSUPP on a kernel without patch 12, EPERM, ...); 2
 *	bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#define XNAME "system.hotcold"

static int usage(void)
{
	fprintf(stderr, "usage: hc-mark [hot|cold|none] DIR...\n");
	return 2;
}

static int show(const char *dir)
{
	char v[16];
	ssize_t n = getxattr(dir, XNAME, v, sizeof(v) - 1);

	if (n < 0 && errno == ENODATA) {
		printf("%s none\n", dir);
		return 0;
	}
	if (n < 0) {
		fprintf(stderr, "hc-mark: %s: reading %s: %s\n", dir, XNAME, strerror(errno));
		return 1;
	}
	v[n] = '\0';
	printf("%s %s\n", dir, v);
	return 0;
}

static int mark(const char *mode, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "hc-mark: %s: not a directory\n", dir);
		return 1;
	}
	if (strcmp(mode, "none") == 0) {
		if (removexattr(dir, XNAME) < 0 && errno != ENODATA) {
			fprintf(stderr, "hc-mark: %s: removing %s: %s\n", dir, XNAME, strerror(errno));
			return 1;
		}
		return 0;
	}
	if (setxattr(dir, XNAME, mode, strlen(mode), 0) < 0) {
		fprintf(stderr, "hc-mark: %s: setting %s=%s: %s\n", dir, XNAME, mode, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = NULL;
	int i = 1, rc = 0;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "hot") || !strcmp(argv[1], "cold") || !strcmp(argv[1], "none"))
		mode = argv[i++];
	else if (argv[1][0] == '-')
		return usage();
	if (i >= argc)
		return usage();
	for (; i < argc; i++)
		if ((mode ? mark(mode, argv[i]) : show(argv[i])) != 0)
			rc = 1;
	return rc;
}
