// SPDX-License-Identifier: GPL-2.0
/*
 * hc-mkfiles - create a list of files, each with its own creation hint
 *
 * SYNOPSIS
 *	hc-mkfiles LIST
 *
 * DESCRIPTION
 *	LIST has one file a line, "PATH SIZE HINT [LIFETIME]" (blank lines and
 *	lines starting with '#' are skipped): PATH is created with
 *	openat2(O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC|hint) (HINT hot: O_HOT,
 *	cold: O_COLD, none: no flag); if LIFETIME is given, its write-lifetime
 *	hint is set with fcntl(F_SET_RW_HINT) right after the open, before
 *	any write (LIFETIME not_set, none, short, medium, long or extreme:
 *	RWH_WRITE_LIFE_NOT_SET ... RWH_WRITE_LIFE_EXTREME); SIZE bytes (a
 *	whole number, suffix k, m or g allowed) are written in 1 MiB writes
 *	and fsync()ed, one file after the other in LIST's order.  The same LIST makes the same
 *	sequence of creates and writes, so arms of a benchmark that differ
 *	only in the hints start from the same allocator state.  A file whose
 *	hint the kernel rejects (EINVAL: a kernel without O_HOT/O_COLD) is an
 *	error: a benchmark arm that asked for hints must not run without.
 *	Used by bench/guest/guest-alternatives.sh to lay out bench/jobs/alternatives.fio's
 *	files before fio runs (the engine uses an existing file of the right
 *	size as it is).
 *
 * OUTPUT
 *	A header row, then one CSV row per file: path,size,hint,inode,lifetime
 *	(lifetime "-" when LIST gave none: no fcntl).
 *
 * EXIT STATUS
 *	0 every file made; 1 a system call failed (a message names the file
 *	and the call); 2 bad input (the line is named).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "hotcold-flags.h"

#define CHUNK (1 << 20)

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036
#endif

/* LIFETIME's names, in the order of the RWH_WRITE_LIFE_* values (0-5) */
static const char *const lifetimes[] = {
	"not_set", "none", "short", "medium", "long", "extreme",
};
#define NLIFETIMES (int)(sizeof(lifetimes) / sizeof(lifetimes[0]))

/* the RWH_WRITE_LIFE_* value of a LIFETIME name, -1 if it is none of them */
static int parse_lifetime(const char *s)
{
	int i;

	for (i = 0; i < NLIFETIMES; i++)
		if (!strcmp(s, lifetimes[i]))
			return i;
	return -1;
}

static int parse_size(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case 'k': v <<= 10; end++; break;
	case 'm': v <<= 20; end++; break;
	case 'g': v <<= 30; end++; break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int make_one(const char *path, unsigned long long size, unsigned long long flag,
		    const char *hint, int lifetime, char *buf)
{
	struct open_how how = {
		.flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | flag,
		.mode = 0644,
	};
	unsigned long long done = 0;
	struct stat st;
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0) {
		fprintf(stderr, "hc-mkfiles: %s: openat2(%s): %s%s\n", path, hint,
			strerror(errno), errno == EINVAL && flag ?
			" (does this kernel know O_HOT/O_COLD?)" : "");
		return 1;
	}
	if (lifetime >= 0) {
		uint64_t h = (uint64_t)lifetime;

		if (fcntl(fd, F_SET_RW_HINT, &h)) {
			fprintf(stderr, "hc-mkfiles: %s: fcntl(F_SET_RW_HINT, %s): %s\n", path,
				lifetimes[lifetime], strerror(errno));
			close(fd);
			return 1;
		}
	}
	memset(buf, (unsigned char)(size & 0xff) | 1, CHUNK);
	while (done < size) {
		size_t n = size - done < CHUNK ? size - done : CHUNK;
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			fprintf(stderr, "hc-mkfiles: %s: write: %s\n", path,
				w < 0 ? strerror(errno) : "wrote nothing");
			close(fd);
			return 1;
		}
		done += w;
	}
	if (fsync(fd) || fstat(fd, &st)) {
		fprintf(stderr, "hc-mkfiles: %s: fsync: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("%s,%llu,%s,%llu,%s\n", path, size, hint, (unsigned long long)st.st_ino,
	       lifetime >= 0 ? lifetimes[lifetime] : "-");
	return 0;
}

int main(int argc, char **argv)
{
	char line[4096], path[4096], size_s[64], hint[64], life[64], extra[8];
	unsigned long long size, flag;
	int lifetime, nf;
	unsigned int lineno = 0;
	char *buf;
	FILE *in;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: hc-mkfiles LIST\n"
			"LIST: \"PATH SIZE HINT [LIFETIME]\" lines (HINT hot, cold or none;\n"
			"LIFETIME not_set, none, short, medium, long or extreme); each PATH\n"
			"created with openat2(O_CREAT|O_EXCL|hint), LIFETIME set with\n"
			"fcntl(F_SET_RW_HINT), SIZE bytes written, fsync()ed.\n"
			"CSV on stdout: path,size,hint,inode,lifetime\n");
		return argc == 2 ? 0 : 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "hc-mkfiles: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	buf = malloc(CHUNK);
	if (!buf) {
		fprintf(stderr, "hc-mkfiles: out of memory\n");
		return 1;
	}
	printf("path,size,hint,inode,lifetime\n");
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		nf = sscanf(line, "%4095s %63s %63s %63s %7s", path, size_s, hint, life, extra);
		if ((nf != 3 && nf != 4) || parse_size(size_s, &size)) {
			fprintf(stderr, "hc-mkfiles: %s line %u: want \"PATH SIZE HINT [LIFETIME]\", got: %s",
				argv[1], lineno, line);
			return 2;
		}
		lifetime = -1;
		if (nf == 4 && (lifetime = parse_lifetime(life)) < 0) {
			fprintf(stderr, "hc-mkfiles: %s line %u: lifetime '%s': use not_set, none, short, "
				"medium, long or extreme\n", argv[1], lineno, life);
			return 2;
		}
		if (!strcmp(hint, "hot"))
			flag = O_HOT;
		else if (!strcmp(hint, "cold"))
			flag = O_COLD;
		else if (!strcmp(hint, "none"))
			flag = 0;
		else {
			fprintf(stderr, "hc-mkfiles: %s line %u: hint '%s': use hot, cold or none\n",
				argv[1], lineno, hint);
			return 2;
		}
		if (make_one(path, size, flag, hint, lifetime, buf))
			return 1;
		fflush(stdout);
	}
	fclose(in);
	free(buf);
	return 0;
}
