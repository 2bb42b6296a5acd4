/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm/lib/tap.h - the project's one TAP helper for C tests (header-only,
 * everything static, so a test stays one static binary).  The shell twin
 * is vm/lib/tap.sh; make check adds up the lines (vm/lib/tap-count.sh).
 *
 *   tap_init(prefix)       call first; prefix ("place", or "" for none)
 *                          goes before every description as "prefix: "
 *   tap_ok(cond, fmt, ...) "ok N - DESC" or "not ok N - DESC"; returns cond
 *   tap_skip(reason, fmt, ...)
 *                          "ok N - DESC # SKIP reason": a skip, counted on
 *                          its own, never a pass, never a failure
 *   tap_bail(fmt, ...)     a setup failure: "not ok N - prefix: setup: ...",
 *                          exit 2
 *   diag(fmt, ...)         "# ..." diagnostics
 *   tap_exit()             a "# " count line; returns 1 if anything
 *                          failed, else 0 (return tap_exit() from main)
 *
 * The counters live in shared memory, so forked children continue the
 * numbering and their failures count.
 */
#ifndef HC_TAP_H
#define HC_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define TAP_UNUSED __attribute__((unused))
#define TAP_PRINTF(a, b) __attribute__((format(printf, a, b)))

struct tap_state {
	int n;		/* tests printed so far */
	int failed;	/* number of "not ok" */
	int skipped;	/* number of "# SKIP" */
};
static struct tap_state *tap;
static char tap_prefix[64];
static const char *tap_sep = "";	/* ": " after a non-empty prefix */

static TAP_UNUSED void tap_init(const char *prefix)
{
	void *p = mmap(NULL, sizeof(*tap), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
	snprintf(tap_prefix, sizeof(tap_prefix), "%s", prefix);
	tap_sep = prefix[0] ? ": " : "";
	if (p == MAP_FAILED) {
		printf("not ok 1 - %s%smmap for TAP state: %s\n", tap_prefix,
		       tap_sep, strerror(errno));
		exit(2);
	}
	tap = p;
	memset(tap, 0, sizeof(*tap));
}

static TAP_UNUSED TAP_PRINTF(1, 2) void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* One result line: "not " or "", the description, and " # SKIP ..." or "". */
static TAP_UNUSED void tap_line(const char *not, const char *skip, const char *fmt,
		     va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	tap->n++;
	printf("%sok %d - %s%s%s%s\n", not, tap->n, tap_prefix, tap_sep, buf,
	       skip);
	fflush(stdout);
}

/* Prints ok/not ok; returns cond so callers can add diagnostics. */
static TAP_UNUSED TAP_PRINTF(2, 3) int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	if (!cond)
		tap->failed++;
	va_start(ap, fmt);
	tap_line(cond ? "" : "not ", "", fmt, ap);
	va_end(ap);
	return cond;
}

static TAP_UNUSED TAP_PRINTF(2, 3) void tap_skip(const char *reason,
						 const char *fmt, ...)
{
	char skip[256];
	va_list ap;

	tap->skipped++;
	snprintf(skip, sizeof(skip), " # SKIP%s%s", reason[0] ? " " : "",
		 reason);
	va_start(ap, fmt);
	tap_line("", skip, fmt, ap);
	va_end(ap);
}

/* Setup failure: report as a failed test and exit 2. */
static TAP_UNUSED TAP_PRINTF(1, 2) void tap_bail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tap_ok(0, "setup: %s", buf);
	exit(2);
}

static TAP_UNUSED int tap_exit(void)
{
	diag("%s%s%d tests, %d failed, %d skipped", tap_prefix, tap_sep,
	     tap->n, tap->failed, tap->skipped);
	return tap->failed ? 1 : 0;
}

#endif /* HC_TAP_H */
