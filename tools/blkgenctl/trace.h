/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl trace readers: one record iterator over the trace formats
 * replay takes, told apart by content. Records come out in time order,
 * times from the trace's first record.
 */
#ifndef BLKGENCTL_TRACE_H
#define BLKGENCTL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum trace_format {
	TRACE_AUTO,
	TRACE_BLKTRACE,		/* blk_io_trace records (blktrace -d, blkparse -d) */
	TRACE_IOLOG,		/* fio iolog v2 and v3 */
	TRACE_MSR,		/* MSR Cambridge CSV */
	TRACE_ALIBABA,		/* Alibaba block traces CSV */
	TRACE_TENCENT,		/* Tencent CBS CSV */
};

struct trace_opts {
	enum trace_format format;
	const char *filter;	/* disk, device, volume or file to keep; NULL: all */
	bool issue;		/* blktrace: ISSUE events, not QUEUE */
};

/* Op codes as in uapi/linux/blkgen.h (BLKGEN_TRACE_READ, _WRITE). */
struct trace_rec {
	uint64_t t_ns;		/* from the first record */
	uint64_t offset;	/* bytes */
	uint32_t len;		/* bytes */
	uint32_t op;		/* 0 read, 1 write */
};

struct trace;

struct trace *trace_open(const char *file, const struct trace_opts *o,
			 char *err, size_t len);
int trace_next(struct trace *t, struct trace_rec *r);	/* 1, 0 at the end, -1 */
const char *trace_error(const struct trace *t);
const char *trace_format_name(const struct trace *t);
uint64_t trace_skipped(const struct trace *t);	/* other ops, disks, events */
uint64_t trace_reordered(const struct trace *t);	/* times that went back */
/* The disks (MSR), devices (blktrace MAJ:MIN, Alibaba), volumes (Tencent)
 * or files (iolog) read so far with their reads and writes, in order of
 * appearance, whatever --filter keeps: up to max; *more if there are more. */
#define TRACE_MAX_SOURCES	64
int trace_sources(const struct trace *t, const char **id, uint64_t *n,
		  int max, bool *more);
const char *trace_source_kind(const struct trace *t);	/* "disks", ... */
/* "disks 0 (2), 1 (2)": each with its reads and writes */
void trace_sources_text(const struct trace *t, char *buf, size_t len);
void trace_close(struct trace *t);
int trace_parse_format(const char *s, enum trace_format *f);

#endif /* BLKGENCTL_TRACE_H */
