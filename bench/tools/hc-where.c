// SPDX-License-Identifier: GPL-2.0
/*
 * hc-where - where a file's data is on its ext4: the fraction of its bytes
 * in each third of the disk (the O_HOT/O_COLD ABI's thirds: hot = the first
 * third of the block groups, cold = the last), from FIEMAP.
 *
 * SYNOPSIS
 *	hc-where FILE...
 *
 * OUTPUT
 *	A header row, then one CSV row per FILE:
 *	  file,inode,size,first,middle,last
 *	(a FILE holding a comma, a quote or a newline is quoted).  Reads
 *	nothing of the files' data; the FIEMAP call syncs them first.
 *
 * EXIT STATUS
 *	0 every FILE mapped; 1 one could not be (a message names it); 2 no
 *	FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "moveext.h"

int main(int argc, char **argv)
{
	int i, ret = 0;

	hc_prog = "hc-where";
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout, "usage: hc-where FILE...\n"
			"The fraction of each FILE's bytes in the first, middle and last third\n"
			"of its ext4 (FIEMAP); CSV: file,inode,size,first,middle,last\n");
		return argc < 2 ? 2 : 0;
	}
	printf("file,inode,size,first,middle,last\n");
	for (i = 1; i < argc; i++) {
		uint64_t b[3];
		struct hc_sb sb;
		struct stat st;
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);

		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "hc-where: %s: %s\n", argv[i], strerror(errno));
			ret = 1;
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (hc_read_sb(fd, argv[i], &sb)) {
			ret = 1;
			close(fd);
			continue;
		}
		if (hc_thirds(fd, &sb, b)) {
			fprintf(stderr, "hc-where: %s: FIEMAP: %s\n", argv[i],
				strerror(errno));
			ret = 1;
			close(fd);
			continue;
		}
		close(fd);
		csv_field(stdout, argv[i]);
		printf(",%llu,%llu,%.4f,%.4f,%.4f\n", (unsigned long long)st.st_ino,
		       (unsigned long long)st.st_size, hc_frac(b, 0),
		       hc_frac(b, 1), hc_frac(b, 2));
	}
	return ret;
}
