// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl coordinate: the controller's end of many hosts' runs. It
 * waits for each host's blkgenctl (run, curve, replay or review --coordinator) to
 * connect; starts each run on every host at one instant agreed once all
 * of them have made its job (a curve's points in lockstep); prints the
 * hosts' total of each interval as the intervals finish; and stops every
 * host when one fails or leaves, or when it is itself interrupted. A host
 * whose coordinator goes silent or away stops its own run. A review's runs
 * are counted as they go, each named by its step, and its figures (PTS
 * rounds, VDI traces) are summed across the hosts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "coord.h"
#include "run.h"

#define COORD_MAX_HOSTS 256

/* One interval of one host's current run, as it sent it. */
struct civ {
	uint64_t ms, ios, bytes, lat_ns, errors;
	bool have;
};

struct chost {
	struct coord_conn conn;
	char name[128];
	bool hello;
	bool gone;		/* its connection closed */
	bool bye;		/* it said its command ended */
	int rc;			/* its command's exit status, at bye */
	int ready;		/* the run it made and waits to start, -1 none */
	int running;		/* the run it was started on, -1 none */
	int ended;		/* the last run it ended, -1 none */
	char step[256];		/* what its ready run is (a review's), "" if unnamed */
	int vote;		/* the last vote it gave, -1 none */
	int64_t value;		/* ... its value */
	char about[256];	/* ... and what it is about */
	char error[256];	/* its failure, "" if none */
	uint64_t heard_ms;
	struct civ *iv;		/* @running's intervals */
	size_t nr_iv, cap_iv;
};

struct coordinator {
	struct chost h[COORD_MAX_HOSTS];
	int nr;			/* connections' slots used */
	int hellos;		/* hosts among them (said hello) */
	int want;		/* --hosts */
	const char *command;	/* the first hello's */
	int points;
	uint64_t lead_ms;
	uint64_t silent_ms;	/* --silent-secs: a host silent this long is lost */
	uint64_t start_at;	/* --start-at: the first run's instant */
	int point;		/* the run under way (started), -1 before */
	int agreed;		/* votes answered */
	size_t printed;		/* its intervals printed */
	uint64_t waiting_ms;	/* since when the next one is waited for, some hosts' there */
	char failed[512];	/* why every host was stopped, "" if not */
	bool stop_sent;
};

static volatile sig_atomic_t coord_sig;

static void on_signal(int sig)
{
	coord_sig = sig;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void utc(uint64_t ns, char *buf, size_t len)
{
	time_t s = ns / 1000000000ULL;
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d.%03llu UTC",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec,
		 (unsigned long long)(ns % 1000000000ULL) / 1000000);
}

static void send_to(struct chost *h, struct json_object *m)
{
	if (h->gone || h->conn.fd < 0) {
		json_object_put(m);
		return;
	}
	if (coord_send(h->conn.fd, m)) {
		h->gone = true;
		close(h->conn.fd);
		h->conn.fd = -1;
	}
}

/* Stop every host still there, once, for @why. */
static void stop_all(struct coordinator *c, const char *why)
{
	int i;

	if (c->stop_sent)
		return;
	c->stop_sent = true;
	if (!c->failed[0])
		snprintf(c->failed, sizeof(c->failed), "%s", why);
	/* The hosts first: the print may fail (its reader gone). */
	for (i = 0; i < c->nr; i++) {
		struct json_object *m = json_object_new_object();

		json_object_object_add(m, "stop", json_object_new_string(why));
		send_to(&c->h[i], m);
	}
	printf("coordinate: %s: stopping every host\n", why);
}

/* A host lost or failed: the run ends everywhere. */
static void host_failed(struct coordinator *c, struct chost *h, const char *what)
{
	char why[512];

	snprintf(why, sizeof(why), "%s %s", h->name[0] ? h->name : "a host", what);
	if (!h->error[0])
		snprintf(h->error, sizeof(h->error), "%s", what);
	stop_all(c, why);
}

static int grow_iv(struct chost *h, size_t i)
{
	struct civ *n;
	size_t cap;

	if (i < h->cap_iv)
		return 0;
	cap = h->cap_iv ? h->cap_iv * 2 : 64;
	while (cap <= i)
		cap *= 2;
	n = realloc(h->iv, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + h->cap_iv, 0, (cap - h->cap_iv) * sizeof(*n));
	h->iv = n;
	h->cap_iv = cap;
	return 0;
}

/* The answer to a hello: what this coordinator does (a review refuses one without steps and votes). */
static void welcome(struct chost *h)
{
	struct json_object *w = json_object_new_object();
	struct json_object *f = json_object_new_array();

	json_object_array_add(f, json_object_new_string("steps"));
	json_object_array_add(f, json_object_new_string("votes"));
	json_object_object_add(w, "welcome", json_object_new_string(BLKGENCTL_VERSION));
	json_object_object_add(w, "features", f);
	send_to(h, w);
}

struct msg_ctx {
	struct coordinator *c;
	struct chost *h;
};

static int on_msg(void *arg, struct json_object *m)
{
	struct msg_ctx *x = arg;
	struct coordinator *c = x->c;
	struct chost *h = x->h;
	const char *s;
	int64_t v;
	int i;

	h->heard_ms = mono_ms();
	s = coord_str(m, "hello", NULL);
	if (s) {
		const char *cmd = coord_str(m, "command", "run");
		int points = coord_int(m, "points", 1);

		snprintf(h->name, sizeof(h->name), "%s", s);
		for (i = 0; i < c->nr; i++)
			if (&c->h[i] != h && c->h[i].hello &&
			    !strcmp(c->h[i].name, h->name)) {
				host_failed(c, h, "has the name of another host (--host-name)");
				return 0;
			}
		if (!c->command) {
			c->command = strdup(cmd);
			c->points = points;
		} else if (strcmp(c->command, cmd) || c->points != points) {
			char why[256];

			snprintf(why, sizeof(why), "runs %s with %d runs where the others run %s with %d",
				 cmd, points, c->command, c->points);
			host_failed(c, h, why);
			return 0;
		}
		if (c->hellos >= c->want) {
			host_failed(c, h, "came beyond --hosts");
			return 0;
		}
		h->hello = true;
		c->hellos++;
		welcome(h);
		if (points)
			printf("coordinate: %s connected (%s, %d run%s)\n", h->name, cmd,
			       points, points == 1 ? "" : "s");
		else
			printf("coordinate: %s connected (%s, its runs as it goes)\n",
			       h->name, cmd);
		return 0;
	}
	if (!h->hello)
		return -EPROTO;
	v = coord_int(m, "ready", -1);
	if (v >= 0) {
		h->ready = v;
		snprintf(h->step, sizeof(h->step), "%s", coord_str(m, "step", ""));
		return 0;
	}
	v = coord_int(m, "vote", -1);
	if (v >= 0) {
		h->vote = v;
		h->value = coord_int(m, "value", 0);
		snprintf(h->about, sizeof(h->about), "%s", coord_str(m, "step", ""));
		return 0;
	}
	v = coord_int(m, "iv", -1);
	if (v >= 0 && coord_int(m, "point", -1) == h->running && v < 1000000) {
		if (grow_iv(h, v))
			return -ENOMEM;
		h->iv[v].ms = coord_int(m, "ms", 0);
		h->iv[v].ios = coord_int(m, "ios", 0);
		h->iv[v].bytes = coord_int(m, "bytes", 0);
		h->iv[v].lat_ns = coord_int(m, "lat_ns", 0);
		h->iv[v].errors = coord_int(m, "errors", 0);
		h->iv[v].have = true;
		if ((size_t)v + 1 > h->nr_iv)
			h->nr_iv = v + 1;
		return 0;
	}
	v = coord_int(m, "end", -1);
	if (v >= 0) {
		int rc = coord_int(m, "rc", 0);

		h->ended = v;
		if (rc && !c->stop_sent) {
			char what[512];

			snprintf(what, sizeof(what), "failed (run %lld, exit %d%s%s)",
				 (long long)v, rc, *coord_str(m, "error", "") ? ": " : "",
				 coord_str(m, "error", ""));
			host_failed(c, h, what);
		}
		return 0;
	}
	if (json_object_object_get_ex(m, "bye", NULL)) {
		h->bye = true;
		h->rc = coord_int(m, "bye", 0);
		if (h->rc && !c->stop_sent) {
			char what[64];

			snprintf(what, sizeof(what), "ended with exit %d", h->rc);
			host_failed(c, h, what);
		}
		return 0;
	}
	return 0;	/* a ping, or what a later version says */
}

/*
 * Stop every host, the hosts named with what each waits for: they are
 * out of step at @what.
 */
static void out_of_step(struct coordinator *c, const char *what)
{
	char why[1024], *p = why;
	int i;

	p += snprintf(why, sizeof(why), "the hosts are out of step at %s:", what);
	for (i = 0; i < c->nr && p < why + sizeof(why) - 300; i++) {
		const struct chost *h = &c->h[i];

		if (!h->hello)
			continue;
		if (h->bye)
			snprintf(p, 280, " %s ended;", h->name);
		else if (h->vote == c->agreed)
			snprintf(p, 280, " %s figures of %s;", h->name,
				 h->about[0] ? h->about : "(unnamed)");
		else if (h->ready == c->point + 1)
			snprintf(p, 280, " %s %s;", h->name, h->step[0] ? h->step : "(unnamed)");
		else
			snprintf(p, 280, " %s busy;", h->name);
		p += strlen(p);
	}
	snprintf(p, why + sizeof(why) - p, " they need the same suite, settings and saved points");
	stop_all(c, why);
}

/*
 * Every host still in waits, some for the next run, others in a vote
 * (or a review's has ended while others wait): none of them can go on.
 * Stop them all; true if so.
 */
static bool deadlocked(struct coordinator *c)
{
	int i, ready = 0, voting = 0, ended = 0;
	bool named = false;
	char what[64];

	for (i = 0; i < c->nr; i++) {
		const struct chost *h = &c->h[i];

		if (!h->hello || h->gone)
			continue;
		if (h->bye) {
			ended++;
		} else if (h->vote == c->agreed) {
			voting++;
		} else if (h->ready == c->point + 1) {
			ready++;
			named |= h->step[0] != 0;
		} else {
			return false;	/* running, or about to say */
		}
	}
	/*
	 * A curve's host that ended early is not waited for (its others'
	 * runs are unnamed); a review's is out of step.
	 */
	if ((ready && voting) || (ended && (voting || (ready && named)))) {
		snprintf(what, sizeof(what), "run %d", c->point + 1);
		out_of_step(c, what);
		return true;
	}
	return false;
}

/*
 * Every host ready for run @next: do they all mean the same run (a
 * review's step)? A review's host that ended while others go on is out of
 * step too. Not: every host stopped, and false.
 */
static bool steps_agree(struct coordinator *c, int next)
{
	const struct chost *first = NULL;
	bool same = true, ended = false;
	char what[64];
	int i;

	for (i = 0; i < c->nr; i++) {
		const struct chost *h = &c->h[i];

		if (!h->hello)
			continue;
		if (h->bye) {
			ended = true;
			continue;
		}
		if (!first)
			first = h;
		else if (strcmp(first->step, h->step))
			same = false;
	}
	if (same && !(ended && first && first->step[0]))
		return true;
	snprintf(what, sizeof(what), "run %d", next);
	out_of_step(c, what);
	return false;
}

/*
 * Every host still in has given vote @c->agreed, about the same thing:
 * tell each of them the values' sum, least and most. A host ended (a
 * review's, while the others vote) or a vote about another thing stops
 * every host: they are out of step.
 */
static void maybe_agree(struct coordinator *c)
{
	int64_t sum = 0, min = INT64_MAX, max = INT64_MIN;
	const struct chost *first = NULL;
	int i, n = 0;
	bool ended = false;
	char what[300];

	if (c->stop_sent || c->hellos < c->want)
		return;
	for (i = 0; i < c->nr; i++) {
		const struct chost *h = &c->h[i];

		if (!h->hello || h->gone)
			continue;
		if (h->bye) {
			ended = true;
			continue;
		}
		if (h->vote != c->agreed)
			return;
		if (!first)
			first = h;
		if (strcmp(first->about, h->about)) {
			snprintf(what, sizeof(what), "figures %d", c->agreed);
			out_of_step(c, what);
			return;
		}
		sum += h->value;
		min = h->value < min ? h->value : min;
		max = h->value > max ? h->value : max;
		n++;
	}
	if (!n)
		return;
	if (ended) {
		snprintf(what, sizeof(what), "figures %d", c->agreed);
		out_of_step(c, what);
		return;
	}
	printf("coordinate: figures %d%s%s%s from %d host%s: sum %lld, least %lld, most %lld\n",
	       c->agreed, first->about[0] ? " (" : "", first->about,
	       first->about[0] ? ")" : "", n, n == 1 ? "" : "s", (long long)sum,
	       (long long)min, (long long)max);
	for (i = 0; i < c->nr; i++) {
		struct json_object *m;

		if (!c->h[i].hello || c->h[i].bye)
			continue;
		m = json_object_new_object();
		json_object_object_add(m, "agreed", json_object_new_int(c->agreed));
		json_object_object_add(m, "sum", json_object_new_int64(sum));
		json_object_object_add(m, "min", json_object_new_int64(min));
		json_object_object_add(m, "max", json_object_new_int64(max));
		json_object_object_add(m, "hosts", json_object_new_int(n));
		send_to(&c->h[i], m);
	}
	c->agreed++;
}

/* Every host there and ready for the next run: start it on all of them. */
static void maybe_start(struct coordinator *c)
{
	int i, next = c->point + 1, n = 0;
	uint64_t at, now;
	char when[64];
	const char *step = "";

	if (c->stop_sent || c->hellos < c->want)
		return;
	for (i = 0; i < c->nr; i++) {
		struct chost *h = &c->h[i];

		if (!h->hello)
			continue;	/* not a host */
		if (h->bye)
			continue;	/* its curve stopped early: not waited for */
		if (h->ready != next)
			return;
		n++;
	}
	if (!n)
		return;
	if (!steps_agree(c, next))
		return;
	now = real_ns();
	at = now + c->lead_ms * 1000000ULL;
	if (next == 0 && c->start_at) {
		if (c->start_at < now + 100000000ULL) {
			char why[128];

			snprintf(why, sizeof(why), "--start-at was %.1f s away when every host was ready (less than 0.1 s ahead)",
				 ((int64_t)c->start_at - (int64_t)now) / 1e9);
			stop_all(c, why);
			return;
		}
		at = c->start_at;
	}
	for (i = 0; i < c->nr; i++)
		if (c->h[i].hello && !c->h[i].bye)
			step = c->h[i].step;
	c->point = next;
	c->printed = 0;
	c->waiting_ms = 0;
	utc(at, when, sizeof(when));
	printf("coordinate: run %d%s%s%s on %d host%s at %s (start_at %llu)\n", next,
	       step[0] ? " (" : "", step, step[0] ? ")" : "", n,
	       n == 1 ? "" : "s", when, (unsigned long long)at);
	for (i = 0; i < c->nr; i++) {
		struct chost *h = &c->h[i];
		struct json_object *m;

		if (!h->hello || h->bye)
			continue;
		h->running = next;
		h->nr_iv = 0;
		if (h->iv)
			memset(h->iv, 0, h->cap_iv * sizeof(*h->iv));
		m = json_object_new_object();
		json_object_object_add(m, "start", json_object_new_int(next));
		json_object_object_add(m, "at_ns", json_object_new_int64(at));
		send_to(h, m);
	}
}

/*
 * The hosts' total of each interval of the run under way, once every
 * host in it has sent that interval (or ended the run), or, when some
 * have, after two intervals and at least 2 s more without the others
 * (they send each second): then the missing ones are named.
 */
static void print_live(struct coordinator *c)
{
	for (;;) {
		size_t i = c->printed;
		uint64_t ios = 0, bytes = 0, lat = 0, errs = 0, ms = 0, now = mono_ms();
		uint64_t iv_ms = 0, late;
		int k, have = 0, in = 0, some = 0;
		char missing[256] = "";
		bool all = true;

		if (c->point < 0)
			return;
		for (k = 0; k < c->nr; k++) {
			struct chost *h = &c->h[k];

			if (h->running != c->point)
				continue;
			in++;
			if (i < h->nr_iv && h->iv[i].have) {
				some++;
				if (h->iv[i].ms > iv_ms)
					iv_ms = h->iv[i].ms;
				continue;
			}
			/* Ended the run without it: it has no more. */
			if (h->ended >= c->point || h->gone || h->bye)
				continue;
			all = false;
		}
		if (!in || !some)
			return;
		if (!all) {
			late = 2 * iv_ms > 2000 ? 2 * iv_ms : 2000;
			if (!c->waiting_ms)
				c->waiting_ms = now;
			if (now - c->waiting_ms < late)
				return;
		}
		c->waiting_ms = 0;
		for (k = 0; k < c->nr; k++) {
			struct chost *h = &c->h[k];

			if (h->running != c->point)
				continue;
			if (i < h->nr_iv && h->iv[i].have) {
				ios += h->iv[i].ios;
				bytes += h->iv[i].bytes;
				lat += h->iv[i].lat_ns;
				errs += h->iv[i].errors;
				if (h->iv[i].ms > ms)
					ms = h->iv[i].ms;
				have++;
			} else if (h->ended < c->point && !h->gone && !h->bye) {
				size_t l = strlen(missing);

				snprintf(missing + l, sizeof(missing) - l, "%s%s",
					 l ? ", " : "", h->name);
			}
		}
		c->printed = i + 1;
		if (!ms)
			continue;
		printf("live: run %d interval %zu: %d/%d hosts  ios %llu  IOPS %.0f  MB/s %.1f  mean %.1f us",
		       c->point, i + 1, have, in, (unsigned long long)ios, ios * 1000.0 / ms,
		       bytes * 1000.0 / ms / 1e6, ios ? lat / 1e3 / ios : 0.0);
		if (errs)
			printf("  errors %llu", (unsigned long long)errs);
		if (missing[0])
			printf("  (not yet: %s)", missing);
		printf("\n");
	}
}

static bool all_done(struct coordinator *c)
{
	int i;

	if (c->hellos < c->want)
		return false;
	for (i = 0; i < c->nr; i++)
		if (c->h[i].hello && !c->h[i].bye && !c->h[i].gone)
			return false;
	return true;
}

/* Every host there has said its command ended (or is gone). */
static bool all_said(struct coordinator *c)
{
	int i;

	for (i = 0; i < c->nr; i++)
		if (c->h[i].hello && !c->h[i].bye && !c->h[i].gone)
			return false;
	return true;
}

/*
 * The end: each connection shut for writing, then read to its end (for
 * at most 2 s), then closed, so that no reset overtakes a stop the host
 * has not read yet.
 */
static void drain(struct coordinator *c)
{
	uint64_t until = mono_ms() + 2000;
	char b[4096];
	int i, open = 0;

	for (i = 0; i < c->nr; i++)
		if (!c->h[i].gone) {
			shutdown(c->h[i].conn.fd, SHUT_WR);
			open++;
		}
	while (open && mono_ms() < until) {
		struct pollfd pf[COORD_MAX_HOSTS];
		int n = 0, k;

		for (i = 0; i < c->nr; i++)
			if (!c->h[i].gone)
				pf[n++] = (struct pollfd){ .fd = c->h[i].conn.fd, .events = POLLIN };
		poll(pf, n, 100);
		for (k = 0; k < n; k++) {
			ssize_t r;

			if (!pf[k].revents)
				continue;
			r = recv(pf[k].fd, b, sizeof(b), MSG_DONTWAIT);
			if (r > 0 || (r < 0 && (errno == EAGAIN || errno == EINTR)))
				continue;
			for (i = 0; i < c->nr; i++)
				if (c->h[i].conn.fd == pf[k].fd && !c->h[i].gone) {
					close(pf[k].fd);
					c->h[i].conn.fd = -1;
					c->h[i].gone = true;
					open--;
				}
		}
	}
	for (i = 0; i < c->nr; i++)
		if (!c->h[i].gone) {
			close(c->h[i].conn.fd);
			c->h[i].gone = true;
		}
}

static int listen_on(const char *addr, const struct sockaddr_storage *ss,
		     socklen_t sl, char *why, size_t len)
{
	int fd, one = 1;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* Every address of both families when none is given (the [::]). */
	if (fd >= 0 && ss->ss_family == AF_INET6) {
		int off = 0;

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	}
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (const struct sockaddr *)ss, sl) || listen(fd, 64)) {
		snprintf(why, len, "'%s': %s", addr, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static const char coord_usage[] =
	"usage: blkgenctl coordinate --hosts N [--listen [ADDR:]PORT] [--lead-ms MS]\n"
	"                            [--start-at TIME] [--wait-secs S] [--silent-secs S]\n"
	"                            [--while-stdin]";

static void coord_help(void)
{
	printf("%s\n\n"
	       "The controller's end of many hosts' runs: each host runs\n"
	       "  blkgenctl run|curve|replay|review ... --coordinator THIS:PORT\n"
	       "and every run starts on all of them at one instant, each interval's\n"
	       "total across the hosts is printed as it finishes, and one host's\n"
	       "failure stops the others.\n\n"
	       "      --hosts N        how many hosts take part (1 to %d)\n"
	       "      --listen [ADDR:]PORT  where to listen (default 7010, any address)\n"
	       "      --lead-ms MS     a run starts this long after the last host is\n"
	       "                       ready for it (default 2000)\n"
	       "      --start-at TIME  the first run's instant instead (as for run)\n"
	       "      --wait-secs S    how long to wait for every host to connect and\n"
	       "                       be ready for the first run (default 120)\n"
	       "      --silent-secs S  a host silent this long is lost (default %d;\n"
	       "                       each host speaks every second)\n"
	       "      --while-stdin    stop every host when standard input ends (the\n"
	       "                       process that started it, with a pipe to it, gone)\n\n"
	       "Exit status: 0 when every host ended cleanly, 1 when one failed, was\n"
	       "lost or never came (every host stopped), 128+N when stopped by signal N.\n",
	       coord_usage, COORD_MAX_HOSTS, COORD_HOST_SILENT_SECS);
}

static int parse_uint(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		      uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || x < lo || x > hi) {
		fprintf(stderr, "blkgenctl: coordinate: %s %s: expected a whole number from %llu to %llu\n",
			opt, arg, (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*v = x;
	return 0;
}

int cmd_coordinate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hosts", required_argument, NULL, 'n' },
		{ "listen", required_argument, NULL, 'l' },
		{ "lead-ms", required_argument, NULL, 'L' },
		{ "start-at", required_argument, NULL, 'a' },
		{ "wait-secs", required_argument, NULL, 'w' },
		{ "silent-secs", required_argument, NULL, 's' },
		{ "while-stdin", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct coordinator *c;
	const char *listen_addr = "7010";
	uint64_t v, wait_secs = 120, began, last_ping = 0, done_at = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct sockaddr_storage ss;
	socklen_t sl;
	char why[512];
	int ch, lfd, i, rc;
	bool while_stdin = false;

	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "blkgenctl: out of memory\n");
		return EXIT_FAIL;
	}
	c->lead_ms = 2000;
	c->silent_ms = COORD_HOST_SILENT_SECS * 1000ULL;
	c->point = -1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			if (parse_uint("--hosts", optarg, 1, COORD_MAX_HOSTS, &v))
				goto usage;
			c->want = v;
			break;
		case 'l':
			listen_addr = optarg;
			break;
		case 'L':
			if (parse_uint("--lead-ms", optarg, 100, 3600000, &c->lead_ms))
				goto usage;
			break;
		case 'a':
			if (when_parse(optarg, real_ns(), &c->start_at) ||
			    c->start_at <= real_ns()) {
				fprintf(stderr, "blkgenctl: coordinate: --start-at %s: not an instant ahead\n",
					optarg);
				goto usage;
			}
			break;
		case 'w':
			if (parse_uint("--wait-secs", optarg, 1, 86400, &wait_secs))
				goto usage;
			break;
		case 's':
			if (parse_uint("--silent-secs", optarg, 1, 3600, &v))
				goto usage;
			c->silent_ms = v * 1000;
			break;
		case 'i':
			while_stdin = true;
			break;
		case 'h':
			coord_help();
			free(c);
			return EXIT_OK;
		default:
			goto usage;
		}
	}
	if (optind != argc || !c->want) {
		fprintf(stderr, "blkgenctl: coordinate: %s\n",
			optind != argc ? "unexpected arguments" : "--hosts N: how many hosts take part");
		goto usage;
	}
	if (coord_resolve(listen_addr, true, &ss, &sl, why, sizeof(why))) {
		fprintf(stderr, "blkgenctl: coordinate: --listen %s\n", why);
		goto usage;
	}
	lfd = listen_on(listen_addr, &ss, sl, why, sizeof(why));
	if (lfd < 0) {
		fprintf(stderr, "blkgenctl: coordinate: --listen %s\n", why);
		free(c);
		return EXIT_FAIL;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Its reader gone (the Ansible action's): the hosts are stopped, not us. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("coordinate: listening on %s for %d host%s\n", listen_addr,
	       c->want, c->want == 1 ? "" : "s");
	began = mono_ms();

	for (;;) {
		struct pollfd pf[COORD_MAX_HOSTS + 2];
		uint64_t now;
		int n = 0;

		pf[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		pf[n++] = (struct pollfd){ .fd = while_stdin ? 0 : -1, .events = POLLIN };
		for (i = 0; i < c->nr; i++)
			pf[n++] = (struct pollfd){ .fd = c->h[i].gone ? -1 : c->h[i].conn.fd,
						   .events = POLLIN };
		poll(pf, n, 100);
		now = mono_ms();

		if (coord_sig && !c->stop_sent) {
			snprintf(why, sizeof(why), "the coordinator was %s",
				 coord_sig == SIGINT ? "interrupted" : "terminated");
			stop_all(c, why);
		}
		/* Standard input ended (or said anything): its starter is gone. */
		if (pf[1].revents) {
			char b[256];

			if (read(0, b, sizeof(b)) <= 0) {
				while_stdin = false;
				if (!c->stop_sent)
					stop_all(c, "the coordinator's controller is gone (its standard input ended)");
			}
		}
		if (pf[0].revents & POLLIN) {
			int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
			int one = 1, k;

			/* A slot of a connection dropped before its hello, or a new one. */
			for (k = 0; k < c->nr; k++)
				if (c->h[k].gone && !c->h[k].hello && !c->h[k].error[0])
					break;
			if (fd >= 0 && k == COORD_MAX_HOSTS) {
				close(fd);
			} else if (fd >= 0) {
				struct chost *h = &c->h[k];

				if (k == c->nr)
					c->nr++;
				free(h->iv);
				memset(h, 0, sizeof(*h));
				h->conn.fd = fd;
				h->ready = h->running = h->ended = h->vote = -1;
				h->heard_ms = now;
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
				if (c->stop_sent) {
					struct json_object *m = json_object_new_object();

					json_object_object_add(m, "stop", json_object_new_string(c->failed));
					send_to(h, m);
				}
			}
		}
		for (i = 0; i < c->nr; i++) {
			struct chost *h = &c->h[i];
			struct msg_ctx x = { c, h };
			int ret;

			if (h->gone)
				continue;
			ret = coord_read(&h->conn, on_msg, &x);
			/*
			 * Not a host yet (no hello): a port scan, a health
			 * check, another program; dropped, its slot free.
			 */
			if (!h->hello && !h->error[0] &&
			    (ret || (h->heard_ms < now && now - h->heard_ms > c->silent_ms))) {
				close(h->conn.fd);
				h->conn.fd = -1;
				h->gone = true;
				continue;
			}
			if (ret) {
				close(h->conn.fd);
				h->conn.fd = -1;
				h->gone = true;
				if (!h->bye)
					host_failed(c, h, ret == -EPIPE ?
						    "closed its connection before its command ended" :
						    ret == -EPROTO ? "spoke no protocol of ours" :
						    "lost its connection before its command ended");
			} else if (h->hello && h->heard_ms < now && now - h->heard_ms > c->silent_ms &&
				   !h->bye) {
				snprintf(why, sizeof(why), "said nothing for %llu s",
					 (unsigned long long)c->silent_ms / 1000);
				host_failed(c, h, why);
				close(h->conn.fd);
				h->conn.fd = -1;
				h->gone = true;
			}
		}
		if (c->point < 0 && !c->stop_sent && now - began > wait_secs * 1000) {
			int ready = 0;

			for (i = 0; i < c->nr; i++)
				ready += c->h[i].hello && c->h[i].ready == 0;
			snprintf(why, sizeof(why), "%d of %d hosts connected and %d ready within %llu s (--wait-secs)",
				 c->hellos, c->want, ready, (unsigned long long)wait_secs);
			stop_all(c, why);
		}
		/* A run's last intervals printed before the next one starts. */
		print_live(c);
		maybe_agree(c);
		maybe_start(c);
		if (!c->stop_sent && c->hellos == c->want)
			deadlocked(c);
		print_live(c);
		if (now - last_ping >= COORD_PING_MS) {
			last_ping = now;
			for (i = 0; i < c->nr; i++) {
				struct json_object *m;

				if (!c->h[i].hello)
					continue;
				m = json_object_new_object();
				json_object_object_add(m, "ping", json_object_new_int(1));
				send_to(&c->h[i], m);
			}
		}
		if (c->stop_sent && c->hellos < c->want && all_said(c))
			break;	/* nobody else to wait for */
		if (all_done(c))
			break;
		/* Stopped: the hosts have 30 s to say bye (a stop, a report). */
		if (c->stop_sent && !done_at)
			done_at = now;
		if (done_at && now - done_at > 30000) {
			printf("coordinate: a host did not end within 30 s of the stop\n");
			break;
		}
	}
	print_live(c);
	drain(c);
	rc = c->failed[0] ? EXIT_FAIL : EXIT_OK;
	for (i = 0; i < c->nr; i++) {
		struct chost *h = &c->h[i];

		if (!h->hello && !h->error[0]) {
			free(h->iv);
			continue;	/* not a host */
		}
		printf("coordinate: %s: %s%s%s\n", h->name[0] ? h->name : "(no hello)",
		       h->bye && !h->rc ? "ended cleanly" :
		       h->bye ? "ended with an error" : "lost",
		       h->error[0] ? ": " : "", h->error);
		if (!h->bye || h->rc)
			rc = EXIT_FAIL;
		free(h->iv);
	}
	if (c->failed[0])
		printf("coordinate: stopped: %s\n", c->failed);
	else
		printf("coordinate: every host ended cleanly\n");
	close(lfd);
	free((char *)c->command);
	if (coord_sig)
		rc = 128 + coord_sig;
	free(c);
	return rc;
usage:
	fprintf(stderr, "%s\n", coord_usage);
	free(c);
	return EXIT_USAGE;
}
