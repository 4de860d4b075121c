/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl: running a profile's job (cmd-run.c), for the commands built
 * on it (run, curve, replay, review).
 */
#ifndef BLKGENCTL_RUN_H
#define BLKGENCTL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "blkgenctl.h"
#include "profile.h"

struct run_opts {
	const char *devices[PROFILE_MAX_WL];
	int nr_devices;
	const char *sets[64];
	int nr_sets;
	bool allow_write;
	bool quiet;
	bool keep;
	bool said_overwrite;	/* the caller warned of the overwrite once */
	bool dry_run;		/* check and print the profile, run nothing */
	bool load_only;		/* run_load: check, without the module's */
	const char *name;
	const struct print_ops *ops;
	uint64_t start_at;	/* --start-at: CLOCK_REALTIME ns, 0 = at once */
	const char *lease;	/* --lease: a file its controller renews */
	unsigned int lease_secs;	/* --lease-secs: how stale it may grow */
	uint64_t lease_began;	/* CLOCK_REALTIME ns this command's first run began */
	bool lease_out;		/* the lease ran out (or the coordinator said stop) */
	const char *coordinator;	/* --coordinator HOST:PORT */
	const char *host_name;	/* --host-name, default the host's name */
	struct coord *coord;	/* connected: every run started by it */
	int coord_point;	/* the next run's number for it */
	const char *coord_step;	/* what the next run is, for it (review) */
};

/* --lease-secs when --lease is given alone */
#define RUN_LEASE_SECS 30
/* Parse --lease/--lease-secs (@ch 'l' or 'e'): 0, or -1 on a bad value. */
int parse_lease_opt(int ch, const char *arg, struct run_opts *o);
/* After parsing: --lease-secs needs --lease, whose file must exist. */
int check_lease_opts(const struct run_opts *o);

/*
 * --coordinator: connect and say hello (@command, @points runs) before the
 * first run; 0, or EXIT_FAIL said. run_coord_bye() at the end returns @ret.
 */
int run_coord_open(struct run_opts *o, const char *command, int points);
int run_coord_bye(struct run_opts *o, int ret);

/* Load PROFILE (a file or an installed name), apply @o, check it, catch signals. */
int run_load(const char *file, struct profile *p, struct run_opts *o);
/* Create, run and remove the job; its results into @res (or printed). */
int run_job(struct profile *p, struct run_opts *o, const char *job,
	    struct job_result *res);
/* The signal that stopped us (SIGINT, SIGTERM), 0 if none. */
int run_interrupted(void);
/* "1.1 GB, MODEL": a device's size and model, for an overwrite warning. */
void describe(const char *dev, char *buf, size_t size);
void run_catch_signals(void);

/* vdbench's curve */
int curve_points(const char *s, double *pts, int max);
uint64_t curve_target(uint64_t max, double pct);
int curve_trace_rate(struct profile *p, double *iops);
void curve_set_max(struct profile *p, double trace_iops);
double curve_set_target(struct profile *p, uint64_t target, double trace_iops);
/* Between two points of a curve armed for start_at: one run torn down, the next armed. */
#define CURVE_SLOT_GAP_MS 5000
uint64_t curve_slot_ms(const struct profile *p, char *why, size_t len);
uint64_t run_planned_ms(const struct profile *p);
uint64_t curve_planned_ms(const struct profile *p, const char *points);
void print_planned(FILE *f, uint64_t ms);

/* when.c: an instant a user gave (--start-at) as CLOCK_REALTIME ns */
int when_parse(const char *s, uint64_t now_ns, uint64_t *ns);

#endif /* BLKGENCTL_RUN_H */
