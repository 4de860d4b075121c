/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl replay: a trace's statistics, and the feeder that streams its
 * records into a running workload's WL/trace.
 */
#ifndef BLKGENCTL_REPLAY_H
#define BLKGENCTL_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"
#include "trace.h"

struct trace_stats {
	char format[16];
	uint64_t records, reads, writes, skipped, reordered;
	uint64_t read_bytes, write_bytes;
	uint32_t max_len;
	uint64_t last_ns;	/* time of the last record */
	uint64_t max_end;	/* highest offset + length */
	char sources[512];	/* "disks 0 (2), 1 (2)" (trace_sources_text) */
	int nr_sources;		/* 0, 1, or 2 for two or more */
};

/* The trace options of a profile's workload (trace_format, ...). */
int replay_trace_opts(const struct profile_section *w,
		      struct trace_opts *o, char *err, size_t len);
int replay_scan(const char *file, const struct trace_opts *o,
		bool reads_only, struct trace_stats *st, char *err, size_t len);

struct feeder;

struct feeder *feeder_start(const char *file, const struct trace_opts *o,
			    bool reads_only, const char *trace_path,
			    char *err, size_t len);
void feeder_wait_prefill(struct feeder *f);
void feeder_go(struct feeder *f, bool started);
int feeder_join(struct feeder *f, uint64_t *fed, char *err, size_t len);

#endif /* BLKGENCTL_REPLAY_H */
