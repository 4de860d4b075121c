/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl: many hosts' runs in lockstep through one coordinator
 * (`blkgenctl coordinate` on the controller, `--coordinator HOST:PORT` on
 * each host's run, curve or replay). The wire: one JSON object a line
 * over TCP, both ways (Documentation/multihost.rst, "The coordinator").
 */
#ifndef BLKGENCTL_COORD_H
#define BLKGENCTL_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct json_object;

/* Both ends say something at least this often (a ping when idle). */
#define COORD_PING_MS 1000
/* A host stops when its coordinator has been silent this long (--lease-secs). */
#define COORD_SILENT_SECS 10
/* The coordinator gives up on a host silent this long. */
#define COORD_HOST_SILENT_SECS 30

/* One end of a connection: its socket and what came without a line's end. */
struct coord_conn {
	int fd;
	size_t len;
	char buf[16384];
};

/* Send @msg as one line (and put it); 0 or -errno. */
int coord_send(int fd, struct json_object *msg);
/*
 * Read what has arrived, without waiting, and call @fn on each whole
 * line's object (the object is put after). 0, -EPIPE at the other end's
 * close, -EPROTO on a line that is not a JSON object, -errno, or what @fn
 * returned when not 0.
 */
int coord_read(struct coord_conn *c,
	       int (*fn)(void *arg, struct json_object *msg), void *arg);
/*
 * "HOST:PORT", "[V6]:PORT" or "PORT" (@passive: any address) into a
 * socket address; 0, or -1 with a message in @why.
 */
int coord_resolve(const char *s, bool passive, struct sockaddr_storage *ss,
		  socklen_t *len, char *why, size_t wlen);
/* An integer member of @o, @def when absent. */
int64_t coord_int(struct json_object *o, const char *key, int64_t def);
/* A string member of @o, @def when absent. */
const char *coord_str(struct json_object *o, const char *key, const char *def);

/* A host's side: its connection, the run it is in. */
struct coord;
struct job_result;

/*
 * Connect to the coordinator at @addr and say hello: this host's @name,
 * its @command (run, curve, replay) and how many runs (@points) it will
 * make. @silent_secs: a coordinator silent this long is gone (and one
 * that refuses the connection is tried again for as long). NULL, with a
 * message printed, when it cannot.
 */
struct coord *coord_connect(const char *addr, const char *name,
			    const char *command, int points,
			    unsigned int silent_secs);
/*
 * The job of run @point is made: say so, and wait for the instant the
 * coordinator gives every host (CLOCK_REALTIME ns into @at). @step, when
 * not NULL, names what the run is (a review's "points/sql/max"): every
 * host's must be the same, or the coordinator stops them all. 0, or -1
 * with the reason in @why (told to stop, the coordinator gone, a signal).
 */
int coord_wait_start(struct coord *c, int point, const char *step,
		     uint64_t *at, char *why, size_t len);

/* What every host said to one coord_agree(): their values' sum, least, most. */
struct coord_agreed {
	int64_t sum, min, max;
	int hosts;
};

/*
 * Say @value about @about (what every host's Nth call must be about, or
 * the coordinator stops them all) and wait until every host has said its
 * own: what they said into @a. A review's decisions
 * that rest on measurements (steady state on the hosts' summed IOPS, a
 * VDI trace's size) come out the same on every host, and their runs stay
 * in step. 0, or -1 with the reason in @why.
 */
int coord_agree(struct coord *c, const char *about, int64_t value,
		struct coord_agreed *a, char *why, size_t len);
/*
 * Wait for the coordinator's answer to the hello (at most the silent
 * time): 0 if it takes a review's steps and votes, else -1 with why (an
 * older blkgenctl coordinate would leave a vote unanswered for ever).
 */
int coord_require_reviews(struct coord *c, char *why, size_t len);
/* Sleep @ms, or less when the coordinator says something. */
void coord_wait(struct coord *c, int ms);
/*
 * During a run, without waiting: read what the coordinator said and
 * ping it. True, with the reason in @why, when the run must stop.
 */
bool coord_check(struct coord *c, char *why, size_t len);
/*
 * Send the intervals of @job's time series (all its workloads summed)
 * not sent yet for run @point. @r: the job's final results (every
 * interval, the last one shortened), or NULL to read those finished so far.
 */
void coord_intervals(struct coord *c, int point, const char *job,
		     const struct job_result *r);
/* Run @point ended with exit status @rc (and @error, "" if none). */
void coord_end(struct coord *c, int point, int rc, const char *error);
/* The command ends with @rc: say so and close. */
void coord_bye(struct coord *c, int rc);

#endif /* BLKGENCTL_COORD_H */
