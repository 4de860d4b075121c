/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl - shared declarations of the control tool.
 */
#ifndef BLKGENCTL_H
#define BLKGENCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include <linux/blkgen.h>

#define BLKGENCTL_VERSION "0.1"

/* Exit codes, documented in Documentation/blkgenctl.rst. */
enum {
	EXIT_OK		= 0,	/* success */
	EXIT_FAIL	= 1,	/* the operation or the job failed */
	EXIT_USAGE	= 2,	/* bad command line or profile */
	EXIT_NOMOD	= 3,	/* module not loaded, configfs not mounted */
};

struct command {
	const char *name;
	const char *args;
	const char *help;
	int (*fn)(int argc, char **argv);
};

/* cfs.c: configfs and sysfs access; roots can be moved for tests */
const char *cfs_root(void);	/* /sys/kernel/config/blkgen */
const char *sfs_root(void);	/* /sys/kernel/blkgen */
bool cfs_module_loaded(void);
const char *cfs_missing_hint(void);
int cfs_need_module(void);	/* 0, or the hint said and EXIT_NOMOD */
int cfs_path(char *buf, size_t size, const char *dir, const char *name);
int path_join(char *buf, size_t size, const char *dir, const char *name,
	      const char *suffix);
bool in_path(const char *prog);
int mkdirs(const char *path);
/* The install's directories (the Makefile's PREFIX; these when built apart). */
#ifndef BLKGEN_PROFILE_DIR
#define BLKGEN_PROFILE_DIR "/usr/local/share/blkgen/profiles"
#endif
#ifndef BLKGEN_SUITE_DIR
#define BLKGEN_SUITE_DIR "/usr/local/share/blkgen/suites"
#endif
const char *profile_dir(void);	/* BLKGEN_PROFILES, the source tree's, the installed */
const char *suite_dir(void);	/* BLKGEN_SUITES, the source tree's, the installed */
int named_file(char *buf, size_t size, const char *name, const char *dir,
	       const char *suffix);
int cfs_read_text(const char *path, char *buf, size_t size);
int cfs_read_u64(const char *path, uint64_t *v);
void *cfs_read_file(const char *path, size_t *size);
int cfs_write(const char *path, const char *value);
int cfs_list(const char *dir, char ***names);
void cfs_free_list(char **names, int n);
int cfs_remove_job(const char *job);
uint64_t cfs_dev_bytes(const char *dev);
int cfs_dev_zoned(const char *dev, uint32_t io, uint64_t *writable,
		  uint64_t *fill_ios);
int cfs_reset_zones(const char *dev);
bool cfs_dev_is_zoned(const char *dev);
void cfs_block_attr(const char *dev, const char *what, char *buf, size_t len);
void cfs_device_id(const char *dev, const char *what, char *buf, size_t len);

/* A zoned workload's counters, as WL/ names them (zone_names[]). */
enum { ZC_OPENED, ZC_FINISHED, ZC_RESETS, ZC_APPENDS, ZC_BEYOND, ZC_NR };
extern const char *const zone_names[ZC_NR];

/* result.c: one job's results as read from sysfs */
struct dir_result {
	uint64_t ios;
	uint64_t bytes;
	struct blkgen_lat_hist lat;	/* response time: intended arrival to completion */
	struct blkgen_lat_hist svc;	/* service time: submission to completion */
	bool no_svc;	/* no service times (an older module or report) */
};

struct wl_result {
	char *name;
	char device[256];	/* WL/device, "" if unknown */
	struct dir_result dir[2];	/* 0 read, 1 write */
	uint64_t errors;
	uint64_t late_ios;	/* open loop: arrivals that waited for a slot */
	uint64_t max_lag_ns;	/* open loop: largest schedule lag */
	uint64_t verify_checked;	/* verify=1: blocks checked by reads */
	uint64_t verify_errors;		/* ... found wrong */
	uint64_t verify_unflushed;	/* ... old, not covered by a flush */
	uint64_t flushes;	/* flush_ms: flushes completed */
	uint64_t zone[ZC_NR];	/* zoned: WL/zones_opened ... (zone_names) */
	bool zoned;		/* on a zoned device: the counters are shown */
	char clock[32];		/* WL/clock: "tsc", "ktime"...; "" if unknown */
	char *verify_log;	/* WL/verify_log, NULL if empty */
	struct blkgen_interval *iv;
	size_t nr_iv;
};

bool wl_zoned(const struct wl_result *w);
struct json_object;
void json_zone(struct json_object *o, const struct wl_result *w);

/* merge: one report's host, its times and total I/Os */
/* One interval of a merged host's series: all its workloads, both directions. */
struct host_interval {
	uint64_t start_ms, length_ms;
	uint64_t ios;
	double lat_ns_sum;	/* each direction's mean latency times its I/Os */
};

struct host_result {
	char *file;
	char hostname[128];
	char kernel[128];
	uint64_t start_at;	/* its jobs' (all the same), 0 = at once */
	uint64_t started_at_ns;	/* its earliest first I/O, 0 if unknown */
	uint64_t ended_at_ns;	/* its latest end, 0 if unknown */
	uint64_t ios;
	uint64_t elapsed_ms;
	uint64_t interval_ms;	/* its time series' interval, 0 if none */
	struct host_interval *iv;	/* its series, for the chart of a merge */
	int nr_iv;
};

struct job_result {
	char *name;
	char state[32];
	char error[256];
	uint64_t elapsed_ms;
	uint64_t start_at;	/* CLOCK_REALTIME ns asked for, 0 = at once */
	uint64_t started_at_ns;	/* CLOCK_REALTIME ns of the first I/O */
	uint64_t ended_at_ns;	/* ... when the last I/O was accounted */
	struct wl_result *wl;
	int nr_wl;
	struct host_result *hosts;	/* merge: one per report */
	int nr_hosts;
};

int result_load(const char *job, struct job_result *r);
int result_load_intervals(const char *job, struct job_result *r);
void result_free(struct job_result *r);
int hist_from_uapi(const void *buf, size_t size, struct blkgen_lat_hist *h);

/* report.c: statistics of a histogram */
extern const double report_percentiles[];
extern const int report_nr_percentiles;
uint64_t report_percentile(const struct blkgen_lat_hist *h, double pct);
double report_mean(const struct blkgen_lat_hist *h);
double report_stddev(const struct blkgen_lat_hist *h);

struct json_object;

/* print-*.c: output formats */
struct print_ops {
	const char *name;
	void (*job)(const struct job_result *r);
	/* several runs in one report (run PROFILE...); NULL: not in this format */
	void (*jobs)(const struct job_result *r, int n);
};

extern const struct print_ops print_normal_ops;
extern const struct print_ops print_json_ops;
extern const struct print_ops print_csv_ops;
extern const struct print_ops print_csv_iv_ops;
extern const struct print_ops print_fio_ops;
const struct print_ops *print_ops_for(const char *fmt);
const struct print_ops *print_ops_arg(const char *fmt);
struct json_object *print_json_lat(const struct blkgen_lat_hist *h);
struct json_object *print_json_bins(const struct blkgen_lat_hist *h);
struct json_object *print_json_verify(const struct wl_result *w);
void print_json_doc(struct json_object *root);
void json_identity(struct json_object *root);

/* cmd-run.c */
int cmd_run(int argc, char **argv);
int cmd_curve(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_coordinate(int argc, char **argv);
int cmd_trace_stats(int argc, char **argv);
int cmd_record(int argc, char **argv);
/* the most desktops a VDI trace models */
#define VDI_MAX_DESKTOPS	100000
int cmd_vdi(int argc, char **argv);

/* cmd-file.c */
int cmd_merge(int argc, char **argv);
int result_load_json(const char *file, struct job_result *r);
struct json_object;
int result_add_json(const char *file, struct json_object *root,
		    struct job_result *r);
struct json_object *json_load(const char *file);
struct json_object *json_member(struct json_object *o, const char *key);
int json_lat_add(struct json_object *lat, struct blkgen_lat_hist *h);
/* merge-curve.c: curves of hosts armed for one start_at, point by point */
int merge_curves(char *const *files, int nr, struct json_object *first,
		 const char *fmt, bool force);

/* cmd-plot.c */
int cmd_plot(int argc, char **argv);

/* cmd-convert.c */
int cmd_convert(int argc, char **argv);

/* cmd-verify.c */
struct vlog_line {
	uint64_t offset;	/* bytes */
	uint64_t from;		/* misdirected: where the data belongs */
	char cls[16];
	unsigned int expected;
	unsigned int found;
};

int vlog_parse(const char *line, struct vlog_line *l);
int cmd_verify(int argc, char **argv);
void print_verify_log(const char *wl, const char *log, const char *indent);

/* cmd-job.c */
int cmd_list(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_rm(int argc, char **argv);

#endif /* BLKGENCTL_H */
