// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold-preload.so - give the files an unmodified program creates an
 * O_HOT or O_COLD hint
 *
 * SYNOPSIS
 *	LD_PRELOAD=/path/to/hotcold-preload.so HOTCOLD=hot|cold PROGRAM ...
 *	LD_PRELOAD=... HOTCOLD='hot:*.db;cold:*.bak' PROGRAM ...
 *
 * DESCRIPTION
 *	Loaded into a process, it adds O_HOT or O_COLD to every open(),
 *	openat() and creat() (and their 64-bit and fortified variants) that
 *	can create a file (O_CREAT or O_TMPFILE) and carries no hint yet.
 *	HOTCOLD=hot or HOTCOLD=cold hints every create; a rule list
 *	"HINT:PATTERN;HINT:PATTERN..." hints the creates whose path matches
 *	PATTERN (fnmatch(3), no flags: '*' matches '/' too), the first rule
 *	that matches wins, a path matching none is left alone.  A relative
 *	path given with AT_FDCWD is matched as getcwd() + "/" + path; one
 *	relative to another directory descriptor, as given.
 *
 *	The kernel decides what a hint does: ext4 with the O_HOT/O_COLD series
 *	honours it on a rotational disk (O_HOT only for a user who may use the
 *	reserved blocks) and counts the outcome in /sys/fs/ext4/DEV/hint_*; a
 *	kernel without the series ignores the bits in open().
 *
 *	HOTCOLD_VERBOSE=1 prints one line per hinted create on stderr.
 *
 * LIMITS
 *	Only calls that go through the dynamic symbol table are seen: a
 *	static program, fopen() (glibc opens inside libc), and direct
 *	syscall(SYS_openat2, ...) are not hinted.
 *
 * EXIT STATUS
 *	A HOTCOLD value that is neither hot, cold nor a rule list stops the
 *	program before main() with a message naming it, exit status 2.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>

#include "hotcold-flags.h"

#define MAX_RULES 32

static struct rule {
	int flag;
	char *pattern;	/* NULL: every path */
} rules[MAX_RULES];
static int nrules, verbose;

static void bad(const char *v, const char *why)
{
	fprintf(stderr, "hotcold-preload: HOTCOLD='%s': %s (use hot, cold or "
		"HINT:PATTERN;... with HINT hot or cold)\n", v, why);
	_exit(2);
}

static int hint_of(const char *s, size_t n)
{
	if (n == 3 && !strncmp(s, "hot", 3))
		return O_HOT;
	if (n == 4 && !strncmp(s, "cold", 4))
		return O_COLD;
	return 0;
}

__attribute__((constructor)) static void hotcold_init(void)
{
	const char *v = getenv("HOTCOLD"), *p;
	char *copy, *tok, *save = NULL;

	verbose = getenv("HOTCOLD_VERBOSE") && !strcmp(getenv("HOTCOLD_VERBOSE"), "1");
	if (!v || !*v)
		return;
	if (hint_of(v, strlen(v))) {
		rules[0].flag = hint_of(v, strlen(v));
		nrules = 1;
		return;
	}
	copy = strdup(v);
	if (!copy)
		bad(v, "out of memory");
	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		p = strchr(tok, ':');
		if (!p || !hint_of(tok, (size_t)(p - tok)))
			bad(v, "a rule is not HINT:PATTERN");
		if (!p[1])
			bad(v, "a rule has an empty pattern");
		if (nrules == MAX_RULES)
			bad(v, "more than 32 rules");
		rules[nrules].flag = hint_of(tok, (size_t)(p - tok));
		rules[nrules].pattern = (char *)p + 1;
		nrules++;
	}
	if (!nrules)
		bad(v, "no rule");
}

/* The hint for a create of path (relative to dirfd), or 0 */
static int hint_for(int dirfd, const char *path, int flags)
{
	char abs[4096];
	const char *m = path;
	int i;

	if (!nrules || !path || (flags & (O_HOT | O_COLD)) ||
	    !((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE))
		return 0;
	if (path[0] != '/' && dirfd == AT_FDCWD && rules[0].pattern) {
		int e = errno;

		if (getcwd(abs, sizeof(abs) - 1 - strlen(path) > 0 ?
			   sizeof(abs) - 1 - strlen(path) : 0)) {
			strcat(abs, "/");
			strcat(abs, path);
			m = abs;
		}
		errno = e;
	}
	for (i = 0; i < nrules; i++)
		if (!rules[i].pattern || !fnmatch(rules[i].pattern, m, 0)) {
			if (verbose)
				fprintf(stderr, "hotcold-preload: %s %s\n",
					rules[i].flag == O_HOT ? "O_HOT" : "O_COLD", m);
			return rules[i].flag;
		}
	return 0;
}

static void *next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "hotcold-preload: no %s after this library\n", name);
		_exit(2);
	}
	return f;
}

/* mode is read only when the call can create (as glibc does) */
#define MODE_ARG(flags, mode)						\
	do {								\
		if ((flags) & O_CREAT || ((flags) & O_TMPFILE) == O_TMPFILE) { \
			va_list ap;					\
			va_start(ap, flags);				\
			mode = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
	} while (0)

#define WRAP_OPEN(name)							\
int name(const char *path, int flags, ...)				\
{									\
	static int (*real)(const char *, int, ...);			\
	mode_t mode = 0;						\
									\
	MODE_ARG(flags, mode);						\
	if (!real)							\
		real = next(#name);					\
	return real(path, flags | hint_for(AT_FDCWD, path, flags), mode); \
}

#define WRAP_OPENAT(name)						\
int name(int dirfd, const char *path, int flags, ...)			\
{									\
	static int (*real)(int, const char *, int, ...);		\
	mode_t mode = 0;						\
									\
	MODE_ARG(flags, mode);						\
	if (!real)							\
		real = next(#name);					\
	return real(dirfd, path, flags | hint_for(dirfd, path, flags), mode); \
}

#define WRAP_CREAT(name)						\
int name(const char *path, mode_t mode)					\
{									\
	static int (*real)(const char *, int, ...);			\
	int flags = O_CREAT | O_WRONLY | O_TRUNC;			\
									\
	if (!real)							\
		real = next("open");					\
	return real(path, flags | hint_for(AT_FDCWD, path, flags), mode); \
}

/* _FORTIFY_SOURCE: __open_2(path, flags) is open without a mode */
#define WRAP_OPEN_2(name)						\
int name(const char *path, int flags)					\
{									\
	static int (*real)(const char *, int);				\
									\
	if (!real)							\
		real = next(#name);					\
	return real(path, flags | hint_for(AT_FDCWD, path, flags));	\
}

#define WRAP_OPENAT_2(name)						\
int name(int dirfd, const char *path, int flags)			\
{									\
	static int (*real)(int, const char *, int);			\
									\
	if (!real)							\
		real = next(#name);					\
	return real(dirfd, path, flags | hint_for(dirfd, path, flags));	\
}

int open64(const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
int creat64(const char *path, mode_t mode);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)
WRAP_CREAT(creat)
WRAP_CREAT(creat64)
WRAP_OPEN_2(__open_2)
WRAP_OPEN_2(__open64_2)
WRAP_OPENAT_2(__openat_2)
WRAP_OPENAT_2(__openat64_2)
