// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-nlfuzz failnth OP MAX [STEP [KO]]: allocation failures, one at a
 * time.  For N = 1, 1 + STEP, 1 + 2 STEP, ... (STEP 1 tries every one) up
 * to MAX, it makes the N-th fault-injectable allocation of this task
 * fail (/proc/self/fail-nth, with failslab and fail_page_alloc told to fail
 * sleeping allocations too: 74-alloc-failures.sh) and does OP once:
 *
 *   insmod PATH   load the module (finit_module); it is unloaded between
 *   add           add a probe with a string and a numeric argument
 *   filter        set a filter on a probe added beforehand
 *   hist          add a hist trigger (keys, values, a 2048-entry table)
 *   buffer        resize the rings (64 KiB <-> 128 KiB per CPU)
 *   attach        attach a /dev/kpmod file to CPU 0's ring and map it
 *
 * until OP runs with no failure left to inject, or MAX.  Each failed OP must
 * be refused cleanly -- ENOMEM (or ENOBUFS when the failure hit netlink
 * itself), with an extended-ack message when the module refused it -- and
 * leave nothing half-made: the probe count, the buffer size, the triggers
 * are as before.  Then the same OP without a failure must work.  Leaks are
 * the harness's kmemleak scan.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "uapi/kpmod.h"
#include "nlfuzz.h"

static int nth_fd = -1;
/* What OP_ATTACH holds, let go by undo_attach() once no failure is pending. */
static int attach_fd = -1;
static void *maps[2];

static void undo_attach(void)
{
	if (maps[0])
		munmap(maps[0], getpagesize());
	if (maps[1])
		munmap(maps[1], 2 * getpagesize());
	maps[0] = maps[1] = NULL;
	if (attach_fd >= 0)
		close(attach_fd);
	attach_fd = -1;
}
/* do_op(): the request or its answer was lost (ENOBUFS on the socket). */
#define ENOBUFS_LOST	(-ENOBUFS)

/* From the next allocation on, the @n-th of this task fails (0: none). */
static void fail_nth(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth_fd, buf, len, 0) != len) {
		perror("failnth: /proc/self/fail-nth");
		exit(2);
	}
}

/* Whether the failure asked for was injected; no more are, after. */
static bool injected(void)
{
	char buf[16] = "";
	bool done;

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("failnth: /proc/self/fail-nth");
		exit(2);
	}
	done = atoi(buf) == 0;
	fail_nth(0);
	return done;
}

static struct nl_msg *probe_add_msg(void)
{
	struct kpmod_fetch_insn num[] = {
		{ .op = KPMOD_FOP_ARG, .param = 3 },
		{ .op = KPMOD_FOP_ST_RAW, .size = 8 },
		{ .op = KPMOD_FOP_END },
	};
	struct kpmod_fetch_insn str[] = {
		{ .op = KPMOD_FOP_ARG, .param = 2 },
		{ .op = KPMOD_FOP_ST_USTRING },
		{ .op = KPMOD_FOP_END },
	};
	struct nl_msg *m = new_msg(KPMOD_CMD_PROBE_ADD);
	struct nlattr *args, *arg;

	nla_put_string(m, KPMOD_A_PROBE_GROUP, "fail");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, "added");
	nla_put_u32(m, KPMOD_A_PROBE_KIND, KPMOD_PROBE_ENTRY);
	nla_put_string(m, KPMOD_A_PROBE_SYMBOL, "vfs_read");
	nla_put_string(m, KPMOD_A_PROBE_DEFINITION,
		       "p:fail/added vfs_read n=$arg3:u64 s=+0($arg2):ustring");
	args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
	arg = nla_nest_start(m, KPMOD_A_ARG);
	nla_put_string(m, KPMOD_ARG_A_NAME, "n");
	nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_U64);
	nla_put(m, KPMOD_ARG_A_PROG, sizeof(num), num);
	nla_nest_end(m, arg);
	arg = nla_nest_start(m, KPMOD_A_ARG);
	nla_put_string(m, KPMOD_ARG_A_NAME, "s");
	nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_USTRING);
	nla_put(m, KPMOD_ARG_A_PROG, sizeof(str), str);
	nla_nest_end(m, arg);
	nla_nest_end(m, args);
	return m;
}

static struct nl_msg *named_msg(uint8_t cmd, const char *event)
{
	struct nl_msg *m = new_msg(cmd);

	nla_put_string(m, KPMOD_A_PROBE_GROUP, "fail");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, event);
	return m;
}

/* n > 1 (field 0 is n): a filter of one predicate. */
static struct nl_msg *filter_msg(void)
{
	struct kpmod_filter_pred p = {
		.op = KPMOD_FILTER_GT, .field = 0, .target = 2, .val = 1,
	};
	struct nl_msg *m = named_msg(KPMOD_CMD_PROBE_FILTER, "base");

	nla_put_string(m, KPMOD_A_FILTER_TEXT, "n > 1");
	nla_put(m, KPMOD_A_FILTER_PROG, sizeof(p), &p);
	return m;
}

static struct nl_msg *hist_msg(void)
{
	struct kpmod_hist_field key = { .field = 0 }, val = { .field = 0 };
	struct nl_msg *m = named_msg(KPMOD_CMD_TRIGGER, "base");

	nla_put_u32(m, KPMOD_A_TRIGGER_TYPE, KPMOD_TRIGGER_HIST);
	nla_put_string(m, KPMOD_A_TRIGGER_TEXT, "hist:keys=n:vals=n");
	nla_put(m, KPMOD_A_HIST_KEYS, sizeof(key), &key);
	nla_put(m, KPMOD_A_HIST_VALS, sizeof(val), &val);
	nla_put_u32(m, KPMOD_A_HIST_SIZE, 2048);
	return m;
}

static uint64_t buf_size;

static struct nl_msg *buffer_msg(void)
{
	struct nl_msg *m = new_msg(KPMOD_CMD_BUFFER_SET);

	nla_put_u64(m, KPMOD_A_BUF_SIZE, buf_size);
	return m;
}

/* What STATUS says: probes registered, the buffer size; false if refused. */
static int st_probes;
static uint64_t st_buf;

static int on_status(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[KPMOD_A_MAX + 1];

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, KPMOD_A_MAX, NULL))
		return NL_OK;
	if (tb[KPMOD_A_NR_PROBES])
		st_probes = (int)nla_get_u32(tb[KPMOD_A_NR_PROBES]);
	if (tb[KPMOD_A_BUF_SIZE])
		st_buf = nla_get_u64(tb[KPMOD_A_BUF_SIZE]);
	return NL_OK;
}

static void status(void)
{
	st_probes = -1;
	st_buf = 0;
	if (send_msg_cb(new_msg(KPMOD_CMD_STATUS), on_status))
		gen_fail("status refused");
}

enum fail_op { OP_INSMOD, OP_ADD, OP_FILTER, OP_HIST, OP_BUFFER, OP_ATTACH };

/* A probe fail/base on vfs_read with n=$arg3, for filter and hist. */
static struct nl_msg *base_probe_msg(void)
{
	struct kpmod_fetch_insn num[] = {
		{ .op = KPMOD_FOP_ARG, .param = 3 },
		{ .op = KPMOD_FOP_ST_RAW, .size = 8 },
		{ .op = KPMOD_FOP_END },
	};
	struct nl_msg *m = named_msg(KPMOD_CMD_PROBE_ADD, "base");
	struct nlattr *args, *arg;

	nla_put_u32(m, KPMOD_A_PROBE_KIND, KPMOD_PROBE_ENTRY);
	nla_put_string(m, KPMOD_A_PROBE_SYMBOL, "vfs_read");
	args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
	arg = nla_nest_start(m, KPMOD_A_ARG);
	nla_put_string(m, KPMOD_ARG_A_NAME, "n");
	nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_U64);
	nla_put(m, KPMOD_ARG_A_PROG, sizeof(num), num);
	nla_nest_end(m, arg);
	nla_nest_end(m, args);
	return m;
}

/* Sets up what @op works on, with no failure injected. */
static void setup(enum fail_op op)
{
	clear_all();
	if (send_msg(new_msg(KPMOD_CMD_CLEAR)))
		gen_fail("clear refused");
	if ((op == OP_FILTER || op == OP_HIST) && send_msg(base_probe_msg()))
		gen_fail("the probe to work on could not be added");
}

/*
 * Does @op once (insmod: from @ko_fd, opened before the failure was set);
 * 0 or the errno; *@msg set if an extended ack came with it.
 */
static int do_op(enum fail_op op, int ko_fd, bool *msg)
{
	int ret;
	void *map;

	*msg = false;
	switch (op) {
	case OP_INSMOD:
		return syscall(SYS_finit_module, ko_fd, "", 0) ? errno : 0;
	case OP_ATTACH: {
		uint32_t cpu = 0;

		attach_fd = open("/dev/" KPMOD_DEVICE_NAME, O_RDWR | O_CLOEXEC);
		if (attach_fd < 0)
			return errno;
		ret = ioctl(attach_fd, KPMOD_IOC_ATTACH, &cpu) ? errno : 0;
		/* The consumer page writable, the rest read-only, as readers map. */
		if (!ret) {
			map = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED,
				   attach_fd, 0);
			if (map == MAP_FAILED)
				ret = errno;
			else
				maps[0] = map;
		}
		if (!ret) {
			map = mmap(NULL, 2 * getpagesize(), PROT_READ, MAP_SHARED, attach_fd,
				   getpagesize());
			if (map == MAP_FAILED)
				ret = errno;
			else
				maps[1] = map;
		}
		return ret;
	}
	case OP_ADD: ret = send_msg_raw(probe_add_msg()); break;
	case OP_FILTER: ret = send_msg_raw(filter_msg()); break;
	case OP_HIST: ret = send_msg_raw(hist_msg()); break;
	default: ret = send_msg_raw(buffer_msg()); break;
	}
	*msg = last_msg_text()[0] != '\0';
	/* A transport error: the request or its ack was lost. */
	return ret < 0 ? ENOBUFS_LOST : ret;
}

/* Whether the module is loaded: its genl family resolves. */
static bool module_loaded(void)
{
	return !access("/sys/module/kpmod", F_OK);
}

void run_failnth(const char *opname, unsigned int max, unsigned int step, const char *path)
{
	static const char *const names[] = { "insmod", "add", "filter", "hist", "buffer", "attach" };
	unsigned int n, i, tries = 0, failures = 0, with_msg = 0;
	enum fail_op op = OP_INSMOD;
	bool msg, done = false;
	int ret;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(opname, names[i]))
			op = i;
	if (strcmp(opname, names[op])) {
		fprintf(stderr, "failnth: unknown op '%s'\n", opname);
		exit(2);
	}
	nth_fd = open("/proc/self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0) {
		perror("failnth: /proc/self/fail-nth");
		exit(2);
	}
	if (!step)
		step = 1;
	for (n = 1; n <= max && !done; n += step) {
		int probes0 = 0, ko_fd = -1;
		uint64_t buf0 = 0;

		if (op == OP_INSMOD) {
			if (module_loaded() && system("rmmod kpmod"))
				gen_fail("rmmod");
			ko_fd = open(path, O_RDONLY | O_CLOEXEC);
			if (ko_fd < 0) {
				perror(path);
				exit(2);
			}
		} else {
			setup(op);
			status();
			probes0 = st_probes;
			buf0 = st_buf;
			buf_size = buf0 == 65536 ? 131072 : 65536;
		}
		fail_nth(n);
		ret = do_op(op, ko_fd, &msg);
		done = !injected();
		/* Unmapped and closed with no failure pending: munmap can fail too. */
		undo_attach();
		/* A lost request or answer leaves the socket in a state not known. */
		if (ret == ENOBUFS_LOST)
			reconnect();
		if (ko_fd >= 0)
			close(ko_fd);
		if (done && ret) {
			printf("FAIL %s: refused with errno %d (%s) and no failure injected\n",
			       opname, ret, strerror(ret < 0 ? -ret : ret));
			gen_fail("refused without a failure");
			break;
		}
		if (done)
			break;
		tries++;
		if (ret) {
			failures++;
			with_msg += msg;
			printf("# %s, allocation %u: errno %d%s%s\n", opname, n, ret,
			       msg ? ", " : "", msg ? last_msg_text() : "");
			if (ret != ENOMEM && ret != ENOBUFS && ret != EAGAIN && ret != ENOBUFS_LOST) {
				printf("FAIL %s, allocation %u failed: errno %d (%s), not ENOMEM\n",
				       opname, n, ret, strerror(ret < 0 ? -ret : ret));
				gen_fail("a failed allocation gave another errno");
			}
		}
		/* Nothing half-made: as before, or (it succeeded) as asked. */
		if (op == OP_INSMOD) {
			if (ret && module_loaded()) {
				printf("FAIL insmod, allocation %u: refused, but the module is loaded\n", n);
				gen_fail("half-loaded");
			}
			continue;
		}
		status();
		/* A lost answer: the request may or may not have been carried out. */
		if (op == OP_ADD && st_probes != probes0 + (ret ? 0 : 1) &&
		    !(ret == ENOBUFS_LOST && (st_probes == probes0 || st_probes == probes0 + 1))) {
			printf("FAIL add, allocation %u: errno %d, probes %d -> %d\n", n, ret,
			       probes0, st_probes);
			gen_fail("half-made add");
		}
		if (op == OP_BUFFER && ret && ret != ENOBUFS_LOST && st_buf != buf0) {
			printf("FAIL buffer, allocation %u: errno %d, size %llu -> %llu\n", n, ret,
			       (unsigned long long)buf0, (unsigned long long)st_buf);
			gen_fail("half-made resize");
		}
		if (op != OP_ADD && st_probes != probes0) {
			printf("FAIL %s, allocation %u: probes %d -> %d\n", opname, n, probes0,
			       st_probes);
			gen_fail("a probe went or came");
		}
	}
	printf("failnth %s: %u allocations failed (every %u), %u refused (%u with a message); %s\n",
	       opname, tries, step, failures, with_msg,
	       done ? "then it worked with none failing" : "stopped at the limit");
	if (!done)
		gen_fail("the limit came before the operation ran without a failure");
	if (op == OP_INSMOD && !module_loaded())
		gen_fail("the module is not loaded after the last insmod");
}
