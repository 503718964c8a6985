// SPDX-License-Identifier: GPL-2.0
/* Reader of one CPU's ring: validation, iteration, OVERWRITE snapshots. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ring.h"

#define KP_RING_MIN_SIZE 256	/* below this no useful record fits */

void (*kp_ring_snapshot_hook)(struct kp_ring *r);

static int kp_ring_fail(struct kp_ring *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int kp_ring_fail(struct kp_ring *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return err;
}

static uint64_t load_acquire(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static uint64_t load_relaxed(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Hands [old tail, tail) back to the kernel; pairs with its acquire. */
static void kp_ring_publish(struct kp_ring *r)
{
	__atomic_store_n(&r->cons->data_tail, r->tail, __ATOMIC_RELEASE);
}

int kp_record_check(const void *p, uint64_t avail, char *why, size_t whylen)
{
	const struct kpmod_record *rec = p;

	if (avail < 8) {
		snprintf(why, whylen, "%llu bytes left, no record header fits",
			 (unsigned long long)avail);
		return -EBADMSG;
	}
	if (rec->len < 8 || rec->len % 8) {
		snprintf(why, whylen, "bad record length %u", rec->len);
		return -EBADMSG;
	}
	if (rec->len > avail) {
		snprintf(why, whylen, "record length %u exceeds the %llu bytes left",
			 rec->len, (unsigned long long)avail);
		return -EBADMSG;
	}
	switch (rec->type) {
	case KPMOD_REC_PAD:
		return KPMOD_REC_PAD;
	case KPMOD_REC_EVENT:
		if (rec->len < sizeof(*rec) || rec->len > KPMOD_MAX_RECORD) {
			snprintf(why, whylen, "bad event record length %u",
				 rec->len);
			return -EBADMSG;
		}
		return KPMOD_REC_EVENT;
	case KPMOD_REC_STACK: {
		const struct kpmod_stack_rec *st = p;

		if (rec->len < sizeof(*st) || st->nr > KPMOD_STACK_MAX_FRAMES ||
		    rec->len != sizeof(*st) + st->nr * sizeof(st->frames[0])) {
			snprintf(why, whylen, "bad stack record length %u", rec->len);
			return -EBADMSG;
		}
		return KPMOD_REC_STACK;
	}
	default:
		snprintf(why, whylen, "unknown record type %u", rec->type);
		return -EBADMSG;
	}
}

/* kp_ring_init() without forgetting kp_ring_open()'s mapping. */
static int kp_ring_setup(struct kp_ring *r, const struct kpmod_ring_meta *meta,
			 struct kpmod_ring_consumer *cons, const void *data)
{
	uint64_t size = meta->data_size, head, tail;

	r->meta = meta;
	r->cons = cons;
	r->data = data;
	r->snap = NULL;
	r->corrupt = r->torn = 0;
	r->err[0] = '\0';
	if (meta->version != KPMOD_RING_VERSION)
		return kp_ring_fail(r, -EINVAL,
				    "ring version %u, this kpmod reads version %u",
				    meta->version, KPMOD_RING_VERSION);
	if (size < KP_RING_MIN_SIZE || size > KPMOD_BUF_SIZE_MAX ||
	    (size & (size - 1)))
		return kp_ring_fail(r, -EINVAL, "bad ring data size %llu",
				    (unsigned long long)size);
	if (meta->mode != KPMOD_BUF_DISCARD && meta->mode != KPMOD_BUF_OVERWRITE)
		return kp_ring_fail(r, -EINVAL, "unknown ring mode %u",
				    meta->mode);
	r->size = size;
	r->cpu = meta->cpu;
	r->mode = meta->mode;

	head = load_acquire(&meta->data_head);
	tail = load_relaxed(&cons->data_tail);
	if (head % 8)
		return kp_ring_fail(r, -EINVAL, "misaligned data_head %llu",
				    (unsigned long long)head);
	if (r->mode == KPMOD_BUF_OVERWRITE) {
		r->snap = malloc(size);
		if (!r->snap)
			return kp_ring_fail(r, -ENOMEM, "out of memory");
		/*
		 * A flight recorder is not consumed by reading it: every new
		 * reader starts at the oldest intact record (the snapshot
		 * raises 0 to data_oldest).
		 */
		(void)tail;
		r->tail = r->head = 0;
	} else {
		/* A tail left behind by an earlier reader is fine if valid. */
		if (tail > head || head - tail > size || tail % 8)
			tail = head;
		r->tail = tail;
		r->head = tail;
		kp_ring_publish(r);
	}
	return 0;
}

int kp_ring_init(struct kp_ring *r, const struct kpmod_ring_meta *meta,
		 struct kpmod_ring_consumer *cons, const void *data)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	return kp_ring_setup(r, meta, cons, data);
}

/* Skips everything published so far after bad data; returns -EBADMSG. */
static int kp_ring_corrupt(struct kp_ring *r, uint64_t end, const char *why)
{
	uint64_t pos = r->tail;

	r->corrupt++;
	r->tail = end;
	if (r->mode == KPMOD_BUF_DISCARD)
		kp_ring_publish(r);
	else
		r->head = end;
	return kp_ring_fail(r, -EBADMSG,
			    "CPU %u: corrupt ring data at position %llu: %s; skipped %llu bytes",
			    r->cpu, (unsigned long long)pos, why,
			    (unsigned long long)(end - pos));
}

/*
 * Copies 8-byte words with acquire loads: the kernel may be rewriting them,
 * and a word that shows a rewrite must make the later load of data_oldest
 * show the oldest that announced it (the kernel stores data_oldest, then
 * smp_wmb(), then the data).  Acquire loads are plain loads on x86 and need
 * no fence, which ThreadSanitizer could not follow.
 */
static void kp_copy_words(uint8_t *dst, const uint8_t *src, uint64_t len)
{
	const uint64_t *s = (const uint64_t *)src;
	uint64_t *d = (uint64_t *)dst, i;

	for (i = 0; i < len / 8; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_ACQUIRE);
}

/*
 * OVERWRITE: copies [max(oldest, tail), head) to r->snap, then drops what
 * the kernel overwrote meanwhile.  Returns 1 if records were copied, 0 if
 * none, -EBADMSG if the kernel's positions make no sense.
 */
static int kp_ring_snapshot(struct kp_ring *r)
{
	uint64_t head = 0, oldest = 0, start, mask = r->size - 1, off, first;
	int tries;

	/* Head first: then oldest is at least as new, so head - oldest <= size. */
	for (tries = 0; tries < 100; tries++) {
		head = load_acquire(&r->meta->data_head);
		oldest = load_acquire(&r->meta->data_oldest);
		if (oldest <= head)
			break;
	}
	if (oldest > head || head - oldest > r->size || head % 8 || oldest % 8) {
		r->tail = r->head = head;
		r->corrupt++;
		return kp_ring_fail(r, -EBADMSG,
				    "CPU %u: bad ring positions oldest %llu head %llu",
				    r->cpu, (unsigned long long)oldest,
				    (unsigned long long)head);
	}
	start = r->tail;
	if (start < oldest || start > head)
		start = oldest;		/* the kernel counted what we missed */
	if (start == head)
		return 0;

	if (kp_ring_snapshot_hook)
		kp_ring_snapshot_hook(r);
	off = start & mask;
	first = head - start;
	if (first > r->size - off)
		first = r->size - off;
	kp_copy_words(r->snap, r->data + off, first);
	kp_copy_words(r->snap + first, r->data, head - start - first);

	/* Whatever was overwritten during the copy lies below this oldest. */
	oldest = load_acquire(&r->meta->data_oldest);
	r->snap_pos = start;
	r->snap_end = head;
	r->head = head;
	r->tail = start;
	if (oldest > start) {
		r->torn++;
		/* data_oldest is a record boundary: resume there. */
		r->tail = oldest < head ? oldest : head;
	}
	kp_ring_publish(r);
	return r->tail < head;
}

int kp_ring_peek(struct kp_ring *r, const struct kpmod_record **rec)
{
	const uint8_t *p;
	uint64_t avail, to_end;
	char why[96];
	int type, ret;

	for (;;) {
		if (r->tail == r->head) {
			if (r->mode == KPMOD_BUF_OVERWRITE) {
				ret = kp_ring_snapshot(r);
				if (ret <= 0)
					return ret;
			} else {
				r->head = load_acquire(&r->meta->data_head);
				if (r->head == r->tail)
					return 0;
				if (r->head < r->tail ||
				    r->head - r->tail > r->size || r->head % 8)
					return kp_ring_corrupt(r, r->head,
							       "data_head out of range");
			}
		}
		to_end = r->size - (r->tail & (r->size - 1));
		avail = r->head - r->tail;
		if (avail > to_end)
			avail = to_end;	/* records never wrap */
		if (r->mode == KPMOD_BUF_OVERWRITE)
			p = r->snap + (r->tail - r->snap_pos);
		else
			p = r->data + (r->tail & (r->size - 1));
		type = kp_record_check(p, avail, why, sizeof(why));
		if (type < 0)
			return kp_ring_corrupt(r, r->head, why);
		if (type == KPMOD_REC_PAD) {
			r->tail += ((const struct kpmod_record *)p)->len;
			continue;
		}
		*rec = (const struct kpmod_record *)p;
		return 1;
	}
}

void kp_ring_skip(struct kp_ring *r)
{
	const struct kpmod_record *rec;

	if (r->tail == r->head)
		return;
	if (r->mode == KPMOD_BUF_OVERWRITE)
		rec = (const void *)(r->snap + (r->tail - r->snap_pos));
	else
		rec = (const void *)(r->data + (r->tail & (r->size - 1)));
	r->tail += rec->len;
}

void kp_ring_release(struct kp_ring *r)
{
	kp_ring_publish(r);
}

void kp_ring_next(struct kp_ring *r)
{
	kp_ring_skip(r);
	kp_ring_publish(r);
}

uint64_t kp_ring_pending(const struct kp_ring *r)
{
	uint64_t head = load_acquire(&r->meta->data_head);

	if (head < r->tail)
		return 0;
	return head - r->tail > r->size ? r->size : head - r->tail;
}

uint64_t kp_ring_lost(const struct kp_ring *r)
{
	return load_relaxed(&r->meta->lost);
}

uint64_t kp_ring_overwritten(const struct kp_ring *r)
{
	return load_relaxed(&r->meta->overwritten);
}

uint64_t kp_ring_nested(const struct kp_ring *r)
{
	return load_relaxed(&r->meta->nested);
}

struct kp_ring_counts kp_ring_counts(const struct kp_ring *r)
{
	return (struct kp_ring_counts){
		.lost = kp_ring_lost(r),
		.overwritten = kp_ring_overwritten(r),
		.nested = kp_ring_nested(r),
	};
}

uint64_t kp_ring_events(const struct kp_ring *r)
{
	return load_relaxed(&r->meta->events);
}

static int kp_ring_open_fail(struct kp_ring *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int kp_ring_open_fail(struct kp_ring *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	free(r->snap);
	r->snap = NULL;
	if (r->cons_map)
		munmap(r->cons_map, r->cons_len);
	if (r->ro_map)
		munmap(r->ro_map, r->ro_len);
	if (r->fd >= 0)
		close(r->fd);
	r->cons_map = r->ro_map = NULL;
	r->fd = -1;
	return -err;
}

static int kp_ring_open_as(struct kp_ring *r, const char *dev, unsigned int cpu,
			   unsigned long attach)
{
	long pg = sysconf(_SC_PAGESIZE);
	const struct kpmod_ring_meta *m;
	uint64_t data_size, data_offset;
	char path[64];
	__u32 c = cpu;
	void *p;
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!dev) {
		snprintf(path, sizeof(path), "/dev/%s", KPMOD_DEVICE_NAME);
		dev = path;
	}
	r->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (r->fd < 0) {
		ret = errno;
		if (ret == ENOENT || ret == ENXIO || ret == ENODEV)
			return kp_ring_open_fail(r, ret, "%s: %s (is the kpmod module loaded?)",
						 dev, strerror(ret));
		if (ret == EACCES || ret == EPERM)
			return kp_ring_open_fail(r, ret, "%s: %s (reading rings needs root)",
						 dev, strerror(ret));
		return kp_ring_open_fail(r, ret, "%s: %s", dev, strerror(ret));
	}
	if (ioctl(r->fd, attach, &c) < 0) {
		ret = errno;
		if (ret == ENOENT && attach == KPMOD_IOC_ATTACH_SNAPSHOT)
			return kp_ring_open_fail(r, ret, "no snapshot has been taken");
		if (ret == EBUSY)
			return kp_ring_open_fail(r, ret,
						 "CPU %u's ring is already being read by another reader",
						 cpu);
		if (ret == EINVAL || ret == ENXIO || ret == ENODEV)
			return kp_ring_open_fail(r, ret, "CPU %u has no ring", cpu);
		return kp_ring_open_fail(r, ret, "attaching to CPU %u's ring: %s",
					 cpu, strerror(ret));
	}

	r->cons_len = pg;
	p = mmap(NULL, r->cons_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		return kp_ring_open_fail(r, errno, "mapping CPU %u's consumer page: %s",
					 cpu, strerror(errno));
	r->cons_map = p;

	/* The meta page alone first: it says how much data follows. */
	r->ro_len = pg;
	p = mmap(NULL, r->ro_len, PROT_READ, MAP_SHARED, r->fd, pg);
	if (p == MAP_FAILED)
		return kp_ring_open_fail(r, errno, "mapping CPU %u's ring meta page: %s",
					 cpu, strerror(errno));
	r->ro_map = p;
	m = p;
	if (m->version != KPMOD_RING_VERSION)
		return kp_ring_open_fail(r, EPROTO,
					 "CPU %u: ring version %u, this kpmod reads version %u",
					 cpu, m->version, KPMOD_RING_VERSION);
	data_size = m->data_size;
	data_offset = m->data_offset;
	if (m->page_size != (uint64_t)pg || data_offset < sizeof(*m) ||
	    data_offset % pg || data_size < KPMOD_BUF_SIZE_MIN ||
	    data_size > KPMOD_BUF_SIZE_MAX || (data_size & (data_size - 1)))
		return kp_ring_open_fail(r, EPROTO,
					 "CPU %u: bad ring layout (page %u, data %llu at %llu)",
					 cpu, m->page_size,
					 (unsigned long long)data_size,
					 (unsigned long long)data_offset);
	munmap(r->ro_map, r->ro_len);
	r->ro_map = NULL;

	r->ro_len = data_offset + data_size;
	p = mmap(NULL, r->ro_len, PROT_READ, MAP_SHARED, r->fd, pg);
	if (p == MAP_FAILED)
		return kp_ring_open_fail(r, errno, "mapping CPU %u's ring: %s",
					 cpu, strerror(errno));
	r->ro_map = p;
	m = p;
	ret = kp_ring_setup(r, m, r->cons_map, (const uint8_t *)p + data_offset);
	if (ret < 0) {
		char why[sizeof(r->err)];

		memcpy(why, r->err, sizeof(why));
		return kp_ring_open_fail(r, -ret, "CPU %u: %s", cpu, why);
	}
	if (r->cpu != cpu)
		return kp_ring_open_fail(r, EPROTO, "asked for CPU %u's ring, got CPU %u's",
					 cpu, r->cpu);
	return 0;
}

int kp_ring_open(struct kp_ring *r, const char *dev, unsigned int cpu)
{
	return kp_ring_open_as(r, dev, cpu, KPMOD_IOC_ATTACH);
}

int kp_ring_open_snapshot(struct kp_ring *r, const char *dev, unsigned int cpu)
{
	return kp_ring_open_as(r, dev, cpu, KPMOD_IOC_ATTACH_SNAPSHOT);
}

void kp_ring_close(struct kp_ring *r)
{
	free(r->snap);
	r->snap = NULL;
	/* Only kp_ring_open() maps, and it owns the file then. */
	if (r->cons_map)
		munmap(r->cons_map, r->cons_len);
	if (r->ro_map) {
		munmap(r->ro_map, r->ro_len);
		close(r->fd);
	}
	r->cons_map = r->ro_map = NULL;
	r->fd = -1;
}
