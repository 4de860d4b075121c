// SPDX-License-Identifier: GPL-2.0
/*
 * The review's report, made from DIR's files alone (so it can be made
 * again, and a half-done review has a report of what is done):
 * review.json (the plan, the device, the preconditioning and every
 * workload's points and peak), summary.md (the reviews' table and one
 * sentence per workload) and index.html (self-contained: the table, and
 * per workload a chart of average latency against IOPS or MB/s, drawn
 * by gnuplot's SVG terminal, and the steady-state section). compare
 * makes the same three from several reviews, one line per drive.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include <json-c/json.h>

#include "blkgenctl.h"
#include "review.h"

#define MAX_DRIVES	16

static json_object *get(json_object *o, const char *k)
{
	return o ? json_object_object_get(o, k) : NULL;
}

static double num(json_object *o, const char *k)
{
	return json_object_get_double(get(o, k));
}

/* An array's length; 0 for anything that is not an array (a foreign file). */
static size_t alen(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static const char *str(json_object *o, const char *k)
{
	const char *s = json_object_get_string(get(o, k));

	return s ? s : "";
}

/* 748510 -> "748,510" */
static const char *thousands(double v, char *buf, size_t len)
{
	char tmp[64];
	int n, i, j = 0;

	snprintf(tmp, sizeof(tmp), "%.0f", v);
	n = (int)strlen(tmp);
	for (i = 0; i < n && j < (int)len - 2; i++) {
		if (i && (n - i) % 3 == 0 && tmp[i - 1] != '-')
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = 0;
	return buf;
}

/* nanoseconds as the reviews write them: "170 us", "1.23 ms" */
static const char *latency(double ns, char *buf, size_t len)
{
	if (ns < 1e6)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	return buf;
}

/*
 * A point's service time (clat_ns: from submission to completion); a
 * point saved before blkgen kept it has only lat_ns, the response time,
 * which is the same in closed loop (the maximum run).
 */
static json_object *svc_of(json_object *p)
{
	json_object *c = get(p, "clat_ns");

	return c ? c : get(p, "lat_ns");
}

/*
 * The peak as the reviews report it: the maximum run, closed loop at the
 * workload's outstanding I/Os (its "threads"), if it finished. The curve's
 * points are open loop: at 100% and past it they lag their arrivals, and
 * their response time grows with the backlog (review.rst).
 */
static json_object *peak_of(json_object *max)
{
	if (max && !strcmp(str(max, "state"), "done"))
		return max;
	return NULL;
}

/*
 * lat_mean_ns and lat_p99_ns: the service time, the reviews' latency;
 * resp_mean_ns and resp_p99_ns: the response time of the same run.
 */
static json_object *peak_json(json_object *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "target_pct", json_object_new_double(num(p, "target_pct")));
	json_object_object_add(o, "iops", json_object_new_double(num(p, "iops")));
	json_object_object_add(o, "bw_bytes", json_object_new_double(num(p, "bw_bytes")));
	json_object_object_add(o, "latency", json_object_new_string("service"));
	json_object_object_add(o, "lat_mean_ns", json_object_new_double(num(svc_of(p), "mean")));
	json_object_object_add(o, "lat_p99_ns", json_object_new_double(num(svc_of(p), "p99")));
	json_object_object_add(o, "resp_mean_ns", json_object_new_double(num(get(p, "lat_ns"), "mean")));
	json_object_object_add(o, "resp_p99_ns", json_object_new_double(num(get(p, "lat_ns"), "p99")));
	if (get(p, "depth"))
		json_object_object_add(o, "depth", json_object_new_double(num(p, "depth")));
	return o;
}

/* A point kept up with its target: achieved at least this share of it. */
#define KEPT_UP		0.97
/*
 * Its response time grew: the last half's mean above the first half's by
 * half and by 2 ms (a stall of the host or an emulator raises one half by
 * a ms or two; a lasting backlog adds far more: 1% short at 100,000 IOPS
 * is 10 ms more waiting each second).
 */
#define GREW		1.5
#define GREW_NS		2e6

/*
 * Mark each finished point "kept_up" (its achieved rate at least 97% of
 * its target and its response time not grown by half and 2 ms from the
 * first half of its intervals to the last) or not (a backlog: it fell behind its
 * arrivals); the highest one that kept up is the knee, also marked. The
 * knee's figures, or NULL if no point kept up.
 */
static json_object *knee_of(json_object *points)
{
	json_object *knee = NULL, *o;
	size_t i;

	for (i = 0; i < alen(points); i++) {
		json_object *p = json_object_array_get_idx(points, i);
		json_object *h = get(p, "lat_halves_ns");
		bool halves = alen(h) == 2, ok;
		double first = halves ? json_object_get_double(json_object_array_get_idx(h, 0)) : 0;
		double last = halves ? json_object_get_double(json_object_array_get_idx(h, 1)) : 0;

		if (strcmp(str(p, "state"), "done"))
			continue;
		ok = num(p, "target_iops") > 0 &&
		     num(p, "iops") >= KEPT_UP * num(p, "target_iops") &&
		     (!halves || last <= GREW * first || last - first <= GREW_NS);
		json_object_object_add(p, "kept_up", json_object_new_boolean(ok));
		json_object_object_add(p, "knee", json_object_new_boolean(false));
		if (ok && (!knee || num(p, "target_pct") > num(knee, "target_pct")))
			knee = p;
	}
	if (!knee)
		return NULL;
	json_object_object_add(knee, "knee", json_object_new_boolean(true));
	o = json_object_new_object();
	json_object_object_add(o, "target_pct", json_object_new_double(num(knee, "target_pct")));
	json_object_object_add(o, "iops", json_object_new_double(num(knee, "iops")));
	json_object_object_add(o, "bw_bytes", json_object_new_double(num(knee, "bw_bytes")));
	json_object_object_add(o, "lat_mean_ns", json_object_new_double(num(svc_of(knee), "mean")));
	json_object_object_add(o, "resp_mean_ns", json_object_new_double(num(get(knee, "lat_ns"), "mean")));
	return o;
}

static int cmp_pct(const void *a, const void *b)
{
	double x = num(*(json_object *const *)a, "target_pct");
	double y = num(*(json_object *const *)b, "target_pct");

	return (x > y) - (x < y);
}

/*
 * Each workload's peak (from its maximum) and knee (from its points), by
 * this blkgenctl's rules, also for a review.json written by another.
 */
static void judge(json_object *wls)
{
	json_object *pk;
	size_t i;

	for (i = 0; i < alen(wls); i++) {
		json_object *w = json_object_array_get_idx(wls, i);

		pk = peak_of(get(w, "max"));
		if (pk)
			json_object_object_add(w, "peak", peak_json(pk));
		json_object_object_del(w, "knee");
		pk = knee_of(get(w, "points"));
		if (pk)
			json_object_object_add(w, "knee", pk);
	}
}

/*
 * A point's (or the preconditioning's) file; NULL, with why added to
 * @missing, if it is absent, unreadable or corrupt (a torn file is not a
 * point that never ran), and a point that did not end done is named too.
 */
static json_object *load_part(const char *file, const char *what,
			      json_object *missing)
{
	json_object *o;
	char line[600];

	if (access(file, F_OK)) {
		snprintf(line, sizeof(line), "%s (missing)", what);
		json_object_array_add(missing, json_object_new_string(line));
		return NULL;
	}
	o = json_object_from_file(file);
	if (!o || !json_object_is_type(o, json_type_object)) {
		snprintf(line, sizeof(line), "%s (unreadable: %s)", what,
			 o ? "not an object" : json_util_get_last_err());
		line[strcspn(line, "\n")] = 0;
		if (line[strlen(line) - 1] != ')' && strlen(line) + 1 < sizeof(line))
			strcat(line, ")");
		json_object_put(o);
		json_object_array_add(missing, json_object_new_string(line));
		fprintf(stderr, "blkgenctl: review: %s: %s\n", file, line);
		return NULL;
	}
	if (get(o, "state") && strcmp(str(o, "state"), "done")) {
		snprintf(line, sizeof(line), "%s (%s)", what, str(o, "state"));
		json_object_array_add(missing, json_object_new_string(line));
	}
	return o;
}

/* review.json from DIR's plan, precondition and points. */
static json_object *collect(const char *dir, char *err, size_t len)
{
	char file[4200], e[4096], src[600];
	json_object *root, *wls, *pc, *missing;
	char what[300];
	struct suite s;
	bool complete = true;
	int i;
	size_t k;

	snprintf(file, sizeof(file), "%s/plan.json", dir);
	root = json_object_from_file(file);
	if (!root) {
		snprintf(err, len, "%s: no review here (%s)", dir, json_util_get_last_err());
		return NULL;
	}
	/* The suite as it was when the review began (a copy in DIR). */
	snprintf(file, sizeof(file), "%s/suite.suite", dir);
	if (suite_load(access(file, F_OK) ? str(root, "suite") : file, &s, e, sizeof(e))) {
		snprintf(err, len, "%s", e);
		json_object_put(root);
		return NULL;
	}
	json_object_object_add(root, "suite_title", json_object_new_string(s.title));
	json_object_object_add(root, "suite_file", json_object_new_string(s.file));
	missing = json_object_new_array();
	snprintf(file, sizeof(file), "%s/precondition.json", dir);
	pc = load_part(file, "the preconditioning", missing);
	if (!pc)
		complete = false;
	json_object_object_add(root, "preconditioning", pc);
	wls = json_object_new_array();
	for (i = 0; i < s.n; i++) {
		const struct suite_entry *en = &s.e[i];
		json_object *w = json_object_new_object(), *pts = json_object_new_array();
		json_object *want = get(root, "points"), *max;
		json_object *got[64];
		size_t n = 0;

		json_object_object_add(w, "name", json_object_new_string(en->name));
		json_object_object_add(w, "title", json_object_new_string(en->title));
		json_object_object_add(w, "unit", json_object_new_string(en->mbps ? "mbps" : "iops"));
		snprintf(file, sizeof(file), "%s/points/%s/max.json", dir, en->name);
		snprintf(what, sizeof(what), "%s maximum", en->name);
		max = load_part(file, what, missing);
		if (en->note[0]) {
			snprintf(src, sizeof(src), "%s", en->note);
		} else if (en->vdi_clone[0]) {
			/* its desktops: the suite's, scaled to the drive */
			snprintf(what, sizeof(what), " of %llu desktops",
				 (unsigned long long)json_object_get_uint64(get(max, "desktops")));
			snprintf(src, sizeof(src), "a StorageReview-style VDI trace%s (blkgenctl vdi, Documentation/vdi.rst), not StorageReview's own",
				 get(max, "desktops") ? what : "");
		} else {
			src[0] = 0;
		}
		json_object_object_add(w, "source", json_object_new_string(src));
		json_object_object_add(w, "max", max);
		for (k = 0; k < alen(want) && n < 64; k++) {
			double pct = json_object_get_double(json_object_array_get_idx(want, k));

			snprintf(file, sizeof(file), "%s/points/%s/%g.json", dir, en->name, pct);
			snprintf(what, sizeof(what), "%s %g%%", en->name, pct);
			got[n] = load_part(file, what, missing);
			if (got[n])
				n++;
		}
		if (!max || n != alen(want) || strcmp(str(max, "state"), "done"))
			complete = false;
		qsort(got, n, sizeof(got[0]), cmp_pct);
		for (k = 0; k < n; k++)
			json_object_array_add(pts, got[k]);
		json_object_object_add(w, "points", pts);
		json_object_array_add(wls, w);
	}
	judge(wls);
	json_object_object_add(root, "workloads", wls);
	json_object_object_add(root, "complete", json_object_new_boolean(complete));
	json_object_object_add(root, "incomplete", missing);
	suite_free(&s);
	return root;
}

/* ---- charts ------------------------------------------------------------- */

static bool have_gnuplot(void)
{
	return in_path("gnuplot");
}

/*
 * gnuplot SCRIPT, its output to /dev/null; 0 if it succeeded. Spawned,
 * not system(): system() ignores SIGINT while it waits, and the review's
 * Ctrl-C must not be lost.
 */
static int gnuplot(const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	posix_spawn_file_actions_t fa;
	int st, ret;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		/* a newline would end the string and start a command */
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* A gnuplot script being written, and the SVG it draws. */
struct plot {
	char gp[32];
	char svg[40];
	FILE *f;
};

static FILE *plot_open(struct plot *pl, int width, int height)
{
	int fd;

	snprintf(pl->gp, sizeof(pl->gp), "/tmp/blkgen-plot-XXXXXX");
	fd = mkstemp(pl->gp);
	if (fd < 0)
		return NULL;
	pl->f = fdopen(fd, "w");
	if (!pl->f) {
		close(fd);
		unlink(pl->gp);
		return NULL;
	}
	snprintf(pl->svg, sizeof(pl->svg), "%s.svg", pl->gp);
	fprintf(pl->f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background '#ffffff'\nset output '%s'\n",
		width, height, pl->svg);
	return pl->f;
}

/* Run the script: its SVG from "<svg" on (it goes inside HTML), or NULL. */
static char *plot_svg(struct plot *pl)
{
	char *buf = NULL, *start, *nb;
	size_t len;

	if (!fclose(pl->f) && !gnuplot(pl->gp))
		buf = cfs_read_file(pl->svg, &len);
	if (buf) {
		nb = realloc(buf, len + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
			buf[len] = 0;
			start = strstr(buf, "<svg");
			if (start && start != buf)
				memmove(buf, start, strlen(start) + 1);
		}
	}
	unlink(pl->gp);
	unlink(pl->svg);
	return buf;
}

static double chart_x(json_object *p, bool mbps)
{
	return mbps ? num(p, "bw_bytes") / 1e6 : num(p, "iops");
}

/*
 * Write data block $NAME<i>: x, service and response mean (us, as the
 * tables), label. Points whose x lies within 3% of the axis of the last
 * labelled one share its label ("100-120%": the saturated points of a
 * curve sit together and their labels overprinted each other).
 */
static int chart_block(FILE *f, const char *name, int i, json_object *points,
		       bool mbps, const char *flag, bool want)
{
	double xmax = 0, xl = 0;
	size_t k, last;
	int n = 0;

	for (k = 0; k < alen(points); k++)
		xmax = fmax(xmax, chart_x(json_object_array_get_idx(points, k), mbps));
	fprintf(f, "$%s%d << EOD\n", name, i);
	for (k = 0; k < alen(points); k++) {
		json_object *p = json_object_array_get_idx(points, k);
		double x = chart_x(p, mbps);

		if (flag && (!get(p, flag) ||
			     json_object_get_boolean(get(p, flag)) != want))
			continue;
		fprintf(f, "%.3f %.6f %.6f \"", x, num(svc_of(p), "mean") / 1e3,
			num(get(p, "lat_ns"), "mean") / 1e3);
		if (n && fabs(x - xl) < 0.03 * xmax) {
			fprintf(f, "\"\n");	/* within the group labelled before */
			continue;
		}
		/* The group's label: this point's percent to its last one's. */
		for (last = k; last + 1 < alen(points); last++) {
			json_object *q = json_object_array_get_idx(points, last + 1);

			if (fabs(chart_x(q, mbps) - x) >= 0.03 * xmax)
				break;
		}
		fprintf(f, "%g%%", num(p, "target_pct"));
		if (last != k)
			fprintf(f, "-%g%%", num(json_object_array_get_idx(points, last),
					       "target_pct"));
		fprintf(f, "\"\n");
		xl = x;
		n++;
	}
	fprintf(f, "EOD\n");
	return n;
}

/*
 * Average latency against IOPS (or MB/s) for one or more drives' points,
 * each labelled with its percent: the service time (from submission, the
 * reviews' curve) and the response time (from the intended arrival)
 * beside it, on a log scale; for one drive the knee and the points that
 * fell behind (review.rst) marked. The SVG gnuplot drew, without its XML
 * prolog (it goes inside the HTML), or NULL.
 */
static char *chart(const char *title, bool mbps, const char *const *labels,
		   json_object *const *points, int n)
{
	struct plot pl;
	FILE *f = plot_open(&pl, 720, 420);
	int i, knee = 0, backlog = 0;

	if (!f)
		return NULL;
	for (i = 0; i < n; i++)
		chart_block(f, "d", i, points[i], mbps, NULL, false);
	if (n == 1) {
		knee = chart_block(f, "k", 0, points[0], mbps, "knee", true);
		backlog = chart_block(f, "b", 0, points[0], mbps, "kept_up", false);
	}
	fprintf(f, "set title ");
	put_quoted(f, title);
	fprintf(f, "\nset xlabel '%s'\nset ylabel 'average latency (us)'\n",
		mbps ? "MB/s" : "IOPS");
	/*
	 * Ticks as 1.6M, not 1600000; room right and on top for the last
	 * point's label (the 120% label ran out of the frame).
	 */
	fprintf(f, "set grid\nset key top left\nset logscale y\nset xrange [0:*]\n"
		   "set format x '%%.1s%%c'\nset format y '%%.0f'\n"
		   "set offsets 0, graph 0.08, graph 0.15, 0\n");
	fprintf(f, "plot ");
	for (i = 0; i < n; i++) {
		fprintf(f, "%s$d%d using 1:2 with linespoints lc %d pt 7 title ", i ? ", " : "", i, i + 1);
		if (n == 1)
			fprintf(f, "'service time (submission to completion)'");
		else
			put_quoted(f, labels[i]);
		fprintf(f, ", $d%d using 1:3 with linespoints lc %d dt 2 pt 6 title ", i, i + 1);
		if (n == 1) {
			fprintf(f, "'response time (from intended arrival)'");
			fprintf(f, ", $d%d using 1:2:4 with labels offset 0,1 notitle", i);
		} else {
			char lab[300];

			snprintf(lab, sizeof(lab), "%s response time", labels[i]);
			put_quoted(f, lab);
		}
	}
	if (knee)
		fprintf(f, ", $k0 using 1:2 with points pt 3 ps 2.5 lc rgb '#008000' title 'knee (highest point that kept up)'");
	if (backlog)
		fprintf(f, ", $b0 using 1:3 with points pt 4 ps 1.8 lc rgb '#c00000' title 'fell behind its arrivals (backlog)'");
	fprintf(f, "\n");
	return plot_svg(&pl);
}

/* ---- text ----------------------------------------------------------------- */

void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* "4K random read peaked at 748,510 IOPS at an average latency of 170 us." */
static void sentence(char *buf, size_t len, json_object *w)
{
	json_object *pk = get(w, "peak");
	char a[64], b[64], c[64];

	if (!pk) {
		snprintf(buf, len, "%s has no finished run yet.", str(w, "title"));
		return;
	}
	if (!strcmp(str(w, "unit"), "mbps"))
		snprintf(buf, len, "%s peaked at %s MB/s (%s IOPS) at an average latency of %s.",
			 str(w, "title"), thousands(num(pk, "bw_bytes") / 1e6, a, sizeof(a)),
			 thousands(num(pk, "iops"), b, sizeof(b)),
			 latency(num(pk, "lat_mean_ns"), c, sizeof(c)));
	else
		snprintf(buf, len, "%s peaked at %s IOPS at an average latency of %s.",
			 str(w, "title"), thousands(num(pk, "iops"), a, sizeof(a)),
			 latency(num(pk, "lat_mean_ns"), b, sizeof(b)));
}

/* The knee's rate in its workload's unit: "40,000 IOPS", "6,620 MB/s". */
static void knee_rate(json_object *w, json_object *k, char *buf, size_t len)
{
	char c[64];

	if (!strcmp(str(w, "unit"), "mbps"))
		snprintf(buf, len, "%s MB/s", thousands(num(k, "bw_bytes") / 1e6, c, sizeof(c)));
	else
		snprintf(buf, len, "%s IOPS", thousands(num(k, "iops"), c, sizeof(c)));
}

/*
 * "The reviews' reading, the curve's highest point that kept up (knee):
 * 90% of the maximum, 40,000 IOPS at 2.10 ms (service) and 2.31 ms
 * (response); 2 points fell behind their arrivals (backlog)."
 */
static void knee_sentence(char *buf, size_t len, json_object *w)
{
	json_object *k = get(w, "knee"), *pts = get(w, "points");
	char a[64], b[64], c[64];
	int behind = 0;
	size_t i;

	for (i = 0; i < alen(pts); i++) {
		json_object *kept = get(json_object_array_get_idx(pts, i), "kept_up");

		if (kept && !json_object_get_boolean(kept))
			behind++;
	}
	if (!k) {
		snprintf(buf, len, "%s", alen(pts) ?
			 "No point of its curve kept up with its target." : "");
		return;
	}
	knee_rate(w, k, a, sizeof(a));
	snprintf(buf, len, "The reviews' reading, the curve's highest point that kept up (knee): %g%% of the maximum, %s at %s (service) and %s (response); %d point%s fell behind %s arrivals (backlog).",
		 num(k, "target_pct"), a, latency(num(k, "lat_mean_ns"), b, sizeof(b)),
		 latency(num(k, "resp_mean_ns"), c, sizeof(c)), behind,
		 behind == 1 ? "" : "s", behind == 1 ? "its" : "their");
}

/* The sentence saying which latency the figures are. */
static const char *latency_note =
	"Peak is each workload's maximum run, closed loop at its outstanding I/Os (the number in its title), "
	"and its latencies are service times, from each I/O's submission to its completion, as the reviews report them; "
	"the charts draw them beside the response time, counted from each I/O's intended arrival, "
	"which adds any wait for a free slot (review.json keeps both). "
	"Beside it, the reviews' reading: they read their peak off the 0-120% curve, so the table gives the curve's "
	"highest point that kept up with its arrivals (the knee) and its average service latency too; "
	"compare ranks by the peak, the maximum run, as blkgen reads the published figures "
	"(their IOPS x latency is mostly their thread count, a closed loop at it; where not, compare says so).";

static const char *drive_name(json_object *root, char *buf, size_t len)
{
	json_object *d = get(root, "device");
	const char *m = str(d, "model");

	snprintf(buf, len, "%s (%s, %.1f GB)", m[0] ? m : str(d, "path"),
		 str(d, "path"), num(d, "capacity_bytes") / 1e9);
	return buf;
}

static void method_line(FILE *f, json_object *root)
{
	json_object *pc = get(root, "preconditioning");

	fprintf(f, "Suite %s (%s); preconditioning: %s", str(root, "suite"),
		str(root, "suite_title"), str(root, "precondition"));
	if (get(pc, "purge"))
		fprintf(f, " (purge: %s)", str(pc, "purge"));
	fprintf(f, "; test region: the first %s of the drive; each point %g s after a %.3g s warmup; kernel %s; blkgenctl %s; %s.%s",
		str(root, "region"), num(root, "point_secs"),
		num(root, "point_secs") / 6, str(root, "kernel"),
		str(root, "blkgenctl_version"), str(root, "date"),
		json_object_get_boolean(get(root, "complete")) ? "" :
		" Not complete (--resume runs what is missing or failed):");
	if (!json_object_get_boolean(get(root, "complete"))) {
		json_object *m = get(root, "incomplete");
		size_t i;

		for (i = 0; i < alen(m); i++)
			fprintf(f, "%s %s", i ? "," : "",
				json_object_get_string(json_object_array_get_idx(m, i)));
		fprintf(f, ".");
	}
}

/* The reviews' reading in the table: the knee's rate (and percent) and latency. */
static const char *const knee_head[2] = {
	"Reviews' reading: highest point that kept up", "its average latency"
};

static void knee_cells(json_object *w, char *rate, size_t rlen, char *lat, size_t llen)
{
	json_object *k = get(w, "knee");
	char a[64];

	if (!k) {
		snprintf(rate, rlen, "%s", alen(get(w, "points")) ? "none" : "-");
		snprintf(lat, llen, "-");
		return;
	}
	knee_rate(w, k, a, sizeof(a));
	snprintf(rate, rlen, "%s (%g%%)", a, num(k, "target_pct"));
	latency(num(k, "lat_mean_ns"), lat, llen);
}

static void md_table(FILE *f, json_object *wls)
{
	char a[64], b[64], c[64], d[64], e[96], g[64];
	size_t i;

	fprintf(f, "| Workload | Peak IOPS | MB/s | Average latency at peak | p99 at peak | %s | %s |\n",
		knee_head[0], knee_head[1]);
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < alen(wls); i++) {
		json_object *w = json_object_array_get_idx(wls, i), *pk = get(w, "peak");

		knee_cells(w, e, sizeof(e), g, sizeof(g));
		if (!pk) {
			fprintf(f, "| %s | - | - | - | - | %s | %s |\n", str(w, "title"), e, g);
			continue;
		}
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", str(w, "title"),
			thousands(num(pk, "iops"), a, sizeof(a)),
			thousands(num(pk, "bw_bytes") / 1e6, b, sizeof(b)),
			latency(num(pk, "lat_mean_ns"), c, sizeof(c)),
			latency(num(pk, "lat_p99_ns"), d, sizeof(d)), e, g);
	}
}

static void html_table(FILE *f, json_object *wls)
{
	char a[64], b[64], c[64], d[64], e[96], g[64];
	size_t i;

	fprintf(f, "<table>\n<tr><th>Workload</th><th>Peak IOPS</th><th>MB/s</th><th>Average latency at peak</th><th>p99 at peak</th><th>");
	html_text(f, knee_head[0]);
	fprintf(f, "</th><th>%s</th></tr>\n", knee_head[1]);
	for (i = 0; i < alen(wls); i++) {
		json_object *w = json_object_array_get_idx(wls, i), *pk = get(w, "peak");

		knee_cells(w, e, sizeof(e), g, sizeof(g));
		fprintf(f, "<tr><td>");
		html_text(f, str(w, "title"));
		if (!pk) {
			fprintf(f, "</td><td>-</td><td>-</td><td>-</td><td>-</td><td>%s</td><td>%s</td></tr>\n", e, g);
			continue;
		}
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			thousands(num(pk, "iops"), a, sizeof(a)),
			thousands(num(pk, "bw_bytes") / 1e6, b, sizeof(b)),
			latency(num(pk, "lat_mean_ns"), c, sizeof(c)),
			latency(num(pk, "lat_p99_ns"), d, sizeof(d)), e, g);
	}
	fprintf(f, "</table>\n");
}

static const char *html_head =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<title>%s</title>\n<style>\n"
	"body { font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }\n"
	"table { border-collapse: collapse; margin: 1em 0; }\n"
	"td, th { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }\n"
	"td:first-child, th:first-child { text-align: left; }\n"
	"figure { margin: 1em 0; } .note { color: #666; font-size: 90%%; }\n"
	"</style>\n</head>\n<body>\n";

static void steady_md(FILE *f, json_object *pc)
{
	json_object *r = get(pc, "rounds");
	size_t i;

	if (!r)
		return;
	fprintf(f, "\n## Steady state (SNIA PTS)\n\n");
	fprintf(f, "4 KiB random writes, rounds of the point length; window of %d rounds: excursion %.0f IOPS (limit 20%% of the average %.0f), slope excursion %.0f IOPS (limit 10%%): steady state **%s** after %zu rounds (at most %d).\n\n",
		(int)num(pc, "window"), num(pc, "excursion"), num(pc, "window_avg"),
		num(pc, "slope_excursion"),
		json_object_get_boolean(get(pc, "steady_state")) ? "attained" : "not attained",
		alen(r), (int)num(pc, "max_rounds"));
	fprintf(f, "| Round | IOPS |\n|---:|---:|\n");
	for (i = 0; i < alen(r); i++)
		fprintf(f, "| %zu | %.0f |\n", i + 1,
			json_object_get_double(json_object_array_get_idx(r, i)));
}

static void steady_html(FILE *f, json_object *pc)
{
	json_object *r = get(pc, "rounds");
	struct plot pl;
	char *svg;
	FILE *g;
	size_t i;

	if (!r)
		return;
	fprintf(f, "<h2 id=\"steady-state\">Steady state (SNIA PTS)</h2>\n<p>");
	fprintf(f, "4 KiB random writes in rounds; the last %d rounds' excursion is %.0f IOPS (limit: 20%% of their average, %.0f) and their slope excursion %.0f IOPS (limit: 10%%). Steady state <b>%s</b> after %zu rounds (at most %d).</p>\n",
		(int)num(pc, "window"), num(pc, "excursion"), num(pc, "window_avg"),
		num(pc, "slope_excursion"),
		json_object_get_boolean(get(pc, "steady_state")) ? "attained" : "not attained",
		alen(r), (int)num(pc, "max_rounds"));
	fprintf(f, "<table class=\"steady\">\n<tr><th>Round</th><th>IOPS</th></tr>\n");
	for (i = 0; i < alen(r); i++)
		fprintf(f, "<tr><td>%zu</td><td>%.0f</td></tr>\n", i + 1,
			json_object_get_double(json_object_array_get_idx(r, i)));
	fprintf(f, "</table>\n");
	g = plot_open(&pl, 720, 360);
	if (!g)
		return;
	fprintf(g, "$r << EOD\n");
	for (i = 0; i < alen(r); i++)
		fprintf(g, "%zu %.1f\n", i + 1, json_object_get_double(json_object_array_get_idx(r, i)));
	fprintf(g, "EOD\n");
	{
		/*
		 * The window's criteria drawn (SNIA PTS): its average with the
		 * band of +-10% (excursion within 20% of it) and its
		 * least-squares line, over the window's rounds.
		 */
		size_t win = (size_t)num(pc, "window"), from;
		double avg = num(pc, "window_avg"), sx = 0, sy = 0, sxx = 0, sxy = 0;
		double a = 0, b = 0, m;

		if (!win || win > alen(r))
			win = alen(r);
		from = alen(r) - win;
		for (i = from; i < alen(r); i++) {
			double x = i + 1, y = json_object_get_double(json_object_array_get_idx(r, i));

			sx += x;
			sy += y;
			sxx += x * x;
			sxy += x * y;
		}
		m = win * sxx - sx * sx;
		if (win > 1 && m) {
			b = (win * sxy - sx * sy) / m;
			a = (sy - b * sx) / win;
		}
		fprintf(g, "$w << EOD\n%zu %.1f %.1f %.1f %.1f\n%zu %.1f %.1f %.1f %.1f\nEOD\n",
			from + 1, avg, avg * 0.9, avg * 1.1, a + b * (from + 1),
			alen(r), avg, avg * 0.9, avg * 1.1, a + b * alen(r));
	}
	fprintf(g, "set title 'Steady-state rounds'\nset xlabel 'round'\n"
		"set ylabel 'IOPS'\nset grid\nset yrange [0:*]\nset format y '%%.1s%%c'\n"
		"set style fill transparent solid 0.15 noborder\n"
		"plot $w using 1:3:4 with filledcurves lc rgb '#4080c0' title 'window average +-10%% (excursion limit)', "
		"$r using 1:2 with linespoints pt 7 title '4 KiB random write', "
		"$w using 1:2 with lines dt 2 lc rgb '#4080c0' title 'window average', "
		"$w using 1:5 with lines lw 2 lc rgb '#c06000' title 'window slope (least squares)'\n");
	svg = plot_svg(&pl);
	if (svg)
		fprintf(f, "<figure class=\"chart\">\n%s</figure>\n", svg);
	free(svg);
}

static int write_file_check(FILE *f, const char *file)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "blkgenctl: cannot write %s: %s\n", file, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- review ------------------------------------------------------------------- */

int review_report(const char *dir, bool quiet)
{
	char file[4200], err[8192], name[512], s[512];
	json_object *root, *wls;
	bool gp = have_gnuplot();
	size_t i;
	FILE *f;
	int ret = EXIT_OK;

	/* A review.json alone (copied from where the review ran) draws too. */
	snprintf(file, sizeof(file), "%s/plan.json", dir);
	if (access(file, F_OK)) {
		snprintf(file, sizeof(file), "%s/review.json", dir);
		root = json_object_from_file(file);
		if (!root || !json_object_is_type(get(root, "workloads"), json_type_array)) {
			fprintf(stderr, "blkgenctl: review: %s: no review here (no plan.json, and no review.json with workloads)\n",
				dir);
			json_object_put(root);
			return EXIT_FAIL;
		}
		judge(get(root, "workloads"));
	} else {
		root = collect(dir, err, sizeof(err));
		if (!root) {
			fprintf(stderr, "blkgenctl: review: %s\n", err);
			return EXIT_FAIL;
		}
	}
	wls = get(root, "workloads");
	snprintf(file, sizeof(file), "%s/review.json", dir);
	if (review_save_json(file, root)) {
		fprintf(stderr, "blkgenctl: cannot write %s: %s\n", file, strerror(errno));
		json_object_put(root);
		return EXIT_FAIL;
	}
	drive_name(root, name, sizeof(name));

	snprintf(file, sizeof(file), "%s/summary.md", dir);
	f = fopen(file, "w");
	if (!f)
		goto fail;
	fprintf(f, "# blkgen review: %s\n\n", name);
	method_line(f, root);
	fprintf(f, "\n\n");
	md_table(f, wls);
	fprintf(f, "\n%s\n\n", latency_note);
	for (i = 0; i < alen(wls); i++) {
		json_object *w = json_object_array_get_idx(wls, i);
		char ks[512];

		sentence(s, sizeof(s), w);
		knee_sentence(ks, sizeof(ks), w);
		fprintf(f, "- %s%s%s%s%s%s\n", s, str(w, "source")[0] ? " (" : "",
			str(w, "source"), str(w, "source")[0] ? ")" : "",
			ks[0] ? " " : "", ks);
	}
	steady_md(f, get(root, "preconditioning"));
	if (write_file_check(f, file))
		goto fail_quiet;

	snprintf(file, sizeof(file), "%s/index.html", dir);
	f = fopen(file, "w");
	if (!f)
		goto fail;
	fprintf(f, html_head, "blkgen review");
	fprintf(f, "<h1>blkgen review: ");
	html_text(f, name);
	fprintf(f, "</h1>\n<p class=\"method\">");
	{
		char *m = NULL;
		size_t mlen = 0;
		FILE *mf = open_memstream(&m, &mlen);

		if (mf) {
			method_line(mf, root);
			fclose(mf);
			html_text(f, m ? m : "");
			free(m);
		}
	}
	fprintf(f, "</p>\n");
	html_table(f, wls);
	fprintf(f, "<p class=\"latency\">%s</p>\n", latency_note);
	for (i = 0; i < alen(wls); i++) {
		json_object *w = json_object_array_get_idx(wls, i), *pts = get(w, "points");
		const char *label = name;
		char *svg;

		fprintf(f, "<section class=\"workload\" id=\"");
		html_text(f, str(w, "name"));
		fprintf(f, "\">\n<h2>");
		html_text(f, str(w, "title"));
		sentence(s, sizeof(s), w);
		fprintf(f, "</h2>\n<p class=\"sentence\">");
		html_text(f, s);
		knee_sentence(s, sizeof(s), w);
		if (s[0]) {
			fputc(' ', f);
			html_text(f, s);
		}
		fprintf(f, "</p>\n");
		if (str(w, "source")[0]) {
			fprintf(f, "<p class=\"note\">");
			html_text(f, str(w, "source"));
			fprintf(f, "</p>\n");
		}
		svg = gp ? chart(str(w, "title"), !strcmp(str(w, "unit"), "mbps"),
				 &label, &pts, 1) : NULL;
		if (svg)
			fprintf(f, "<figure class=\"chart\">\n%s</figure>\n", svg);
		else
			fprintf(f, "<p class=\"note\">No chart: %s.</p>\n",
				gp ? "gnuplot failed" : "gnuplot is not installed (apt-get install gnuplot-nox), then run blkgenctl review --report DIR");
		free(svg);
		fprintf(f, "</section>\n");
	}
	steady_html(f, get(root, "preconditioning"));
	fprintf(f, "</body>\n</html>\n");
	if (write_file_check(f, file))
		goto fail_quiet;
	if (!gp && !quiet)
		fprintf(stderr, "blkgenctl: review: no charts in %s/index.html: gnuplot is not installed (apt-get install gnuplot-nox)\n",
			dir);
	if (!quiet)
		fprintf(stderr, "review: %s/review.json, summary.md, index.html\n", dir);
	json_object_put(root);
	return ret;
fail:
	fprintf(stderr, "blkgenctl: cannot write %s: %s\n", file, strerror(errno));
fail_quiet:
	json_object_put(root);
	return EXIT_FAIL;
}

/* ---- compare ---------------------------------------------------------------------- */

static json_object *find_wl(json_object *root, const char *name)
{
	json_object *wls = get(root, "workloads");
	size_t i;

	for (i = 0; i < alen(wls); i++)
		if (!strcmp(str(json_object_array_get_idx(wls, i), "name"), name))
			return json_object_array_get_idx(wls, i);
	return NULL;
}

struct rank {
	int drive;
	double v;
};

/*
 * A drive's outstanding I/Os at its peak: a run's depth; a published
 * figure's by Little's law (IOPS x mean latency), with its printed thread
 * count where the review gives one: "269 (IOPS x latency; 128 printed)".
 */
static double depth_of(json_object *pk)
{
	return get(pk, "published") ? num(pk, "depth_implied") : num(pk, "depth");
}

static void outstanding(json_object *pk, char *buf, size_t len)
{
	if (!get(pk, "published") && num(pk, "depth") > 0)
		snprintf(buf, len, "%g", num(pk, "depth"));
	else if (!get(pk, "published"))
		snprintf(buf, len, "n/a");
	else if (get(pk, "threads"))
		snprintf(buf, len, "%.3g (IOPS x latency; %d printed)", depth_of(pk),
			 json_object_get_int(get(pk, "threads")));
	else
		snprintf(buf, len, "%.3g (IOPS x latency)", depth_of(pk));
}

/*
 * Which reading a row is: a run's maximum (closed loop, service time), or
 * a review's peak as printed (the run of its curve it does not say).
 */
static const char *reading(json_object *pk)
{
	return get(pk, "published") ? "the review's peak, as printed" :
	       "blkgen's peak: the maximum run, closed loop";
}

/* Depths more than 20% apart between a published figure and a run. */
#define DEPTH_APART	0.2

/*
 * Under a workload's table, each published figure whose outstanding I/Os
 * (IOPS x latency) differ from a run's depth by more than DEPTH_APART:
 * the two did not run at one depth, whatever the title's thread count.
 */
static void depth_pairs(FILE *md, FILE *html, json_object *d)
{
	size_t i, j;
	char line[512];

	for (i = 0; i < alen(d); i++) {
		json_object *p = json_object_array_get_idx(d, i), *pp = get(p, "peak");

		if (!get(pp, "published") || depth_of(pp) <= 0)
			continue;
		for (j = 0; j < alen(d); j++) {
			json_object *r = json_object_array_get_idx(d, j), *rp = get(r, "peak");
			double dr = depth_of(rp), dp = depth_of(pp);

			if (get(rp, "published") || dr <= 0 || fabs(dp - dr) <= DEPTH_APART * dr)
				continue;
			snprintf(line, sizeof(line),
				 "Not one depth: %s kept %.3g outstanding (its IOPS x latency), %s ran at %g (%.2fx).",
				 str(p, "drive"), dp, str(r, "drive"), dr, dp / dr);
			fprintf(md, "\n%s\n", line);
			fprintf(html, "<p class=\"note\">");
			html_text(html, line);
			fprintf(html, "</p>\n");
		}
	}
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	return (x->v < y->v) - (x->v > y->v);
}

static const char *compare_usage = "blkgenctl compare DIR|published:NAME... -O OUT [--force]";

/*
 * How a review was made, as its figures depend on it: the precondition,
 * the test region, the points' length and --quick. Published reviews
 * carry their own method (the magazine's), not compared here.
 */
static void review_method(json_object *r, char *buf, size_t size)
{
	json_object *q = get(r, "quick");

	snprintf(buf, size, "precondition %s, region %s, %.10g s points%s",
		 str(r, "precondition"), str(r, "region"),
		 num(r, "point_secs"),
		 q && json_object_get_boolean(q) ? ", --quick" : "");
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output-dir", required_argument, NULL, 'O' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	json_object *rv[MAX_DRIVES] = { 0 }, *out, *shared, *others;
	char method[MAX_DRIVES][256];
	bool force = false, differ = false;
	char names[MAX_DRIVES][512], file[4200], a[64], b[64], c[64];
	const char *outdir = NULL, *src[MAX_DRIVES];	/* DIR or published:NAME */
	int n = 0, c_, i, j, ret = EXIT_FAIL, npub = 0;
	FILE *md = NULL, *html = NULL;
	bool gp = have_gnuplot();
	size_t k, nsh, noth;

	optind = 1;
	while ((c_ = getopt_long(argc, argv, "O:h", opts, NULL)) != -1) {
		switch (c_) {
		case 'O':
			outdir = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			printf("usage: %s\n\nThe comparables: every workload the reviews in DIR... share, charted\n"
			       "with one line per drive and ranked by peak (IOPS, or MB/s for\n"
			       "sequential workloads); the workloads not shared are listed.\n"
			       "OUT gets review.json, summary.md and index.html. Each review's\n"
			       "method (precondition, region, point length, --quick) is shown;\n"
			       "reviews made by different methods are refused without --force.\n\n"
			       "  -O, --output-dir OUT    where the comparison goes\n"
			       "      --force             compare reviews of different methods (said\n"
			       "                          on the pages)\n", compare_usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", compare_usage);
			return EXIT_USAGE;
		}
	}
	if (!outdir || argc - optind < 2 || argc - optind > MAX_DRIVES) {
		fprintf(stderr, "usage: %s (2 to %d reviews)\n", compare_usage, MAX_DRIVES);
		return EXIT_USAGE;
	}
	for (i = optind; i < argc; i++, n++) {
		if (n >= MAX_DRIVES) {
			fprintf(stderr, "usage: %s (2 to %d drives)\n", compare_usage, MAX_DRIVES);
			ret = EXIT_USAGE;
			goto out;
		}
		if (!strncmp(argv[i], PUBLISHED_PREFIX, strlen(PUBLISHED_PREFIX))) {
			char err[8192];
			int got = published_reviews(argv[i], rv + n, MAX_DRIVES - n, err, sizeof(err));

			if (got < 0) {
				fprintf(stderr, "blkgenctl: compare: %s\n", err);
				ret = EXIT_USAGE;
				goto out;
			}
			for (j = 0; j < got; j++) {
				src[n + j] = argv[i];
				snprintf(names[n + j], sizeof(names[0]), "%s", str(rv[n + j], "label"));
			}
			n += got - 1;
			npub += got;
			continue;
		}
		src[n] = argv[i];
		snprintf(file, sizeof(file), "%s/review.json", argv[i]);
		rv[n] = json_object_from_file(file);
		if (!rv[n] || !get(rv[n], "workloads")) {
			fprintf(stderr, "blkgenctl: compare: %s: not a review (%s)\n", file,
				rv[n] ? "no workloads" : json_util_get_last_err());
			ret = EXIT_USAGE;
			goto out;
		}
		drive_name(rv[n], names[n], sizeof(names[n]));
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], names[n])) {
				/* the same drive twice: tell them apart by DIR */
				snprintf(names[n] + strlen(names[n]), sizeof(names[n]) - strlen(names[n]),
					 " [%s]", argv[i]);
				break;
			}
	}
	/* A review compared with itself, and reviews of different methods. */
	for (i = 0; i < n; i++) {
		char *pa = get(rv[i], "published") ? NULL : realpath(src[i], NULL);

		method[i][0] = 0;
		if (pa)
			review_method(rv[i], method[i], sizeof(method[i]));
		for (j = 0; j < i; j++) {
			char *pb = get(rv[j], "published") ? NULL : realpath(src[j], NULL);
			bool same = pa && pb && !strcmp(pa, pb);

			free(pb);
			if (same || (get(rv[i], "published") && src[i] != src[j] &&
				     !strcmp(src[i], src[j]))) {
				fprintf(stderr, "blkgenctl: compare: %s is given twice: a review compared with itself\n",
					src[i]);
				free(pa);
				ret = EXIT_USAGE;
				goto out;
			}
			if (method[i][0] && method[j][0] && strcmp(method[i], method[j]))
				differ = true;
		}
		free(pa);
	}
	if (differ && !force) {
		fprintf(stderr, "blkgenctl: compare: the reviews were made by different methods, so their figures do not compare:\n");
		for (i = 0; i < n; i++)
			if (method[i][0])
				fprintf(stderr, "blkgenctl:   %s: %s\n", src[i], method[i]);
		fprintf(stderr, "blkgenctl: compare: --force compares them anyway (said on the pages)\n");
		ret = EXIT_USAGE;
		goto out;
	}
	if (mkdirs(outdir)) {
		fprintf(stderr, "blkgenctl: compare: mkdir %s: %s\n", outdir, strerror(errno));
		goto out;
	}
	if (n < 2) {
		fprintf(stderr, "usage: %s (2 to %d drives)\n", compare_usage, MAX_DRIVES);
		ret = EXIT_USAGE;
		goto out;
	}
	/* OUT's review.json must not replace a review's own. */
	for (i = 0; i < n; i++) {
		char *a = realpath(outdir, NULL), *b = get(rv[i], "published") ? NULL : realpath(src[i], NULL);
		bool same = a && b && !strcmp(a, b);

		free(a);
		free(b);
		if (same) {
			fprintf(stderr, "blkgenctl: compare: -O %s is one of the reviews compared: give another directory\n",
				outdir);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	out = json_object_new_object();
	shared = json_object_new_array();
	others = json_object_new_array();
	json_object_object_add(out, "blkgenctl_version", json_object_new_string(BLKGENCTL_VERSION));
	{
		json_object *dr = json_object_new_array();

		for (i = 0; i < n; i++) {
			json_object *d = json_object_new_object();

			json_object_object_add(d, "label", json_object_new_string(names[i]));
			json_object_object_add(d, "dir", json_object_new_string(src[i]));
			json_object_object_add(d, "suite", json_object_new_string(str(rv[i], "suite")));
			json_object_object_add(d, "device", json_object_get(get(rv[i], "device")));
			if (method[i][0])
				json_object_object_add(d, "method", json_object_new_string(method[i]));
			if (get(rv[i], "published"))
				json_object_object_add(d, "published", json_object_get(get(rv[i], "published")));
			json_object_array_add(dr, d);
		}
		json_object_object_add(out, "drives", dr);
	}
	/*
	 * Shared: in every review (in the first's order), a published drive
	 * joining where it has the workload (every drive if all are
	 * published), at least two drives; the rest listed.
	 */
	for (i = 0; i < n; i++) {
		json_object *wls = get(rv[i], "workloads");

		for (k = 0; k < alen(wls); k++) {
			const char *wn = str(json_object_array_get_idx(wls, k), "name");
			bool all = true, seen = false;
			int have = 0;

			for (j = 0; j < n; j++)
				if (find_wl(rv[j], wn))
					have++;
				else if (!get(rv[j], "published") || npub == n)
					all = false;
			if (have < 2)
				all = false;
			for (j = 0; j < i; j++)
				if (find_wl(rv[j], wn))
					seen = true;
			if (seen)
				continue;
			if (!all) {
				json_object *o = json_object_new_object();

				json_object_object_add(o, "name", json_object_new_string(wn));
				json_object_object_add(o, "only_in", json_object_new_string(src[i]));
				json_object_array_add(others, o);
				continue;
			}
			{
				json_object *w = json_object_new_object(), *ranks = json_object_new_array();
				json_object *w0 = find_wl(rv[i], wn), *lack = json_object_new_array();
				struct rank r[MAX_DRIVES];
				bool mbps = !strcmp(str(w0, "unit"), "mbps");
				int m = 0;

				json_object_object_add(w, "name", json_object_new_string(wn));
				json_object_object_add(w, "title", json_object_new_string(str(w0, "title")));
				json_object_object_add(w, "unit", json_object_new_string(str(w0, "unit")));
				for (j = 0; j < n; j++) {
					json_object *pk = get(find_wl(rv[j], wn), "peak");

					if (!find_wl(rv[j], wn)) {
						/* a published drive without this figure */
						json_object_array_add(lack, json_object_new_string(names[j]));
						continue;
					}
					r[m].drive = j;
					r[m++].v = mbps ? num(pk, "bw_bytes") : num(pk, "iops");
				}
				qsort(r, m, sizeof(r[0]), cmp_rank);
				for (j = 0; j < m; j++) {
					json_object *d = json_object_new_object();
					json_object *ww = find_wl(rv[r[j].drive], wn);

					json_object_object_add(d, "rank", json_object_new_int(j + 1));
					json_object_object_add(d, "drive", json_object_new_string(names[r[j].drive]));
					json_object_object_add(d, "peak", json_object_get(get(ww, "peak")));
					json_object_object_add(d, "points", json_object_get(get(ww, "points")));
					json_object_array_add(ranks, d);
				}
				json_object_object_add(w, "drives", ranks);
				json_object_object_add(w, "not_published_by", lack);
				json_object_array_add(shared, w);
			}
		}
	}
	json_object_object_add(out, "workloads", shared);
	json_object_object_add(out, "not_shared", others);
	snprintf(file, sizeof(file), "%s/review.json", outdir);
	if (review_save_json(file, out)) {
		fprintf(stderr, "blkgenctl: cannot write %s: %s\n", file, strerror(errno));
		json_object_put(out);
		goto out;
	}

	snprintf(file, sizeof(file), "%s/summary.md", outdir);
	md = fopen(file, "w");
	snprintf(file, sizeof(file), "%s/index.html", outdir);
	html = fopen(file, "w");
	if (!md || !html) {
		fprintf(stderr, "blkgenctl: compare: cannot write in %s: %s\n", outdir, strerror(errno));
		json_object_put(out);
		goto out;
	}
	fprintf(md, "# blkgen comparison\n\n");
	fprintf(html, html_head, "blkgen comparison");
	fprintf(html, "<h1>blkgen comparison</h1>\n<ul class=\"drives\">\n");
	for (i = 0; i < n; i++) {
		if (get(rv[i], "published"))
			fprintf(md, "- %s: %s\n", names[i], src[i]);
		else
			fprintf(md, "- %s: suite %s, %s (%s)\n", names[i],
				str(rv[i], "suite"), src[i], method[i]);
		fprintf(html, "<li>");
		html_text(html, names[i]);
		fprintf(html, get(rv[i], "published") ? ": " : ": suite ");
		html_text(html, str(rv[i], "suite"));
		if (method[i][0]) {
			fprintf(html, " (");
			html_text(html, method[i]);
			fprintf(html, ")");
		}
		fprintf(html, "</li>\n");
	}
	fprintf(html, "</ul>\n");
	if (differ) {
		fprintf(md, "\n**Made by different methods** (compared with --force): their figures do not compare as they stand.\n");
		fprintf(html, "<p class=\"note\"><strong>Made by different methods</strong> (compared with --force): their figures do not compare as they stand.</p>\n");
	}
	if (npub)
		published_note(md, html, rv, n);
	for (k = 0; k < alen(shared); k++) {
		json_object *w = json_object_array_get_idx(shared, k), *d = get(w, "drives");
		bool mbps = !strcmp(str(w, "unit"), "mbps");
		json_object *pts[MAX_DRIVES];
		const char *lab[MAX_DRIVES];
		char *svg;
		size_t m, nl;

		fprintf(md, "\n## %s\n\n| Rank | Drive | Peak IOPS | MB/s | Average latency at peak | p99 at peak | Outstanding | Reading |\n|---:|---|---:|---:|---:|---:|---:|---|\n",
			str(w, "title"));
		fprintf(html, "<section class=\"workload\" id=\"");
		html_text(html, str(w, "name"));
		fprintf(html, "\">\n<h2>");
		html_text(html, str(w, "title"));
		fprintf(html, "</h2>\n<table>\n<tr><th>Rank</th><th>Drive</th><th>Peak IOPS</th><th>MB/s</th><th>Average latency at peak</th><th>p99 at peak</th><th>Outstanding</th><th>Reading</th></tr>\n");
		for (m = 0; m < alen(d); m++) {
			json_object *x = json_object_array_get_idx(d, m), *pk = get(x, "peak");
			char e[64], o[96];

			thousands(num(pk, "iops"), a, sizeof(a));
			thousands(num(pk, "bw_bytes") / 1e6, b, sizeof(b));
			latency(num(pk, "lat_mean_ns"), c, sizeof(c));
			latency(num(pk, "lat_p99_ns"), e, sizeof(e));
			/* the reviews print no p99, and no MB/s for a mix or a trace */
			if (num(pk, "lat_p99_ns") <= 0)
				snprintf(e, sizeof(e), "n/a");
			if (num(pk, "bw_bytes") <= 0)
				snprintf(b, sizeof(b), "n/a");
			outstanding(pk, o, sizeof(o));
			fprintf(md, "| %zu | %s | %s | %s | %s | %s | %s | %s |\n", m + 1, str(x, "drive"),
				a, b, c, e, o, reading(pk));
			fprintf(html, "<tr><td>%zu</td><td>", m + 1);
			html_text(html, str(x, "drive"));
			fprintf(html, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				a, b, c, e, o, reading(pk));
			pts[m] = get(x, "points");
			lab[m] = str(x, "drive");
		}
		fprintf(html, "</table>\n");
		depth_pairs(md, html, d);
		for (nl = 0; nl < alen(get(w, "not_published_by")); nl++) {
			const char *nb = json_object_get_string(json_object_array_get_idx(get(w, "not_published_by"), nl));

			fprintf(md, "\nNo published figure: %s\n", nb);
			fprintf(html, "<p class=\"note\">No published figure: ");
			html_text(html, nb);
			fprintf(html, "</p>\n");
		}
		svg = gp ? chart(str(w, "title"), mbps, lab, pts, (int)m) : NULL;
		if (svg)
			fprintf(html, "<figure class=\"chart\">\n%s</figure>\n", svg);
		else
			fprintf(html, "<p class=\"note\">No chart: %s.</p>\n",
				gp ? "gnuplot failed" : "gnuplot is not installed (apt-get install gnuplot-nox)");
		free(svg);
		fprintf(html, "</section>\n");
	}
	if (alen(others)) {
		fprintf(md, "\n## Not shared\n\n");
		fprintf(html, "<h2>Not shared</h2>\n<ul>\n");
		for (k = 0; k < alen(others); k++) {
			json_object *o = json_object_array_get_idx(others, k);

			bool pub = !strncmp(str(o, "only_in"), PUBLISHED_PREFIX, strlen(PUBLISHED_PREFIX));
			const char *why = pub ? "published, not in every review" : "not in every review";

			fprintf(md, "- %s: %s (first in %s)\n", str(o, "name"), why, str(o, "only_in"));
			fprintf(html, "<li>");
			html_text(html, str(o, "name"));
			fprintf(html, ": %s (first in ", why);
			html_text(html, str(o, "only_in"));
			fprintf(html, ")</li>\n");
		}
		fprintf(html, "</ul>\n");
	}
	if (npub)
		published_sources(md, html, rv, n);
	fprintf(html, "</body>\n</html>\n");
	nsh = alen(shared);
	noth = alen(others);
	json_object_put(out);
	snprintf(file, sizeof(file), "%s/summary.md", outdir);
	i = write_file_check(md, file);
	md = NULL;
	snprintf(file, sizeof(file), "%s/index.html", outdir);
	if (write_file_check(html, file) || i) {
		html = NULL;
		goto out;
	}
	html = NULL;
	fprintf(stderr, "compare: %zu workloads shared, %zu not: %s/review.json, summary.md, index.html\n",
		nsh, noth, outdir);
	ret = EXIT_OK;
out:
	if (md)
		fclose(md);
	if (html)
		fclose(html);
	for (i = 0; i < n; i++)
		json_object_put(rv[i]);
	return ret;
}
