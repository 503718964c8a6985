// SPDX-License-Identifier: GPL-2.0
/*
 * The core kernel's repeated and absolute symbol names, kept per kernel
 * image (ksyms_dups.h).  The file:
 *
 *   kpmod-ksyms-dups 2 KEY
 *   M NAME        (one line per name the core kernel has more than once)
 *   A NAME        (one line per absolute symbol)
 *
 * each kind sorted by strcmp(), so a lookup is a binary search.  KEY is
 * "build-id=HEX", the running image's GNU build id (/sys/kernel/notes):
 * every boot of one image has the same core symbols.  A kernel built
 * without one is keyed "boot=ID", this boot's id.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ksyms_dups.h"

#define KP_DUPS_MAGIC "kpmod-ksyms-dups 2 "
#define KP_BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define KP_NOTES_PATH "/sys/kernel/notes"
#define KP_BOOT_ID_LEN 36
/* "build-id=" and 40 hex digits (SHA-1), or more for a longer id. */
#define KP_DUPS_KEY_MAX 160
/* A kernel has hundreds; more means the file is not ours. */
#define KP_DUPS_MAX_BYTES (4u << 20)

static int kp_boot_id(char id[KP_BOOT_ID_LEN + 1])
{
	FILE *f = fopen(KP_BOOT_ID_PATH, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(id, 1, KP_BOOT_ID_LEN, f);
	fclose(f);
	if (n != KP_BOOT_ID_LEN)
		return -EIO;
	id[KP_BOOT_ID_LEN] = '\0';
	return 0;
}

/* A note's name or descriptor is padded to 4 bytes (the kernel's notes are 4-aligned). */
static uint64_t kp_note_pad(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

int kp_ksyms_dups_build_id(const void *notes, size_t len, char *hex, size_t size)
{
	const unsigned char *p = notes, *end = p + len;
	Elf64_Nhdr h;	/* the same three words as Elf32_Nhdr */
	uint64_t name, desc;	/* padded sizes, in 64 bits: no wrap on 32-bit */
	size_t i;

	while ((size_t)(end - p) >= sizeof(h)) {
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		name = kp_note_pad(h.n_namesz);
		desc = kp_note_pad(h.n_descsz);
		if (name + desc > (uint64_t)(end - p))
			return -EINVAL;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && !memcmp(p, "GNU", 4) &&
		    h.n_descsz) {
			if (2 * (uint64_t)h.n_descsz + 1 > size)
				return -ENAMETOOLONG;
			for (i = 0; i < h.n_descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", p[name + i]);
			return 0;
		}
		p += name + desc;
	}
	return -ENOENT;
}

/* This kernel's KEY (above): its build id, or, without one, this boot's id. */
static int kp_kernel_key(char *key, size_t size)
{
	unsigned char notes[4096];
	char id[KP_BOOT_ID_LEN + 1];
	ssize_t n = -1;
	int fd, ret;

	fd = open(KP_NOTES_PATH, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, notes, sizeof(notes));
		close(fd);
	}
	if (n > 0 && size > strlen("build-id=")) {
		strcpy(key, "build-id=");
		if (!kp_ksyms_dups_build_id(notes, n, key + strlen(key), size - strlen(key)))
			return 0;
	}
	ret = kp_boot_id(id);
	if (ret)
		return ret;
	if (snprintf(key, size, "boot=%s", id) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* Root's or ours, and nobody else may write it. */
static bool kp_trusted(const struct stat *st)
{
	return (st->st_uid == 0 || st->st_uid == geteuid()) && !(st->st_mode & 022);
}

static int kp_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool kp_sorted_has(const char **names, size_t n, const char *name)
{
	return n && bsearch(&name, names, n, sizeof(*names), kp_cmp_str);
}

static bool kp_is_sorted(const char **names, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(names[i - 1], names[i]) > 0)
			return false;
	return true;
}

/* The folder @path is in, into @dir ("/x" is in "/", "x" in "."). */
static void kp_dups_dir(const char *path, char *dir, size_t size)
{
	char *slash;

	snprintf(dir, size, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, size, ".");
	else
		slash[slash == dir] = '\0';
}

static int kp_dups_read(const char *path, char **text)
{
	char dir[256], *buf;
	struct stat st, dst;
	ssize_t got;
	int fd, ret = 0;

	kp_dups_dir(path, dir, sizeof(dir));
	/* Not blocking: something other than a file there is refused, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || stat(dir, &dst)) {
		ret = -errno;
	} else if (!S_ISREG(st.st_mode) || !kp_trusted(&st) || !kp_trusted(&dst) ||
		   st.st_size > KP_DUPS_MAX_BYTES) {
		ret = -EPERM;
	}
	buf = ret ? NULL : malloc(st.st_size + 1);
	if (!ret && !buf)
		ret = -ENOMEM;
	if (!ret) {
		got = read(fd, buf, st.st_size);
		if (got != st.st_size)
			ret = got < 0 ? -errno : -EIO;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[st.st_size] = '\0';
	/* Cut short or zero-filled (a crash before it reached the disk): not used. */
	if (strlen(buf) != (size_t)st.st_size || !st.st_size || buf[st.st_size - 1] != '\n') {
		free(buf);
		return -EINVAL;
	}
	*text = buf;
	return 0;
}

/* Where the names are kept when no path is given, looked for and written in this order. */
static const char *const kp_dups_paths[] = { KP_KSYMS_DUPS_PATH, KP_KSYMS_DUPS_RUN_PATH };

static int kp_dups_load_one(void *arg, const char *path, const char *key)
{
	struct kp_ksyms_dups *d = arg;
	char *line, *nl;
	size_t lines = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = kp_dups_read(path, &d->text);
	if (ret)
		return ret;
	nl = strchr(d->text, '\n');
	if (!nl || strncmp(d->text, KP_DUPS_MAGIC, strlen(KP_DUPS_MAGIC))) {
		ret = -EINVAL;
		goto fail;
	}
	if (nl - d->text != (long)(strlen(KP_DUPS_MAGIC) + strlen(key)) ||
	    memcmp(d->text + strlen(KP_DUPS_MAGIC), key, strlen(key))) {
		ret = -ESTALE;
		goto fail;
	}
	for (line = nl + 1; *line; line++)
		lines += *line == '\n';
	d->multi = calloc(lines + 1, sizeof(*d->multi));
	d->abs = calloc(lines + 1, sizeof(*d->abs));
	if (!d->multi || !d->abs) {
		ret = -ENOMEM;
		goto fail;
	}
	for (line = nl + 1; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl || (line[0] != 'M' && line[0] != 'A') || line[1] != ' ' || nl == line + 2) {
			ret = -EINVAL;
			goto fail;
		}
		*nl = '\0';
		if (line[0] == 'M')
			d->multi[d->nmulti++] = line + 2;
		else
			d->abs[d->nabs++] = line + 2;
	}
	/* Written sorted, for bsearch(): a file that is not was not written here. */
	if (!kp_is_sorted(d->multi, d->nmulti) || !kp_is_sorted(d->abs, d->nabs)) {
		ret = -EINVAL;
		goto fail;
	}
	return 0;
fail:
	kp_ksyms_dups_free(d);
	return ret;
}

/*
 * Runs @one with this kernel's key on @path, or, with none given, on each
 * of kp_dups_paths[] until one succeeds: a read-only /var may keep another
 * kernel's names while /run has this one's.  Returns @one's last result.
 */
static int kp_dups_each_path(const char *path,
			     int (*one)(void *arg, const char *path, const char *key), void *arg)
{
	char key[KP_DUPS_KEY_MAX];
	size_t i;
	int ret;

	ret = kp_kernel_key(key, sizeof(key));
	if (ret || path)
		return ret ? ret : one(arg, path, key);
	for (i = 0; i < sizeof(kp_dups_paths) / sizeof(kp_dups_paths[0]); i++) {
		ret = one(arg, kp_dups_paths[i], key);
		if (!ret)
			break;
	}
	return ret;
}

int kp_ksyms_dups_load(struct kp_ksyms_dups *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	return kp_dups_each_path(path, kp_dups_load_one, d);
}

bool kp_ksyms_dups_multi(const struct kp_ksyms_dups *d, const char *name)
{
	return kp_sorted_has(d->multi, d->nmulti, name);
}

bool kp_ksyms_dups_abs(const struct kp_ksyms_dups *d, const char *name)
{
	return kp_sorted_has(d->abs, d->nabs, name);
}

void kp_ksyms_dups_free(struct kp_ksyms_dups *d)
{
	free(d->text);
	free(d->multi);
	free(d->abs);
	memset(d, 0, sizeof(*d));
}

/* @k's lines into @f: repeated core names (by_name order is strcmp's), then absolute ones. */
static int kp_dups_write(FILE *f, const struct kp_ksyms *k, const char *key)
{
	struct kp_sym *const *by_name = kp_ksyms_by_name(k);
	const char **abs;
	size_t i, j, core;
	uint64_t addr;

	if (!by_name && k->nsyms)
		return -ENOMEM;
	fprintf(f, "%s%s\n", KP_DUPS_MAGIC, key);
	for (i = 0; i < k->nsyms; i = j) {
		core = 0;
		for (j = i; j < k->nsyms && !strcmp(by_name[j]->name, by_name[i]->name); j++)
			core += !by_name[j]->mod;
		if (core > 1)
			fprintf(f, "M %s\n", by_name[i]->name);
	}
	abs = calloc(k->nabs + 1, sizeof(*abs));
	if (!abs)
		return -ENOMEM;
	/* As kp_ksyms_addr() first: a name also given to an ordinary symbol is that one. */
	for (i = j = 0; i < k->nabs; i++)
		if (!k->abs[i].mod && kp_ksyms_addr(k, k->abs[i].name, NULL, &addr))
			abs[j++] = k->abs[i].name;
	qsort(abs, j, sizeof(*abs), kp_cmp_str);
	for (i = 0; i < j; i++)
		if (!i || strcmp(abs[i], abs[i - 1]))
			fprintf(f, "A %s\n", abs[i]);
	free(abs);
	return ferror(f) ? -EIO : 0;
}

static int kp_dups_save_one(void *arg, const char *path, const char *key)
{
	const struct kp_ksyms *k = arg;
	char dir[256], tmp[280];
	struct stat dst;
	FILE *f;
	int fd, dfd, ret;

	kp_dups_dir(path, dir, sizeof(dir));
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	/* Where loading would not trust it, it is not written (the next place is). */
	if (stat(dir, &dst))
		return -errno;
	if (!kp_trusted(&dst))
		return -EPERM;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = fchmod(fd, 0644) ? -errno : kp_dups_write(f, k, key);
	/* On disk before it is renamed in: it outlives the boot (/var). */
	if (!ret && (fflush(f) || fsync(fd)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int kp_ksyms_dups_save(const struct kp_ksyms *k, const char *path)
{
	/* Written, never changed, through the void pointer kp_dups_each_path() passes on. */
	return kp_dups_each_path(path, kp_dups_save_one, (void *)k);
}
