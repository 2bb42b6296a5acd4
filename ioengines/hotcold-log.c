// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold-log.c - the hotcold engine's logs and reports
 *
 * Every read and write gets a record when it is queued (device LBA, seek
 * distance from the previous request) and its latency when it completes.
 * At cleanup the records and the files' placement go to the CSV logs
 * (placement_log=, seek_log=; shared by jobs, appended under flock()) and
 * a summary to fio's output.  hotcold.md describes the logs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/file.h>

#include "fio.h"

#include "hotcold.h"

static uint64_t hc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* check early that a log can be written, so a typo fails before any I/O */
int hc_open_log(struct thread_data *td, const char *opt,
		const char *path)
{
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = errno;

		log_err("hotcold: cannot open %s=%s: %s; give a writable path\n",
			opt, path, strerror(err));
		td_verror(td, err, opt);
		return -1;
	}
	return fd;
}

/* device position of @io_u and its distance from the previous request */
size_t hc_record(struct thread_data *td, struct hotcold_data *hd,
		 struct io_u *io_u)
{
	struct hc_file *hf = NULL;
	struct hc_rec *r;
	uint64_t lba = HC_NO_LBA, end = HC_NO_LBA;

	if (hd->nrecs == hd->recs_size) {
		size_t sz = hd->recs_size ? hd->recs_size * 2 : 4096;
		struct hc_rec *tmp = realloc(hd->recs, sz * sizeof(*tmp));

		if (!tmp) {
			if (!hd->recs_full)
				log_info("hotcold: out of memory for the seek log; later I/Os not recorded\n");
			hd->recs_full = 1;
			return SIZE_MAX;
		}
		hd->recs = tmp;
		hd->recs_size = sz;
	}
	if (io_u->file->fileno < hd->nfiles)
		hf = &hd->files[io_u->file->fileno];
	if (io_u->file->filetype == FIO_TYPE_BLOCK) {
		/* a raw block device: the offset is the position */
		lba = io_u->offset / HC_SECTOR;
		end = (io_u->offset + io_u->xfer_buflen) / HC_SECTOR;
	} else if (hf && hf->ext) {
		lba = hc_offset_to_lba(hf->ext, hf->next, io_u->offset, NULL);
		end = hc_range_end_lba(hf->ext, hf->next, io_u->offset,
				       io_u->xfer_buflen);
	}
	r = &hd->recs[hd->nrecs];
	r->offset = io_u->offset;
	r->len = io_u->xfer_buflen;
	r->file = io_u->file->fileno;
	r->ddir = io_u->ddir;
	r->lba = lba;
	r->dist = hc_seek_distance(hd->prev_end_lba, lba);
	r->lat_ns = 0;
	r->done = 0;
	hd->prev_end_lba = end;
	return hd->nrecs++;
}

void hc_complete(struct hotcold_data *hd, struct hc_iou *iou)
{
	if (iou->rec == SIZE_MAX)
		return;
	hd->recs[iou->rec].lat_ns = hc_now_ns() -
		((uint64_t)iou->t0.tv_sec * 1000000000ULL + iou->t0.tv_nsec);
	hd->recs[iou->rec].done = 1;
}

/* append @buf to a log shared by jobs: one locked write, header if empty */
static void hc_write_log(struct thread_data *td, int fd, const char *what,
			 const char *header, const char *buf, size_t len)
{
	struct stat st;

	if (fd < 0)
		return;
	flock(fd, LOCK_EX);
	if (!fstat(fd, &st) && !st.st_size &&
	    write(fd, header, strlen(header)) < 0)
		log_err("hotcold: writing %s: %s\n", what, strerror(errno));
	while (len) {
		ssize_t r = write(fd, buf, len);

		if (r <= 0) {
			log_err("hotcold: writing %s: %s\n", what,
				r < 0 ? strerror(errno) : "short write");
			break;
		}
		buf += r;
		len -= r;
	}
	flock(fd, LOCK_UN);
}

/*
 * @s as one RFC 4180 CSV field: in double quotes, a quote doubled, so a
 * comma or a quote in it stays in the field.  A line break becomes a
 * space (readers take a row per line).
 */
static void hc_csv_quoted(FILE *csv, const char *s)
{
	fputc('"', csv);
	for (; *s; s++) {
		if (*s == '"')
			fputs("\"\"", csv);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', csv);
		else
			fputc(*s, csv);
	}
	fputc('"', csv);
}

void hc_placement_report(struct thread_data *td, struct hotcold_data *hd)
{
	struct hotcold_options *o = td->eo;
	static const char header[] =
		"kind,job,file,hotness,created,syscall,open_flags_hex,open_flags,"
		"hint_outcome,size,inode,inode_group,dir_inode_group,ngroups,"
		"extents,first_group,last_group,bytes_first,bytes_middle,"
		"bytes_last,files_first,files_middle,files_last,third,pos_start,"
		"pos_end,note\n";
	static const char *third_name[3] = { "first", "middle", "last" };
	unsigned int nout[HC_OUT_NR] = { 0 }, files[3] = { 0 };
	unsigned int placed = 0, created = 0, i;
	uint64_t bytes[3] = { 0 };
	uint32_t ngroups = 0;
	char *buf = NULL, fl[128];
	size_t len = 0;
	FILE *csv;

	csv = open_memstream(&buf, &len);
	if (!csv)
		return;

	for (i = 0; i < hd->nfiles; i++) {
		struct hc_file *hf = &hd->files[i];
		uint64_t pos = hf->pos;
		int outcome = HC_OUT_REUSED, t = -1;

		if (!hf->name)
			continue;
		if (pos & HC_POS_SEEN)
			outcome = (pos >> HC_POS_OUT_SHIFT) & 0xff;
		if (outcome >= HC_OUT_NR)
			outcome = HC_OUT_REUSED;
		nout[outcome]++;
		if (pos & HC_POS_CREATED)
			created++;
		if (hf->placed && hf->extents) {
			t = hc_majority_third(hf->bytes);
			files[t]++;
			bytes[0] += hf->bytes[0];
			bytes[1] += hf->bytes[1];
			bytes[2] += hf->bytes[2];
			placed++;
			ngroups = hd->fs[hf->fs].sb.ngroups;
		}
		fprintf(csv, "file,%s,%s,%s,%d,%s,", td->o.name, hf->name,
			hc_hotness_name(o->hotness), !!(pos & HC_POS_CREATED),
			!(pos & HC_POS_CREATED) ? "" :
			(pos & HC_POS_OPENAT2) ? "openat2" : "open");
		if (pos & HC_POS_CREATED)
			fprintf(csv, "0x%08llx,%s,",
				(unsigned long long)(pos & HC_POS_FLAGS_MASK),
				hc_flags_str(pos & HC_POS_FLAGS_MASK, fl, sizeof(fl)));
		else
			fprintf(csv, ",,");
		fprintf(csv, "%s,", hc_outcome_name[outcome]);
		if (hf->placed) {
			fprintf(csv, "%llu,%llu,%u,", (unsigned long long)hf->size,
				(unsigned long long)hf->ino, hf->ino_group);
			if (hf->dir_group != UINT32_MAX)
				fprintf(csv, "%u,", hf->dir_group);
			else
				fprintf(csv, ",");
			fprintf(csv, "%u,%zu,%u,%u,%llu,%llu,%llu,%d,%d,%d,%s,%.6f,%.6f,",
				hd->fs[hf->fs].sb.ngroups, hf->extents,
				hf->first_group, hf->last_group,
				(unsigned long long)hf->bytes[0],
				(unsigned long long)hf->bytes[1],
				(unsigned long long)hf->bytes[2],
				t == 0, t == 1, t == 2, t >= 0 ? third_name[t] : "",
				hf->pos_start, hf->pos_end);
		} else
			fprintf(csv, ",,,,,,,,,,,,,,,,,");
		hc_csv_quoted(csv, hf->note);
		fputc('\n', csv);
	}
	fprintf(csv, "summary,%s,*,%s,%u,,,,%s,,,,,%u,,,,%llu,%llu,%llu,%u,%u,%u,,,,\"%u of %u files placed\"\n",
		td->o.name, hc_hotness_name(o->hotness), created,
		o->hotness == HC_HOTNESS_NONE ? "none" :
		nout[HC_OUT_HONOURED] == created && created ? "honoured" :
		nout[HC_OUT_UNSUPPORTED] ? "unsupported" : "not_honoured",
		ngroups, (unsigned long long)bytes[0],
		(unsigned long long)bytes[1], (unsigned long long)bytes[2],
		files[0], files[1], files[2], placed, hd->nfiles);
	fclose(csv);
	hc_write_log(td, hd->placement_fd, "placement_log", header, buf, len);
	free(buf);

	log_info("hotcold: %s: hotness=%s: %u files (%u created by the engine), %u placed on %u groups\n",
		 td->o.name, hc_hotness_name(o->hotness), hd->nfiles, created,
		 placed, ngroups);
	for (i = 0; i < 3; i++)
		log_info("hotcold: %s:   %-6s third: %u files, %llu bytes\n",
			 td->o.name, third_name[i], files[i],
			 (unsigned long long)bytes[i]);
	if (o->hotness != HC_HOTNESS_NONE) {
		for (i = HC_OUT_HONOURED; i < HC_OUT_NR; i++) {
			if (!nout[i])
				continue;
			if (i == HC_OUT_UNSUPPORTED)
				log_info("placement: kernel does not support O_HOT/O_COLD; hints not honoured (%u files)\n",
					 nout[i]);
			else
				log_info("placement: %u files: %s\n", nout[i],
					 hc_outcome_why[i]);
		}
	}
}

void hc_seek_report(struct thread_data *td, struct hotcold_data *hd)
{
	struct hotcold_options *o = td->eo;
	static const char header[] =
		"job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness\n";
	uint64_t *dist;
	size_t nd = 0, nu = 0, i, len = 0;
	char *buf = NULL;
	FILE *csv = NULL;

	if (hd->seek_fd >= 0)
		csv = open_memstream(&buf, &len);
	dist = malloc((hd->nrecs + 1) * sizeof(*dist));
	if (!dist)
		goto out;
	for (i = 0; i < hd->nrecs; i++) {
		struct hc_rec *r = &hd->recs[i];

		if (r->dist != HC_NO_SEEK)
			dist[nd++] = r->dist;
		if (r->lba == HC_NO_LBA)
			nu++;
		if (!csv)
			continue;
		fprintf(csv, "%s,%zu,%s,%s,%llu,%u,", td->o.name, i,
			r->file < hd->nfiles ? hd->files[r->file].name : "",
			r->ddir == DDIR_READ ? "read" : "write",
			(unsigned long long)r->offset, r->len);
		if (r->lba != HC_NO_LBA)
			fprintf(csv, "%llu,", (unsigned long long)r->lba);
		else
			fprintf(csv, ",");
		if (r->dist != HC_NO_SEEK)
			fprintf(csv, "%llu,", (unsigned long long)r->dist);
		else
			fprintf(csv, ",");
		if (r->done)
			fprintf(csv, "%llu,", (unsigned long long)r->lat_ns);
		else
			fprintf(csv, ",");
		fprintf(csv, "%s\n", hc_hotness_name(o->hotness));
	}
	if (csv) {
		fclose(csv);
		csv = NULL;
		hc_write_log(td, hd->seek_fd, "seek_log", header, buf, len);
	}
	if (!hd->nrecs)
		goto out;
	qsort(dist, nd, sizeof(*dist), hc_cmp_u64);
	log_info("hotcold: %s: hotness=%s: %zu I/Os, %zu with a seek distance, %zu without a known LBA\n",
		 td->o.name, hc_hotness_name(o->hotness), hd->nrecs, nd, nu);
	if (nd)
		log_info("hotcold: %s:   seek sectors: mean %.1f median %.1f p50 %llu p90 %llu p99 %llu\n",
			 td->o.name, hc_mean(dist, nd), hc_median(dist, nd),
			 (unsigned long long)hc_percentile(dist, nd, 50),
			 (unsigned long long)hc_percentile(dist, nd, 90),
			 (unsigned long long)hc_percentile(dist, nd, 99));
	else
		log_info("hotcold: %s:   seek sectors: n/a (no two consecutive I/Os with a known device LBA)\n",
			 td->o.name);
	/* latency: fio's own clat is the same interval (->queue, ->commit) */
out:
	if (csv)
		fclose(csv);
	free(buf);
	free(dist);
}
