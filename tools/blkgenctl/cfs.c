// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - access to blkgen's configfs and sysfs trees.
 *
 * BLKGEN_CONFIGFS and BLKGEN_SYSFS in the environment move the roots (the
 * host tests point them at fabricated trees).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/blkzoned.h>
#include <linux/fs.h>

#include "blkgenctl.h"

/* $VAR without trailing slashes (joined paths get one), else @dflt. */
static const char *env_dir(const char *var, const char *dflt, char *buf,
			   size_t size)
{
	const char *e = getenv(var);
	size_t len;

	if (!e || !*e)
		return dflt;
	len = strlen(e);
	while (len > 1 && e[len - 1] == '/')
		len--;
	if (len >= size)
		return e;
	memcpy(buf, e, len);
	buf[len] = 0;
	return buf;
}

const char *cfs_root(void)
{
	static char buf[4096];

	return env_dir("BLKGEN_CONFIGFS", "/sys/kernel/config/blkgen", buf,
		       sizeof(buf));
}

const char *sfs_root(void)
{
	static char buf[4096];

	return env_dir("BLKGEN_SYSFS", "/sys/kernel/blkgen", buf, sizeof(buf));
}

/**
 * path_join() - DIR/NAME then SUFFIX, one slash between however DIR ends.
 * Return: 0, or -ENAMETOOLONG.
 */
int path_join(char *buf, size_t size, const char *dir, const char *name,
	      const char *suffix)
{
	size_t len = strlen(dir);
	int n;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	n = snprintf(buf, size, "%.*s%s%s%s", (int)len, dir,
		     len && dir[len - 1] == '/' ? "" : "/", name, suffix);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * Where the shipped files of @sub ("profiles", "suites") are: $@env if
 * set; else, for a blkgenctl run from the source tree
 * (tools/blkgenctl/blkgenctl), tools/@sub beside it; else @installed.
 */
static const char *data_dir(const char *env, const char *installed,
			    const char *sub, char *buf, size_t size)
{
	const char *d = getenv(env);
	char exe[4096], *slash;
	struct stat st;
	ssize_t n;

	if (d && *d)
		return d;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			if (snprintf(buf, size, "%s/../%s", exe, sub) < (int)size &&
			    !stat(buf, &st) && S_ISDIR(st.st_mode))
				return buf;
		}
	}
	return installed;
}

const char *profile_dir(void)
{
	static char buf[4200];

	return data_dir("BLKGEN_PROFILES", BLKGEN_PROFILE_DIR, "profiles", buf,
			sizeof(buf));
}

const char *suite_dir(void)
{
	static char buf[4200];

	return data_dir("BLKGEN_SUITES", BLKGEN_SUITE_DIR, "suites", buf,
			sizeof(buf));
}

/* mkdir -p @path: 0, or -1 with errno set. */
int mkdirs(const char *path)
{
	char buf[4096], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* Whether @prog is an executable file in a directory of $PATH. */
bool in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(e - p), p,
			 e > p && e[-1] != '/' ? "/" : "", prog);
		if (e > p && !access(buf, X_OK))
			return true;
	}
	return false;
}

/*
 * Where a profile or suite argument is: @name itself if it is a file here
 * or a path (1), else @dir/@name with @suffix unless it ends so (0);
 * -ENAMETOOLONG.
 */
int named_file(char *buf, size_t size, const char *name, const char *dir,
	       const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	struct stat st;

	if ((!stat(name, &st) && S_ISREG(st.st_mode)) || strchr(name, '/')) {
		if ((size_t)snprintf(buf, size, "%s", name) >= size)
			return -ENAMETOOLONG;
		return 1;
	}
	return path_join(buf, size, dir, name,
			 n > k && !strcmp(name + n - k, suffix) ? "" : suffix);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cfs_module_loaded(void)
{
	return is_dir(sfs_root());
}

/* Why the trees are missing, as advice to the user. */
/* 0 if the module is there, else the hint said and EXIT_NOMOD. */
int cfs_need_module(void)
{
	if (cfs_module_loaded())
		return 0;
	fprintf(stderr, "blkgenctl: %s\n", cfs_missing_hint());
	return EXIT_NOMOD;
}

const char *cfs_missing_hint(void)
{
	if (getenv("BLKGEN_SYSFS"))
		return "BLKGEN_SYSFS does not name a directory";
	if (!is_dir("/sys/kernel/config"))
		return "configfs is not mounted: mount -t configfs none /sys/kernel/config";
	return "the blkgen module is not loaded: modprobe blkgen (or insmod module/blkgen.ko)";
}

/* dir/name into buf; -ENAMETOOLONG if it does not fit. */
int cfs_path(char *buf, size_t size, const char *dir, const char *name)
{
	return path_join(buf, size, dir, name, "");
}

/* Read a text attribute without its trailing newline; -errno on failure. */
int cfs_read_text(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = 0;
	return 0;
}

int cfs_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	int ret;

	ret = cfs_read_text(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

/* A whole (binary) file in a malloc'ed buffer; NULL with errno set. */
void *cfs_read_file(const char *path, size_t *size)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap), *p;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			p = realloc(buf, cap * 2);
			if (!p)
				goto out_fail;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0)
			goto out_fail;
		if (!n)
			break;
		len += n;
	}
	close(fd);
	*size = len;
	return buf;

out_fail:
	n = errno;
	close(fd);
	free(buf);
	errno = n;
	return NULL;
}

int cfs_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Subdirectories of dir, sorted; returns their number or -errno. */
int cfs_list(const char *dir, char ***names)
{
	struct dirent **ents;
	char path[4096];
	int i, n, k = 0;

	n = scandir(dir, &ents, NULL, by_name);
	if (n < 0)
		return -errno;
	*names = calloc(n ? n : 1, sizeof(**names));
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && *names) {
			if (!cfs_path(path, sizeof(path), dir, ents[i]->d_name) &&
			    is_dir(path))
				(*names)[k++] = strdup(ents[i]->d_name);
		}
		free(ents[i]);
	}
	free(ents);
	if (!*names)
		return -ENOMEM;
	return k;
}

void cfs_free_list(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Bytes of a block device (or of a regular file), 0 if unknown. */
uint64_t cfs_dev_bytes(const char *dev)
{
	uint64_t size = 0;
	struct stat st;
	int fd = dev && *dev ? open(dev, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		return 0;
	if (!fstat(fd, &st)) {
		if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size))
			size = 0;
		else if (S_ISREG(st.st_mode))
			size = st.st_size;
	}
	close(fd);
	return size;
}

/*
 * Whether block device @dev is zoned, by its queue's sysfs "zoned" (no
 * open, no I/O): for the reports, which show a zoned workload's counters
 * even when they are all 0.
 */
bool cfs_dev_is_zoned(const char *dev)
{
	char buf[32];

	cfs_block_attr(dev, "queue/zoned", buf, sizeof(buf));
	return !strncmp(buf, "host-", 5);
}

/*
 * Whether @dev is a zoned block device, and if so the bytes its writable
 * zones hold (sequential zones' capacity, conventional zones' size; not
 * the read-only or offline ones) and the writes of @io bytes that fill
 * them, zone by zone (a write never crosses a zone). 1 zoned, 0 not,
 * -errno if it cannot be opened or reported.
 */
int cfs_dev_zoned(const char *dev, uint32_t io, uint64_t *writable,
		  uint64_t *fill_ios)
{
	const unsigned int batch = 128;
	struct blk_zone_report *rep;
	unsigned int nr = 0, i;
	uint64_t sector = 0;
	int fd, ret = 0;

	*writable = 0;
	*fill_ios = 0;
	fd = dev && *dev ? open(dev, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETNRZONES, &nr) || !nr) {
		close(fd);
		return 0;
	}
	rep = calloc(1, sizeof(*rep) + batch * sizeof(struct blk_zone));
	if (!rep) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		rep->sector = sector;
		rep->nr_zones = batch;
		if (ioctl(fd, BLKREPORTZONE, rep)) {
			ret = -errno;
			break;
		}
		if (!rep->nr_zones) {
			ret = 1;
			break;
		}
		for (i = 0; i < rep->nr_zones; i++) {
			const struct blk_zone *z = &rep->zones[i];
			uint64_t bytes = (z->type == BLK_ZONE_TYPE_CONVENTIONAL ||
					  !(rep->flags & BLK_ZONE_REP_CAPACITY) ?
					  z->len : z->capacity) << 9;

			if (z->cond != BLK_ZONE_COND_READONLY &&
			    z->cond != BLK_ZONE_COND_OFFLINE) {
				*writable += bytes;
				*fill_ios += (bytes + io - 1) / io;
			}
			if (z->start + z->len <= sector) {	/* no progress */
				ret = -EIO;
				goto out;
			}
			sector = z->start + z->len;
		}
	}
out:
	free(rep);
	close(fd);
	return ret;
}

/*
 * Reset every zone of zoned @dev. Opened exclusively: a mounted (or
 * otherwise claimed) device is refused with -EBUSY.
 */
int cfs_reset_zones(const char *dev)
{
	struct blk_zone_range r = { 0 };
	uint64_t bytes = cfs_dev_bytes(dev);
	int fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (!bytes) {
		close(fd);
		return -EIO;
	}
	r.nr_sectors = bytes >> 9;
	if (ioctl(fd, BLKRESETZONE, &r))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * A block device's sysfs attribute @what (a path below
 * /sys/class/block/NAME): "" where it has none or @dev is no block
 * device.
 */
void cfs_block_attr(const char *dev, const char *what, char *buf, size_t len)
{
	char path[512], *real = dev ? realpath(dev, NULL) : NULL;
	const char *name = real ? real : dev ? dev : "";
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	buf[0] = 0;
	if (*base) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/%s", base,
			 what);
		cfs_read_text(path, buf, len);
	}
	free(real);
}

/*
 * A device's identity from sysfs (model, serial, firmware_rev): "" where
 * it has none (null_blk) or @dev is no block device.
 */
void cfs_device_id(const char *dev, const char *what, char *buf, size_t len)
{
	char attr[64];

	snprintf(attr, sizeof(attr), "device/%s", what);
	cfs_block_attr(dev, attr, buf, len);
}

/*
 * Remove JOB (configfs) with its workloads. A running job is stopped
 * first, waiting for its I/O in flight: rmdir would only ask it to stop
 * and return, and its devices would stay open a while after. 0 or a
 * negative errno.
 */
int cfs_remove_job(const char *job)
{
	char dir[4096], path[8192], **names;
	int i, n, ret = 0;

	if (strchr(job, '/') ||
	    snprintf(dir, sizeof(dir), "%s/%s/workloads", cfs_root(), job) >=
	    (int)sizeof(dir))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/state", cfs_root(), job);
	cfs_write(path, "stop");	/* a job that does not run: no-op */
	n = cfs_list(dir, &names);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (rmdir(path) && !ret)
			ret = -errno;
	}
	cfs_free_list(names, n);
	snprintf(path, sizeof(path), "%s/%s", cfs_root(), job);
	if (rmdir(path) && !ret)
		ret = -errno;
	return ret;
}
