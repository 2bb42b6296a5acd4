// SPDX-License-Identifier: GPL-2.0
/*
 * hc-csv.c - the project's one CSV reader in C (the contract is in
 * hc-csv.h): one line at a time, fields split in place, columns by name,
 * numbers checked, every error naming the file, line and column.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* getline, strdup */
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hc-csv.h"

const char *csv_prog = "hc-csv";
int csv_bad_status = 2;

void csv_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", csv_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(csv_bad_status);
}

/* room for one more field in c->f */
static void csv_more_fields(struct csv *c)
{
	if (c->nf < c->fcap)
		return;
	c->fcap = c->fcap ? c->fcap * 2 : 32;
	c->f = realloc(c->f, c->fcap * sizeof(*c->f));
	if (!c->f)
		csv_fail("out of memory (%zu fields)", c->fcap);
}

/* split @s into fields; "quoted" fields may hold commas and "" */
static void csv_split(struct csv *c, char *s)
{
	c->nf = 0;
	for (;;) {
		char *out = s;

		csv_more_fields(c);
		c->f[c->nf++] = s;
		if (*s == '"') {
			char *in = s + 1;

			for (; *in; in++) {
				if (*in == '"' && in[1] != '"')
					break;
				if (*in == '"')
					in++;	/* "" is one quote */
				*out++ = *in;
			}
			if (*in == '"')
				in++;
			s = in;
			while (*s && *s != ',')
				s++;	/* junk after the closing quote */
		} else {
			while (*s && *s != ',')
				s++;
			out = s;
		}
		if (!*s) {
			*out = '\0';
			return;
		}
		*out = '\0';
		s++;
	}
}

int csv_next(struct csv *c)
{
	ssize_t len;

	for (;;) {
		errno = 0;
		len = getline(&c->line, &c->linecap, c->fp);
		if (len < 0) {
			if (ferror(c->fp))
				csv_fail("%s: read error: %s", c->path,
					 strerror(errno));
			return 0;
		}
		c->lineno++;
		while (len && (c->line[len - 1] == '\n' ||
			       c->line[len - 1] == '\r'))
			c->line[--len] = '\0';
		if (!len)
			continue;
		csv_split(c, c->line);
		return 1;
	}
}

void csv_open(struct csv *c, const char *path)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->fp = fopen(path, "r");
	if (!c->fp)
		csv_fail("cannot open %s: %s", path, strerror(errno));
	if (!csv_next(c))
		csv_fail("%s: empty file: no header row", path);
	if (!strncmp(c->f[0], "\xef\xbb\xbf", 3))	/* UTF-8 BOM */
		memmove(c->f[0], c->f[0] + 3, strlen(c->f[0] + 3) + 1);
	c->nhdr = c->nf;
	c->hdr = malloc(c->nhdr * sizeof(*c->hdr));
	if (!c->hdr)
		csv_fail("out of memory");
	for (i = 0; i < c->nf; i++) {
		char *h = c->f[i], *e;

		while (*h == ' ')
			h++;
		e = h + strlen(h);
		while (e > h && e[-1] == ' ')
			*--e = '\0';
		c->hdr[i] = strdup(h);
		if (!c->hdr[i])
			csv_fail("out of memory");
	}
}

void csv_close(struct csv *c)
{
	size_t i;

	fclose(c->fp);
	for (i = 0; i < c->nhdr; i++)
		free(c->hdr[i]);
	free(c->hdr);
	free(c->f);
	free(c->line);
}

size_t csv_col(const struct csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nhdr; i++)
		if (!strcmp(c->hdr[i], name))
			return i;
	csv_fail("%s: no column '%s' in the header row (needed; the header has %zu columns)",
		 c->path, name, c->nhdr);
}

const char *csv_field(const struct csv *c, size_t col)
{
	if (col >= c->nf)
		csv_fail("%s:%lu: %zu fields, but column '%s' is field %zu",
			 c->path, c->lineno, c->nf, c->hdr[col], col + 1);
	return c->f[col];
}

static void __attribute__((noreturn))
bad_number(const struct csv *c, size_t col, const char *s)
{
	csv_fail("%s:%lu: column '%s': '%s' is not a valid number",
		 c->path, c->lineno, c->hdr[col], s);
}

int csv_u64(const struct csv *c, size_t col, uint64_t *v, int may_be_empty)
{
	const char *s = csv_field(c, col);
	char *end;

	if (!*s) {
		if (may_be_empty)
			return 0;
		bad_number(c, col, s);
	}
	if (*s < '0' || *s > '9')
		bad_number(c, col, s);
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		bad_number(c, col, s);
	return 1;
}

double csv_double(const struct csv *c, size_t col)
{
	const char *s = csv_field(c, col);
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || *end || !isfinite(v))
		bad_number(c, col, s);
	return v;
}

int64_t csv_us_ns(const struct csv *c, size_t col)
{
	double v = csv_double(c, col);

	if (fabs(v) > 9e12)
		bad_number(c, col, csv_field(c, col));
	return llround(v * 1000.0);
}
