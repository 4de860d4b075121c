// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl trace readers (trace.h): blktrace binary (one merged file, as
 * blkparse -d writes it, or the per-CPU files of blktrace -d, merged here
 * by time; either byte order; QUEUE events, or ISSUE), fio iolog v2 and
 * v3, and the public block-trace CSVs (MSR Cambridge, Alibaba, Tencent
 * CBS). Read as a stream: a trace is never held in memory. The text
 * formats may be gzip-compressed (as the MSR and Alibaba traces are
 * published): zlib reads either.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <byteswap.h>
#include <linux/blktrace_api.h>
#include <zlib.h>

#include "trace.h"

#define TRACE_MAX_CPUS	1024

struct trace {
	enum trace_format fmt;
	char file[4096];
	struct trace_opts o;
	FILE *f;			/* text formats */
	/* blktrace: one stream per per-CPU file (or one merged file) */
	int nr;
	FILE **cf;
	struct blk_io_trace *pend;
	bool *have;
	uint64_t *recno;
	bool swap;
	unsigned int filter_major, filter_minor;
	/* text */
	char *line;
	size_t cap;
	uint64_t lineno;
	int iolog_ver;
	uint64_t wait_ns;
	/* times */
	bool started;
	uint64_t t0, last;
	uint64_t skipped, reordered;
	/* the disks, devices, volumes or files the trace holds I/O to */
	struct {
		char id[48];
		uint64_t n;
	} src[TRACE_MAX_SOURCES];
	int nr_src;
	bool more_src;
	char err[4096 + 640];
};

static const char *const format_names[] = {
	[TRACE_AUTO]	 = "auto",
	[TRACE_BLKTRACE] = "blktrace",
	[TRACE_IOLOG]	 = "iolog",
	[TRACE_MSR]	 = "msr",
	[TRACE_ALIBABA]	 = "alibaba",
	[TRACE_TENCENT]	 = "tencent",
};

int trace_parse_format(const char *s, enum trace_format *f)
{
	unsigned int i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (!strcmp(s, format_names[i])) {
			*f = i;
			return 0;
		}
	return -1;
}

const char *trace_format_name(const struct trace *t)
{
	return format_names[t->fmt];
}

const char *trace_error(const struct trace *t)
{
	return t->err;
}

uint64_t trace_skipped(const struct trace *t)
{
	return t->skipped;
}

uint64_t trace_reordered(const struct trace *t)
{
	return t->reordered;
}

/* Count a read or write to @id, whether the filter keeps it or not. */
static void note_src(struct trace *t, const char *id)
{
	int i;

	for (i = 0; i < t->nr_src; i++)
		if (!strcmp(t->src[i].id, id)) {
			t->src[i].n++;
			return;
		}
	if (t->nr_src == TRACE_MAX_SOURCES || strlen(id) >= sizeof(t->src[0].id)) {
		t->more_src = true;
		return;
	}
	snprintf(t->src[t->nr_src].id, sizeof(t->src[0].id), "%s", id);
	t->src[t->nr_src++].n = 1;
}

int trace_sources(const struct trace *t, const char **id, uint64_t *n,
		  int max, bool *more)
{
	int i;

	for (i = 0; i < t->nr_src && i < max; i++) {
		id[i] = t->src[i].id;
		n[i] = t->src[i].n;
	}
	*more = t->more_src || t->nr_src > max;
	return i;
}

void trace_sources_text(const struct trace *t, char *buf, size_t len)
{
	size_t used;
	int i;

	used = snprintf(buf, len, "%s", trace_source_kind(t));
	for (i = 0; i < t->nr_src && used < len; i++)
		used += snprintf(buf + used, len - used, "%s %s (%llu)",
				 i ? "," : "", t->src[i].id,
				 (unsigned long long)t->src[i].n);
	if (!t->nr_src && used < len)
		used += snprintf(buf + used, len - used, ": none");
	if (t->more_src && used < len)
		snprintf(buf + used, len - used, " and more");
}

const char *trace_source_kind(const struct trace *t)
{
	static const char *const kind[] = {
		[TRACE_AUTO]	 = "sources",
		[TRACE_BLKTRACE] = "devices",
		[TRACE_IOLOG]	 = "files",
		[TRACE_MSR]	 = "disks",
		[TRACE_ALIBABA]	 = "devices",
		[TRACE_TENCENT]	 = "volumes",
	};

	return kind[t->fmt];
}

static int fail(struct trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct trace *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->lineno)
		snprintf(t->err, sizeof(t->err), "%s:%llu: %s", t->file,
			 (unsigned long long)t->lineno, msg);
	else
		snprintf(t->err, sizeof(t->err), "%s: %s", t->file, msg);
	return -1;
}

/* Times from the first record, never going back (counted when they do). */
static void put_time(struct trace *t, uint64_t raw, struct trace_rec *r)
{
	uint64_t v;

	if (!t->started) {
		t->started = true;
		t->t0 = raw;
	}
	v = raw > t->t0 ? raw - t->t0 : 0;
	if (v < t->last) {
		t->reordered++;
		v = t->last;
	}
	t->last = v;
	r->t_ns = v;
}

/* ---- blktrace ---------------------------------------------------------- */

static bool magic_ok(uint32_t m)
{
	return (m & 0xffffff00) == BLK_IO_TRACE_MAGIC;
}

static void swap_rec(struct blk_io_trace *b)
{
	b->magic = bswap_32(b->magic);
	b->sequence = bswap_32(b->sequence);
	b->time = bswap_64(b->time);
	b->sector = bswap_64(b->sector);
	b->bytes = bswap_32(b->bytes);
	b->action = bswap_32(b->action);
	b->pid = bswap_32(b->pid);
	b->device = bswap_32(b->device);
	b->cpu = bswap_32(b->cpu);
	b->error = bswap_16(b->error);
	b->pdu_len = bswap_16(b->pdu_len);
}

/* The next record of stream @i into t->pend[i]: 1, 0 at its end, -1. */
static int bt_read(struct trace *t, int i)
{
	struct blk_io_trace *b = &t->pend[i];
	size_t n = fread(b, 1, sizeof(*b), t->cf[i]);

	t->have[i] = false;
	if (!n && feof(t->cf[i]))
		return 0;
	t->recno[i]++;
	if (n != sizeof(*b))
		return fail(t, "record %llu%s: cut short (%zu of %zu bytes)",
			    (unsigned long long)t->recno[i],
			    t->nr > 1 ? " of a per-CPU file" : "", n, sizeof(*b));
	if (t->swap)
		swap_rec(b);
	if (!magic_ok(b->magic))
		return fail(t, "record %llu: not a blktrace record (magic 0x%08x)",
			    (unsigned long long)t->recno[i], b->magic);
	if (b->pdu_len && fseek(t->cf[i], b->pdu_len, SEEK_CUR))
		return fail(t, "record %llu: cannot skip its %u payload bytes",
			    (unsigned long long)t->recno[i], b->pdu_len);
	t->have[i] = true;
	return 1;
}

static int bt_next(struct trace *t, struct trace_rec *r)
{
	unsigned int want = t->o.issue ? __BLK_TA_ISSUE : __BLK_TA_QUEUE;

	for (;;) {
		struct blk_io_trace *b;
		int i, best = -1;
		uint32_t cat;

		for (i = 0; i < t->nr; i++)
			if (t->have[i] && (best < 0 || t->pend[i].time < t->pend[best].time))
				best = i;
		if (best < 0)
			return 0;
		b = &t->pend[best];
		cat = b->action >> BLK_TC_SHIFT;
		if (!(cat & BLK_TC_NOTIFY) && (b->action & 0xffff) == want) {
			bool keep = true;
			char dev[24];

			if (b->bytes && !(cat & BLK_TC_DISCARD)) {
				snprintf(dev, sizeof(dev), "%u:%u",
					 b->device >> 20, b->device & 0xfffff);
				note_src(t, dev);
			}
			if (t->o.filter && ((b->device >> 20) != t->filter_major ||
					    (b->device & 0xfffff) != t->filter_minor))
				keep = false;
			if (keep && (!b->bytes || (cat & BLK_TC_DISCARD))) {
				t->skipped++;	/* flushes, discards */
				keep = false;
			}
			if (keep) {
				put_time(t, b->time, r);
				r->offset = b->sector << 9;
				r->len = b->bytes;
				r->op = !!(cat & BLK_TC_WRITE);
			}
			if (bt_read(t, best) < 0)
				return -1;
			if (keep)
				return 1;
			continue;
		}
		if (bt_read(t, best) < 0)
			return -1;
	}
}

/* FILE, or the per-CPU files FILE.blktrace.N (FILE given with or without). */
static int bt_open(struct trace *t)
{
	char prefix[4096], path[4200];
	const char *dot = strstr(t->file, ".blktrace.");
	bool per_cpu = dot || access(t->file, R_OK);
	int i;

	snprintf(prefix, sizeof(prefix), "%.*s",
		 dot ? (int)(dot - t->file) : (int)strlen(t->file), t->file);
	t->nr = per_cpu ? 0 : 1;
	while (per_cpu && t->nr < TRACE_MAX_CPUS) {
		snprintf(path, sizeof(path), "%s.blktrace.%d", prefix, t->nr);
		if (access(path, R_OK))
			break;
		t->nr++;
	}
	if (!t->nr)
		return fail(t, "no such file, nor per-CPU files %s.blktrace.N",
			    prefix);
	t->cf = calloc(t->nr, sizeof(*t->cf));
	t->pend = calloc(t->nr, sizeof(*t->pend));
	t->have = calloc(t->nr, sizeof(*t->have));
	t->recno = calloc(t->nr, sizeof(*t->recno));
	if (!t->cf || !t->pend || !t->have || !t->recno)
		return fail(t, "out of memory");
	for (i = 0; i < t->nr; i++) {
		if (!per_cpu)
			snprintf(path, sizeof(path), "%s", t->file);
		else
			snprintf(path, sizeof(path), "%s.blktrace.%d", prefix, i);
		t->cf[i] = fopen(path, "rb");
		if (!t->cf[i])
			return fail(t, "%s: %s", path, strerror(errno));
	}
	if (t->o.filter && sscanf(t->o.filter, "%u:%u", &t->filter_major,
				  &t->filter_minor) != 2)
		return fail(t, "--filter %s: a blktrace device is MAJOR:MINOR (e.g. 259:0)",
			    t->o.filter);
	for (i = 0; i < t->nr; i++) {
		uint32_t m;

		if (fread(&m, sizeof(m), 1, t->cf[i]) == 1) {
			if (!magic_ok(m) && magic_ok(bswap_32(m)))
				t->swap = true;
			else if (!magic_ok(m))
				return fail(t, "not a blktrace file (magic 0x%08x)", m);
		}
		rewind(t->cf[i]);
		if (bt_read(t, i) < 0)
			return -1;
	}
	return 0;
}

/* ---- files, plain or gzip-compressed -------------------------------------- */

static ssize_t gz_read(void *cookie, char *buf, size_t size)
{
	int n = gzread(cookie, buf, size > INT_MAX ? INT_MAX : (unsigned int)size);

	return n < 0 ? -1 : n;
}

static int gz_close(void *cookie)
{
	return gzclose(cookie) == Z_OK ? 0 : EOF;
}

/*
 * @path for reading as a stdio stream, decompressed if it is gzip (zlib
 * passes other files through as they are). NULL with errno set.
 */
static FILE *open_maybe_gz(const char *path)
{
	static const cookie_io_functions_t io = {
		.read = gz_read, .close = gz_close,
	};
	gzFile gz = gzopen(path, "rb");
	FILE *f;

	if (!gz) {
		if (!errno)
			errno = ENOMEM;
		return NULL;
	}
	f = fopencookie(gz, "r", io);
	if (!f)
		gzclose(gz);
	return f;
}

/* ---- text formats -------------------------------------------------------- */

/* The next line without its end; NULL at the end of the file. */
static char *next_line(struct trace *t)
{
	ssize_t n = getline(&t->line, &t->cap, t->f);

	if (n < 0)
		return NULL;
	t->lineno++;
	while (n && (t->line[n - 1] == '\n' || t->line[n - 1] == '\r'))
		t->line[--n] = 0;
	return t->line;
}

/* Split @s at @sep into at most @max fields (trimmed); the count. */
static int split(char *s, char sep, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *e = sep == ' ' ? s + strcspn(s, " \t") : strchr(s, sep);

		while (*s == ' ' || *s == '\t')
			s++;
		if (n == max)
			return max + 1;
		f[n++] = s;
		if (!e || !*e)
			break;
		*e = 0;
		s = e + 1;
		if (sep == ' ')
			while (*s == ' ' || *s == '\t')
				s++;
		if (sep == ' ' && !*s)
			break;
	}
	for (int i = 0; i < n; i++) {
		size_t l = strlen(f[i]);

		while (l && isspace((unsigned char)f[i][l - 1]))
			f[i][--l] = 0;
	}
	return n;
}

static int u64_of(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int iolog_next(struct trace *t, struct trace_rec *r)
{
	char *s, *f[8];
	uint64_t ts = 0, off, len;
	int n, k;

	while ((s = next_line(t))) {
		if (!*s)
			continue;
		n = split(s, ' ', f, 6);
		k = t->iolog_ver == 3;
		if (k && (n < 3 || u64_of(f[0], &ts)))
			return fail(t, "expected 'TIME FILE ACTION [OFFSET LENGTH]' (fio iolog v3)");
		if (n - k == 2)		/* add, open, close */
			continue;
		if (n - k != 4)
			return fail(t, "expected 'FILE ACTION OFFSET LENGTH' (fio iolog v%d), got %d fields",
				    t->iolog_ver, n);
		if (u64_of(f[k + 2], &off) || u64_of(f[k + 3], &len))
			return fail(t, "'%s %s': not numbers", f[k + 2], f[k + 3]);
		if (!strcmp(f[k + 1], "read") || !strcmp(f[k + 1], "write"))
			note_src(t, f[k]);
		if (t->o.filter && strcmp(f[k], t->o.filter))
			continue;
		if (!strcmp(f[k + 1], "wait")) {
			if (k)
				continue;	/* fio ignores wait in v3 */
			/* fio 3.x: milliseconds since the start of the run */
			t->wait_ns = off * 1000000ULL;
			continue;
		}
		if (strcmp(f[k + 1], "read") && strcmp(f[k + 1], "write")) {
			if (strcmp(f[k + 1], "trim") && strcmp(f[k + 1], "sync") &&
			    strcmp(f[k + 1], "datasync"))
				return fail(t, "unknown action '%s'", f[k + 1]);
			t->skipped++;
			continue;
		}
		if (!len) {
			t->skipped++;
			continue;
		}
		if (len > UINT32_MAX)
			return fail(t, "length %llu is too large",
				    (unsigned long long)len);
		/* v3: microseconds from fio's start; v2: the last wait's time. */
		put_time(t, k ? ts * 1000 : t->wait_ns, r);
		r->offset = off;
		r->len = (uint32_t)len;
		r->op = !strcmp(f[k + 1], "write");
		return 1;
	}
	return ferror(t->f) ? fail(t, "%s", strerror(errno)) : 0;
}

/* A CSV field that must be a number. */
static int csv_u64(struct trace *t, const char *what, const char *s,
		   uint64_t *v)
{
	if (u64_of(s, v))
		return fail(t, "%s '%s' is not a number", what, s);
	return 0;
}

static int csv_next(struct trace *t, struct trace_rec *r)
{
	static const int want[] = { [TRACE_MSR] = 7, [TRACE_ALIBABA] = 5,
				    [TRACE_TENCENT] = 5 };
	static const char *const layout[] = {
		[TRACE_MSR] = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (MSR Cambridge)",
		[TRACE_ALIBABA] = "device_id,opcode,offset,length,timestamp (Alibaba)",
		[TRACE_TENCENT] = "Timestamp,Offset,Size,IOType,VolumeID (Tencent CBS)",
	};
	uint64_t ts, off, len, type;
	char *s, *f[9];
	int n;

	while ((s = next_line(t))) {
		if (!*s || *s == '#')
			continue;
		n = split(s, ',', f, 8);
		if (n != want[t->fmt])
			return fail(t, "expected %d fields %s, got %d", want[t->fmt],
				    layout[t->fmt], n);
		/* A header line: its first field is not a number. */
		if (t->lineno == 1 && !isdigit((unsigned char)f[0][0]))
			continue;
		switch (t->fmt) {
		case TRACE_MSR:
			note_src(t, f[2]);
			if (t->o.filter && strcmp(f[2], t->o.filter))
				continue;
			if (csv_u64(t, "Timestamp", f[0], &ts) ||
			    csv_u64(t, "Offset", f[4], &off) ||
			    csv_u64(t, "Size", f[5], &len))
				return -1;
			if (strcasecmp(f[3], "Read") && strcasecmp(f[3], "Write"))
				return fail(t, "Type '%s': expected Read or Write", f[3]);
			put_time(t, ts * 100, r);	/* Windows filetime: 100 ns */
			r->op = !strcasecmp(f[3], "Write");
			break;
		case TRACE_ALIBABA:
			note_src(t, f[0]);
			if (t->o.filter && strcmp(f[0], t->o.filter))
				continue;
			if (csv_u64(t, "offset", f[2], &off) ||
			    csv_u64(t, "length", f[3], &len) ||
			    csv_u64(t, "timestamp", f[4], &ts))
				return -1;
			if (strcmp(f[1], "R") && strcmp(f[1], "W"))
				return fail(t, "opcode '%s': expected R or W", f[1]);
			put_time(t, ts * 1000, r);	/* microseconds */
			r->op = !strcmp(f[1], "W");
			break;
		default:
			note_src(t, f[4]);
			if (t->o.filter && strcmp(f[4], t->o.filter))
				continue;
			if (csv_u64(t, "Timestamp", f[0], &ts) ||
			    csv_u64(t, "Offset", f[1], &off) ||
			    csv_u64(t, "Size", f[2], &len) ||
			    csv_u64(t, "IOType", f[3], &type))
				return -1;
			if (type > 1)
				return fail(t, "IOType %llu: expected 0 (read) or 1 (write)",
					    (unsigned long long)type);
			if (off > UINT64_MAX >> 9 || len > UINT32_MAX >> 9)
				return fail(t, "Offset or Size too large");
			off <<= 9;	/* sectors */
			len <<= 9;
			put_time(t, ts * 1000000000ULL, r);	/* seconds */
			r->op = (uint32_t)type;
			break;
		}
		if (!len) {		/* nothing to replay: skipped, as flushes */
			t->skipped++;
			continue;
		}
		if (len > UINT32_MAX)
			return fail(t, "size %llu is too large",
				    (unsigned long long)len);
		r->offset = off;
		r->len = (uint32_t)len;
		return 1;
	}
	return ferror(t->f) ? fail(t, "%s", strerror(errno)) : 0;
}

/* ---- opening --------------------------------------------------------- */

static bool numeric(const char *s)
{
	uint64_t v;

	return !u64_of(s, &v);
}

/* The format of @t->file from its first bytes and first data line. */
static int detect(struct trace *t)
{
	char buf[4096], *f[9], first[4096] = "";
	FILE *fp = open_maybe_gz(t->file);
	uint32_t m;
	int n, lines = 0;

	if (!fp) {
		char alt[4200];

		/* blktrace -d's per-CPU files, named by their prefix */
		snprintf(alt, sizeof(alt), "%s.blktrace.0", t->file);
		if (!access(alt, R_OK)) {
			t->fmt = TRACE_BLKTRACE;
			return 0;
		}
		return fail(t, "%s", strerror(errno));
	}
	if (fread(&m, sizeof(m), 1, fp) == 1 &&
	    (magic_ok(m) || magic_ok(bswap_32(m)))) {
		fclose(fp);
		t->fmt = TRACE_BLKTRACE;
		return 0;
	}
	fclose(fp);
	fp = open_maybe_gz(t->file);	/* a stream that may not rewind */
	if (!fp)
		return fail(t, "%s", strerror(errno));
	while (fgets(buf, sizeof(buf), fp) && lines < 2) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (!buf[0] || buf[0] == '#')
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", buf);
		if (!strncmp(buf, "fio version 2 iolog", 19) ||
		    !strncmp(buf, "fio version 3 iolog", 19)) {
			fclose(fp);
			t->fmt = TRACE_IOLOG;
			return 0;
		}
		lines++;
		n = split(buf, ',', f, 8);
		if (!numeric(f[0]) && lines == 1)
			continue;	/* a CSV header */
		if (n == 7 && (!strcasecmp(f[3], "Read") || !strcasecmp(f[3], "Write")))
			t->fmt = TRACE_MSR;
		else if (n == 5 && (!strcmp(f[1], "R") || !strcmp(f[1], "W")))
			t->fmt = TRACE_ALIBABA;
		else if (n == 5 && numeric(f[0]) && numeric(f[1]) &&
			 (!strcmp(f[3], "0") || !strcmp(f[3], "1")))
			t->fmt = TRACE_TENCENT;
		break;
	}
	fclose(fp);
	if (t->fmt != TRACE_AUTO)
		return 0;
	for (n = 0; first[n] && n < 60; n++)
		if (!isprint((unsigned char)first[n]) && first[n] != '\t')
			return fail(t, "not a trace blkgenctl reads (blktrace binary, fio iolog v2/v3, MSR Cambridge, Alibaba or Tencent CSV, or one of these compressed with gzip): binary data; give --format");
	return fail(t, "not a trace blkgenctl reads (blktrace binary, fio iolog v2/v3, MSR Cambridge, Alibaba or Tencent CSV, or one of these compressed with gzip): '%.60s'; give --format",
		    first);
}

struct trace *trace_open(const char *file, const struct trace_opts *o,
			 char *err, size_t len)
{
	struct trace *t = calloc(1, sizeof(*t));
	char *s;

	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	snprintf(t->file, sizeof(t->file), "%s", file);
	t->o = *o;
	t->fmt = o->format;
	if (t->fmt == TRACE_AUTO && detect(t))
		goto fail;
	if (t->fmt == TRACE_BLKTRACE) {
		if (bt_open(t))
			goto fail;
		return t;
	}
	t->f = open_maybe_gz(file);
	if (!t->f) {
		fail(t, "%s", strerror(errno));
		goto fail;
	}
	if (t->fmt == TRACE_IOLOG) {
		s = next_line(t);
		if (!s || (strcmp(s, "fio version 2 iolog") &&
			   strcmp(s, "fio version 3 iolog"))) {
			fail(t, "expected 'fio version 2 iolog' or 'fio version 3 iolog' (v1 logs are not read)");
			goto fail;
		}
		t->iolog_ver = s[12] - '0';
	}
	return t;
fail:
	snprintf(err, len, "%s", t->err);
	trace_close(t);
	return NULL;
}

int trace_next(struct trace *t, struct trace_rec *r)
{
	switch (t->fmt) {
	case TRACE_BLKTRACE:
		return bt_next(t, r);
	case TRACE_IOLOG:
		return iolog_next(t, r);
	default:
		return csv_next(t, r);
	}
}

void trace_close(struct trace *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; t->cf && i < t->nr; i++)
		if (t->cf[i])
			fclose(t->cf[i]);
	free(t->cf);
	free(t->pend);
	free(t->have);
	free(t->recno);
	if (t->f)
		fclose(t->f);
	free(t->line);
	free(t);
}
