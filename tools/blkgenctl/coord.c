// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl: the coordinator's wire (one JSON object a line over TCP) and
 * a host's side of it: hello, a start instant for each run, the run's
 * intervals as they finish, stop when told, end and bye.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "coord.h"
#include "run.h"

int coord_send(int fd, struct json_object *msg)
{
	const char *s = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(s), off = 0;
	char *line = malloc(len + 1);
	int ret = 0;

	if (!line) {
		json_object_put(msg);
		return -ENOMEM;
	}
	memcpy(line, s, len);
	line[len++] = '\n';
	while (off < len) {
		ssize_t n = send(fd, line + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			/* A peer that reads nothing for 5 s is gone. */
			if (poll(&p, 1, 5000) <= 0) {
				ret = -ETIMEDOUT;
				break;
			}
			continue;
		}
		if (n <= 0) {
			ret = n < 0 ? -errno : -EPIPE;
			break;
		}
		off += n;
	}
	free(line);
	json_object_put(msg);
	return ret;
}

int coord_read(struct coord_conn *c,
	       int (*fn)(void *arg, struct json_object *msg), void *arg)
{
	for (;;) {
		char *nl;
		ssize_t n;

		while ((nl = memchr(c->buf, '\n', c->len))) {
			struct json_object *o;
			size_t used = nl - c->buf + 1;
			int ret;

			*nl = 0;
			o = json_tokener_parse(c->buf);
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			if (!o || !json_object_is_type(o, json_type_object)) {
				json_object_put(o);
				return -EPROTO;
			}
			ret = fn(arg, o);
			json_object_put(o);
			if (ret)
				return ret;
		}
		if (c->len == sizeof(c->buf))
			return -EPROTO;	/* a line longer than any message */
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len,
			 MSG_DONTWAIT);
		if (n == 0)
			return -EPIPE;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 :
			       errno == EINTR ? 0 : -errno;
		c->len += n;
	}
}

/*
 * "HOST:PORT", "[V6]:PORT" or (@passive) "PORT" into getaddrinfo()'s
 * list (freeaddrinfo() it); 0, or -1 with a message in @why.
 */
static int resolve(const char *s, bool passive, struct addrinfo **res,
		   char *why, size_t wlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	char host[256] = "", *port;
	const char *colon = strrchr(s, ':');
	int ret;

	if (!colon) {
		if (!passive) {
			snprintf(why, wlen, "'%s': expected HOST:PORT", s);
			return -1;
		}
		port = (char *)s;
	} else {
		size_t hl = colon - s;

		if (hl >= sizeof(host)) {
			snprintf(why, wlen, "'%s': host name too long", s);
			return -1;
		}
		memcpy(host, s, hl);
		host[hl] = 0;
		port = (char *)colon + 1;
		/* [V6]:PORT */
		if (host[0] == '[' && hl > 1 && host[hl - 1] == ']') {
			memmove(host, host + 1, hl - 2);
			host[hl - 2] = 0;
		}
	}
	if (!*port || strspn(port, "0123456789") != strlen(port) ||
	    atoi(port) < 1 || atoi(port) > 65535) {
		snprintf(why, wlen, "'%s': expected a port from 1 to 65535", s);
		return -1;
	}
	if (passive) {
		hints.ai_flags = AI_PASSIVE;
		/* No address: [::], which takes IPv4 too (IPV6_V6ONLY off). */
		if (!host[0]) {
			hints.ai_family = AF_INET6;
			if (!getaddrinfo(NULL, port, &hints, res))
				return 0;
			hints.ai_family = AF_UNSPEC;
		}
	}
	ret = getaddrinfo(host[0] ? host : NULL, port, &hints, res);
	if (ret) {
		snprintf(why, wlen, "'%s': %s", s, gai_strerror(ret));
		return -1;
	}
	return 0;
}

int coord_resolve(const char *s, bool passive, struct sockaddr_storage *ss,
		  socklen_t *len, char *why, size_t wlen)
{
	struct addrinfo *ai;

	if (resolve(s, passive, &ai, why, wlen))
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int64_t coord_int(struct json_object *o, const char *key, int64_t def)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : def;
}

const char *coord_str(struct json_object *o, const char *key, const char *def)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : def;
}

struct coord {
	struct coord_conn conn;
	char addr[256];
	unsigned int silent_secs;
	uint64_t heard_ms;	/* when the coordinator last said anything */
	uint64_t said_ms;	/* when we last said anything */
	int point;		/* the run we wait for or run */
	uint64_t start_at;	/* its instant, once given */
	char stop[1100];	/* told to stop: why */
	bool welcomed;		/* the coordinator answered the hello */
	bool reviews;		/* ... and takes a review's steps and votes */
	size_t sent_iv;		/* intervals of @point sent */
	int vote;		/* coord_agree()'s calls made */
	bool agreed;		/* ... the last one's answer came */
	struct coord_agreed got;
	/*
	 * A thread pings while this one makes a job, reads results or
	 * prints a report: never silent for a second. @lock: the sends.
	 */
	pthread_mutex_t lock;
	pthread_t pinger;
	bool quit;		/* under @lock */
};

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int say(struct coord *c, struct json_object *msg)
{
	int ret;

	pthread_mutex_lock(&c->lock);
	c->said_ms = mono_ms();
	ret = coord_send(c->conn.fd, msg);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static void *pinger(void *arg)
{
	struct coord *c = arg;
	uint64_t due = COORD_PING_MS;
	sigset_t all;

	/* The command's signals are the main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		/*
		 * Awake only when a ping may be due (the host's CPU is its
		 * worker's at a start), then checked again.
		 */
		struct timespec ts = { due / 1000, (due % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&c->lock);
		if (c->quit) {
			pthread_mutex_unlock(&c->lock);
			return NULL;
		}
		if (mono_ms() - c->said_ms >= COORD_PING_MS - 50) {
			struct json_object *m = json_object_new_object();

			json_object_object_add(m, "ping", json_object_new_int(1));
			c->said_ms = mono_ms();
			coord_send(c->conn.fd, m);	/* a failure: the reader sees it */
		}
		due = c->said_ms + COORD_PING_MS - mono_ms();
		if ((int64_t)due < 50 || due > COORD_PING_MS)
			due = 50;
		pthread_mutex_unlock(&c->lock);
	}
}

static int host_msg(void *arg, struct json_object *msg)
{
	struct coord *c = arg;
	const char *stop = coord_str(msg, "stop", NULL);

	if (stop) {
		snprintf(c->stop, sizeof(c->stop), "the coordinator said stop: %s", stop);
		return 0;
	}
	if (coord_str(msg, "welcome", NULL)) {
		struct json_object *f = NULL;
		size_t i, n = 0, have = 0;

		if (json_object_object_get_ex(msg, "features", &f) &&
		    json_object_is_type(f, json_type_array))
			n = json_object_array_length(f);
		for (i = 0; i < n; i++) {
			const char *x = json_object_get_string(json_object_array_get_idx(f, i));

			have += x && (!strcmp(x, "steps") || !strcmp(x, "votes"));
		}
		c->reviews = have == 2;
		c->welcomed = true;
		return 0;
	}
	if (coord_int(msg, "start", -1) == c->point)
		c->start_at = coord_int(msg, "at_ns", 0);
	if (c->vote && coord_int(msg, "agreed", -1) == c->vote - 1) {
		c->got.sum = coord_int(msg, "sum", 0);
		c->got.min = coord_int(msg, "min", 0);
		c->got.max = coord_int(msg, "max", 0);
		c->got.hosts = coord_int(msg, "hosts", 0);
		c->agreed = true;
	}
	return 0;
}

/* After a read: told to stop, or silent too long? (The pinger speaks.) */
static bool hear(struct coord *c, char *why, size_t len)
{
	uint64_t now;

	if (c->stop[0]) {
		snprintf(why, len, "%s", c->stop);
		return true;
	}
	now = mono_ms();
	if (now - c->heard_ms >= c->silent_secs * 1000ULL) {
		snprintf(why, len, "the coordinator at %s said nothing for %u s: it is gone",
			 c->addr, c->silent_secs);
		return true;
	}
	return false;
}

/* Note when it last spoke: a read that got a whole line counts. */
static int heard(void *arg, struct json_object *msg)
{
	struct coord *c = arg;

	c->heard_ms = mono_ms();
	return host_msg(arg, msg);
}

static bool listen_once(struct coord *c, int ms, char *why, size_t len)
{
	struct pollfd p = { .fd = c->conn.fd, .events = POLLIN };
	int ret;

	if (poll(&p, 1, ms) < 0 && errno != EINTR) {
		snprintf(why, len, "poll: %s", strerror(errno));
		return true;
	}
	ret = coord_read(&c->conn, heard, c);
	/* Told to stop, then closed (or reset): the stop's reason is the one. */
	if (ret && c->stop[0])
		ret = 0;
	if (ret == -EPIPE) {
		snprintf(why, len, "the coordinator at %s closed the connection: it is gone", c->addr);
		return true;
	}
	if (ret) {
		snprintf(why, len, "the coordinator at %s: %s", c->addr,
			 ret == -EPROTO ? "not its protocol" : strerror(-ret));
		return true;
	}
	return hear(c, why, len);
}

/* A nonblocking connect to @ai within @ms: the socket, or -1 with @err. */
static int try_connect(const struct addrinfo *ai, uint64_t ms, int *err)
{
	struct pollfd p;
	socklen_t len = sizeof(*err);
	int fd;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		return fd;
	if (errno != EINPROGRESS) {
		*err = errno;
		close(fd);
		return -1;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	if (poll(&p, 1, ms) <= 0) {
		*err = ETIMEDOUT;
		close(fd);
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, err, &len) || *err) {
		if (!*err)
			*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

struct coord *coord_connect(const char *addr, const char *name,
			    const char *command, int points,
			    unsigned int silent_secs)
{
	struct addrinfo *res, *ai;
	struct json_object *m;
	struct coord *c;
	char why[512];
	int one = 1, err = ETIMEDOUT, said = 0;
	uint64_t start;

	if (resolve(addr, false, &res, why, sizeof(why))) {
		fprintf(stderr, "blkgenctl: --coordinator %s\n", why);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "blkgenctl: out of memory\n");
		freeaddrinfo(res);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	snprintf(c->addr, sizeof(c->addr), "%s", addr);
	c->silent_secs = silent_secs ? silent_secs : COORD_SILENT_SECS;
	c->conn.fd = -1;
	/*
	 * Each address in turn, each try bounded by the time left; refused
	 * (not listening yet: an orchestrator may start the hosts first),
	 * all tried again each 0.2 s for silent_secs.
	 */
	for (start = mono_ms(); c->conn.fd < 0; ) {
		uint64_t left;

		for (ai = res; ai && c->conn.fd < 0; ai = ai->ai_next) {
			left = start + c->silent_secs * 1000ULL - mono_ms();
			if ((int64_t)left <= 0)
				break;
			c->conn.fd = try_connect(ai, left > 5000 ? 5000 : left, &err);
		}
		if (c->conn.fd >= 0 || run_interrupted() ||
		    mono_ms() - start >= c->silent_secs * 1000ULL ||
		    (err != ECONNREFUSED && err != EHOSTUNREACH && err != ENETUNREACH &&
		     err != ETIMEDOUT))
			break;
		if (!said++)
			fprintf(stderr, "blkgenctl: --coordinator %s: %s: trying again for %u s\n",
				addr, strerror(err), c->silent_secs);
		poll(NULL, 0, 200);
	}
	freeaddrinfo(res);
	if (c->conn.fd < 0) {
		if (!run_interrupted())
			fprintf(stderr, "blkgenctl: --coordinator %s: %s (is blkgenctl coordinate listening there?)\n",
				addr, strerror(err));
		goto fail;
	}
	setsockopt(c->conn.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->heard_ms = mono_ms();
	m = json_object_new_object();
	json_object_object_add(m, "hello", json_object_new_string(name));
	json_object_object_add(m, "command", json_object_new_string(command));
	json_object_object_add(m, "points", json_object_new_int(points));
	json_object_object_add(m, "version", json_object_new_string(BLKGENCTL_VERSION));
	if (say(c, m)) {
		fprintf(stderr, "blkgenctl: --coordinator %s: cannot send to it\n", addr);
		goto fail;
	}
	if (pthread_create(&c->pinger, NULL, pinger, c)) {
		fprintf(stderr, "blkgenctl: --coordinator %s: cannot start its pinger thread\n", addr);
		goto fail;
	}
	return c;
fail:
	if (c->conn.fd >= 0)
		close(c->conn.fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return NULL;
}

/* Say @m; 0, or -1 with why: the coordinator gone. */
static int say_or_gone(struct coord *c, struct json_object *m, char *why,
		       size_t len)
{
	if (!say(c, m))
		return 0;
	snprintf(why, len, "the coordinator at %s: cannot send to it: it is gone", c->addr);
	return -1;
}

/*
 * Listen until @done says what was waited for (@what) came, or @ms have
 * passed (0: no limit; then 0 too, @done false). 0, or -1 with why: told
 * to stop, the coordinator gone, a signal.
 */
static int await(struct coord *c, bool (*done)(const struct coord *c),
		 uint64_t ms, const char *what, char *why, size_t len)
{
	uint64_t until = mono_ms() + ms;

	while (!done(c) && (!ms || mono_ms() < until)) {
		if (run_interrupted()) {
			snprintf(why, len, "interrupted while waiting for %s", what);
			return -1;
		}
		if (listen_once(c, 100, why, len))
			return -1;
	}
	return 0;
}

static bool started(const struct coord *c)
{
	return c->start_at;
}

static bool welcomed(const struct coord *c)
{
	return c->welcomed;
}

static bool agreed(const struct coord *c)
{
	return c->agreed;
}

int coord_wait_start(struct coord *c, int point, const char *step,
		     uint64_t *at, char *why, size_t len)
{
	struct json_object *m = json_object_new_object();

	c->point = point;
	c->start_at = 0;
	c->sent_iv = 0;
	json_object_object_add(m, "ready", json_object_new_int(point));
	if (step)
		json_object_object_add(m, "step", json_object_new_string(step));
	if (say_or_gone(c, m, why, len) ||
	    await(c, started, 0, "the coordinator's start", why, len))
		return -1;
	*at = c->start_at;
	return 0;
}

int coord_require_reviews(struct coord *c, char *why, size_t len)
{
	if (await(c, welcomed, c->silent_secs * 1000ULL, "the coordinator's answer",
		  why, len))
		return -1;
	if (c->welcomed && c->reviews)
		return 0;
	snprintf(why, len, "the coordinator at %s %s: a blkgenctl coordinate older than review --coordinator, update it",
		 c->addr, c->welcomed ? "takes no review's steps and figures" :
		 "did not answer this host's hello");
	return -1;
}

int coord_agree(struct coord *c, const char *about, int64_t value,
		struct coord_agreed *a, char *why, size_t len)
{
	struct json_object *m = json_object_new_object();

	c->agreed = false;
	json_object_object_add(m, "vote", json_object_new_int(c->vote++));
	json_object_object_add(m, "value", json_object_new_int64(value));
	json_object_object_add(m, "step", json_object_new_string(about));
	if (say_or_gone(c, m, why, len) ||
	    await(c, agreed, 0, "the other hosts' figures", why, len))
		return -1;
	*a = c->got;
	return 0;
}

void coord_wait(struct coord *c, int ms)
{
	struct pollfd p = { .fd = c->conn.fd, .events = POLLIN };

	poll(&p, 1, ms);
}

bool coord_check(struct coord *c, char *why, size_t len)
{
	return listen_once(c, 0, why, len);
}

/* Every workload's intervals, summed by index: a new array, its length in @n. */
static struct blkgen_interval *sum_series(const char *job,
					  const struct job_result *r, size_t *n)
{
	struct job_result cur = { 0 };
	struct blkgen_interval *s = NULL;
	size_t i, len = 0;
	int w, d;

	if (!r) {
		if (result_load_intervals(job, &cur))
			goto out;
		r = &cur;
	}
	/*
	 * At the end every interval. During the run those every workload
	 * has (each file is read at its own moment), but the newest: its
	 * end has passed, yet a worker closes it only at its first
	 * completion after that end, and until then the module counts the
	 * worker's open interval in it (job.c, blkgen_job_interval()); one
	 * interval later it is whole.
	 */
	for (w = 0; w < r->nr_wl; w++)
		if (w == 0 || (r == &cur ? r->wl[w].nr_iv < len : r->wl[w].nr_iv > len))
			len = r->wl[w].nr_iv;
	if (r == &cur && len)
		len--;
	s = calloc(len ? len : 1, sizeof(*s));
	if (!s)
		goto out;
	for (w = 0; w < r->nr_wl; w++) {
		for (i = 0; i < r->wl[w].nr_iv && i < len; i++) {
			const struct blkgen_interval *v = &r->wl[w].iv[i];

			s[i].start_ms = v->start_ms;
			if (v->length_ms > s[i].length_ms)
				s[i].length_ms = v->length_ms;
			for (d = 0; d < 2; d++) {
				s[i].ios[d] += v->ios[d];
				s[i].bytes[d] += v->bytes[d];
				s[i].lat_sum_ns[d] += v->lat_sum_ns[d];
				if (v->lat_max_ns[d] > s[i].lat_max_ns[d])
					s[i].lat_max_ns[d] = v->lat_max_ns[d];
			}
			s[i].errors += v->errors;
		}
	}
	*n = len;
out:
	result_free(&cur);
	return s;
}

void coord_intervals(struct coord *c, int point, const char *job,
		     const struct job_result *r)
{
	struct blkgen_interval *s;
	size_t n = 0, i;

	s = sum_series(job, r, &n);
	if (!s)
		return;
	/* During the run: the finished ones; at its end, every one. */
	for (i = c->sent_iv; i < n; i++) {
		struct json_object *m = json_object_new_object();

		json_object_object_add(m, "iv", json_object_new_int64(i));
		json_object_object_add(m, "point", json_object_new_int(point));
		json_object_object_add(m, "start_ms", json_object_new_int64(s[i].start_ms));
		json_object_object_add(m, "ms", json_object_new_int64(s[i].length_ms));
		json_object_object_add(m, "ios", json_object_new_int64(s[i].ios[0] + s[i].ios[1]));
		json_object_object_add(m, "bytes", json_object_new_int64(s[i].bytes[0] + s[i].bytes[1]));
		json_object_object_add(m, "lat_ns", json_object_new_int64(s[i].lat_sum_ns[0] + s[i].lat_sum_ns[1]));
		json_object_object_add(m, "errors", json_object_new_int64(s[i].errors));
		if (say(c, m))
			break;
		c->sent_iv = i + 1;
	}
	free(s);
}

void coord_end(struct coord *c, int point, int rc, const char *error)
{
	struct json_object *m = json_object_new_object();

	json_object_object_add(m, "end", json_object_new_int(point));
	json_object_object_add(m, "rc", json_object_new_int(rc));
	json_object_object_add(m, "error", json_object_new_string(error ? error : ""));
	say(c, m);
}

void coord_bye(struct coord *c, int rc)
{
	struct json_object *m;
	uint64_t until;
	char b[4096];

	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->quit = true;
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->pinger, NULL);
	m = json_object_new_object();
	json_object_object_add(m, "bye", json_object_new_int(rc));
	say(c, m);
	/*
	 * Shut for writing, then read to the coordinator's close (at most
	 * 2 s): closed with its pings unread, the bye could be overtaken
	 * by a reset.
	 */
	shutdown(c->conn.fd, SHUT_WR);
	for (until = mono_ms() + 2000; mono_ms() < until; ) {
		struct pollfd p = { .fd = c->conn.fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			break;
		n = recv(c->conn.fd, b, sizeof(b), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			break;
	}
	close(c->conn.fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
