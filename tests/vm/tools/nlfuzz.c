// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-nlfuzz: sends malformed and random generic netlink messages to the
 * kpmod module directly (not through the CLI, whose parser would refuse
 * them first) and checks that each is refused with the expected errno and
 * an extended-ack message, and that the module keeps working.
 *
 *   kpmod-nlfuzz cases          the fixed list of malformed requests
 *   kpmod-nlfuzz random N SEED  N random requests; afterwards no probe left
 *   kpmod-nlfuzz gen N SEED     N grammar-aware requests, mutated (nlgen.c);
 *                               afterwards no probe left
 *   kpmod-nlfuzz failnth OP MAX [STEP [KO]]  allocation failures in OP (nlfail.c)
 *   kpmod-nlfuzz flood N        N probe adds into a receive buffer too small
 *                               for their replies: no probe may stay
 *                               registered whose add did not succeed
 *
 * Prints one line per case and "N passed, N failed"; exits 1 on a failure.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "uapi/kpmod.h"
#include "nlfuzz.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static struct nl_sock *sk;
int family;
static int passed, failed;
static int last_err;
static int last_off;		/* NLMSGERR_ATTR_OFFS, or -1 */
static char last_msg[256];

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *err, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(*err);

	(void)who;
	(void)arg;
	last_err = -err->error;
	last_msg[0] = '\0';
	last_off = -1;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && len > 0 &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(err + 1), len, NULL)) {
		if (tb[NLMSGERR_ATTR_MSG])
			snprintf(last_msg, sizeof(last_msg), "%s",
				 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
		if (tb[NLMSGERR_ATTR_OFFS])
			last_off = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	}
	return NL_STOP;
}

static int on_skip(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 1;
	return NL_STOP;
}

/*
 * Sends @msg (consumed), its replies to @on_reply; returns the kernel's
 * errno, 0 on success, or a negative libnl error when the request or its
 * answer was lost.  A dump (NLM_F_DUMP) succeeds at its NLMSG_DONE.
 */
int send_msg_cb(struct nl_msg *msg, int (*on_reply)(struct nl_msg *, void *))
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret, acked = 0;

	last_err = -1;
	last_msg[0] = '\0';
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_reply ? on_reply : on_skip, NULL);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &acked);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_ack, &acked);
	ret = nl_send_auto(sk, msg);
	/* A reply comes before its ack: read until the ack or the error. */
	while (ret >= 0 && !acked && last_err < 0)
		ret = nl_recvmsgs(sk, cb);
	if (acked)
		last_err = 0;
	nl_cb_put(cb);
	nlmsg_free(msg);
	return last_err < 0 ? (ret < 0 ? ret : -1) : last_err;
}

int send_msg_raw(struct nl_msg *msg)
{
	return send_msg_cb(msg, NULL);
}

/* As send_msg_raw(), but a lost request or answer ends the program. */
int send_msg(struct nl_msg *msg)
{
	int ret = send_msg_raw(msg);

	if (ret < 0) {
		fprintf(stderr, "nlfuzz: transport error: %s\n", nl_geterror(ret));
		exit(2);
	}
	return ret;
}

const char *last_msg_text(void)
{
	return last_msg;
}

struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(65536);

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_ACK,
		    cmd, KPMOD_GENL_VERSION);
	return msg;
}

static void expect(const char *name, struct nl_msg *msg, int want)
{
	int got = send_msg(msg);
	/* The genl core itself refuses unknown commands, without a message. */
	bool ok = got == want && (!want || last_msg[0] || want == EOPNOTSUPP);

	printf("%s %s: errno %d (%s)%s%s%s\n", ok ? "ok" : "FAIL", name, got, strerror(got),
	       last_msg[0] ? " \"" : "", last_msg, last_msg[0] ? "\"" : "");
	if (!ok)
		printf("#   expected errno %d (%s) with an extended ack message\n", want,
		       strerror(want));
	ok ? passed++ : failed++;
}

static struct kpmod_fetch_insn I(uint8_t op, uint8_t size, uint32_t param, int64_t imm)
{
	struct kpmod_fetch_insn in = { .op = op, .size = size, .param = param, .imm = imm };

	return in;
}

/* One argument of @type fetched by @prog (@n insns), in ARGS. */
static void put_prog_arg(struct nl_msg *msg, uint32_t type, const struct kpmod_fetch_insn *prog,
			 int n)
{
	struct nlattr *args = nla_nest_start(msg, KPMOD_A_PROBE_ARGS);
	struct nlattr *arg = nla_nest_start(msg, KPMOD_A_ARG);

	nla_put_u32(msg, KPMOD_ARG_A_TYPE, type);
	nla_put(msg, KPMOD_ARG_A_PROG, n * sizeof(*prog), prog);
	nla_nest_end(msg, arg);
	nla_nest_end(msg, args);
}

/* A probe request on a real, quiet symbol, with one argument program. */
static struct nl_msg *probe_msg(const char *event, uint32_t kind, const char *sym,
				uint32_t type, const struct kpmod_fetch_insn *prog, int n)
{
	struct nl_msg *msg = new_msg(KPMOD_CMD_PROBE_ADD);

	nla_put_string(msg, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(msg, KPMOD_A_PROBE_EVENT, event);
	nla_put_u32(msg, KPMOD_A_PROBE_KIND, kind);
	nla_put_string(msg, KPMOD_A_PROBE_SYMBOL, sym);
	if (prog)
		put_prog_arg(msg, type, prog, n);
	return msg;
}

/* A uprobe request on @path at @offset (no offset attribute when ~0). */
static struct nl_msg *uprobe_msg(uint32_t kind, const char *path, uint64_t offset,
				 uint32_t type, const struct kpmod_fetch_insn *prog, int n)
{
	struct nl_msg *msg = new_msg(KPMOD_CMD_PROBE_ADD);

	nla_put_string(msg, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(msg, KPMOD_A_PROBE_EVENT, "u1");
	nla_put_u32(msg, KPMOD_A_PROBE_KIND, kind);
	if (path)
		nla_put_string(msg, KPMOD_A_PROBE_PATH, path);
	if (offset != ~0ULL)
		nla_put_u64(msg, KPMOD_A_PROBE_OFFSET, offset);
	if (prog)
		put_prog_arg(msg, type, prog, n);
	return msg;
}

/* uprobe requests the module must refuse, the probe count unchanged. */
static void uprobe_cases(void)
{
	struct kpmod_fetch_insn kread[] = {
		I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_DEREF, 0, 0, 0),
		I(KPMOD_FOP_ST_RAW, 8, 0, 0), I(KPMOD_FOP_END, 0, 0, 0),
	};
	struct kpmod_fetch_insn argn[] = {
		I(KPMOD_FOP_ARG, 0, 1, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0), I(KPMOD_FOP_END, 0, 0, 0),
	};
	struct kpmod_fetch_insn foffs[] = {
		I(KPMOD_FOP_FILE_OFFSET, 0, 0, 16), I(KPMOD_FOP_ST_UMEM, 8, 0, 0),
		I(KPMOD_FOP_END, 0, 0, 0),
	};
	static char longpath[KPMOD_MAX_PATH_LEN + 16];
	struct nl_msg *m;

	expect("a uprobe with a symbol, no file",
	       probe_msg("e1", KPMOD_PROBE_UPROBE, "vfs_read", 0, NULL, 0), EINVAL);
	expect("a uprobe without an offset", uprobe_msg(KPMOD_PROBE_UPROBE, "/bin/sh", ~0ULL, 0, NULL, 0),
	       EINVAL);
	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_string(m, KPMOD_A_PROBE_PATH, "/bin/sh");
	expect("a kprobe with a file", m, EINVAL);
	expect("a uprobe on no file", uprobe_msg(KPMOD_PROBE_UPROBE, "/nonexistent-kpmod", 0, 0, NULL, 0),
	       ENOENT);
	expect("a uprobe on a directory", uprobe_msg(KPMOD_PROBE_UPROBE, "/tmp", 0, 0, NULL, 0), EINVAL);
	expect("a uprobe past the file's end",
	       uprobe_msg(KPMOD_PROBE_URETPROBE, "/bin/sh", 0xfffff000, 0, NULL, 0), EINVAL);
	m = uprobe_msg(KPMOD_PROBE_UPROBE, "/bin/sh", 0, 0, NULL, 0);
	nla_put_u64(m, KPMOD_A_PROBE_REF_CTR_OFFSET, 1ULL << 40);
	expect("a semaphore offset past 32 bits", m, ERANGE);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	expect("a path over PATH_MAX", uprobe_msg(KPMOD_PROBE_UPROBE, longpath, 0, 0, NULL, 0), EINVAL);
	expect("a uprobe reading kernel memory",
	       uprobe_msg(KPMOD_PROBE_UPROBE, "/bin/sh", 0, KPMOD_T_U64, kread, 4), EINVAL);
	expect("a uprobe with $argN", uprobe_msg(KPMOD_PROBE_UPROBE, "/bin/sh", 0, KPMOD_T_U64, argn, 3),
	       EINVAL);
	expect("@+OFFSET on a kprobe",
	       probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64, foffs, 3), EINVAL);
}

/* A filter for fuzz/@event: @n predicates and @len bytes of strings. */
static struct nl_msg *filter_msg(const char *event, const struct kpmod_filter_pred *preds,
				 int n, const char *strs, int len)
{
	struct nl_msg *msg = new_msg(KPMOD_CMD_PROBE_FILTER);

	nla_put_string(msg, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(msg, KPMOD_A_PROBE_EVENT, event);
	nla_put_string(msg, KPMOD_A_FILTER_TEXT, "(fuzz)");
	nla_put(msg, KPMOD_A_FILTER_PROG, n * sizeof(*preds), preds);
	if (strs)
		nla_put(msg, KPMOD_A_FILTER_STRS, len, strs);
	return msg;
}

/* One predicate on field @field, going to the verdicts. */
static struct kpmod_filter_pred P(uint8_t op, uint16_t field, uint64_t val)
{
	struct kpmod_filter_pred p = { .op = op, .field = field, .target = 2, .val = val };

	return p;
}

/* Filters the module must refuse on fuzz/ok1 (one x64 argument). */
static void run_filter_cases(void)
{
	struct kpmod_filter_pred p[2];
	struct nl_msg *m;

	m = new_msg(KPMOD_CMD_PROBE_FILTER);
	nla_put_string(m, KPMOD_A_PROBE_EVENT, "ok1");
	expect("filter without a group", m, EINVAL);
	m = new_msg(KPMOD_CMD_PROBE_FILTER);
	nla_put_string(m, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, "ok1");
	nla_put_string(m, KPMOD_A_FILTER_TEXT, "x");
	expect("filter text without a program", m, EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, 0, 1);
	expect("filter on a missing event", filter_msg("nosuch", p, 1, NULL, 0), ENOENT);
	m = new_msg(KPMOD_CMD_PROBE_FILTER);
	nla_put_string(m, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, "ok1");
	nla_put_string(m, KPMOD_A_FILTER_TEXT, "x");
	nla_put(m, KPMOD_A_FILTER_PROG, sizeof(p[0]) - 1, p);
	expect("filter program of a partial entry", m, EINVAL);
	p[0].target = 0;
	expect("filter jumping back", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0].target = 3;
	expect("filter jumping past the verdicts", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, 1, 1);
	expect("filter on a field past the arguments", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, KPMOD_FIELD_PROBE_RET_IP, 1);
	expect("filter on a return field of an entry probe", filter_msg("ok1", p, 1, NULL, 0),
	       EINVAL);
	p[0] = P(0, 0, 1);
	expect("filter op 0", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(__KPMOD_FILTER_OP_MAX, 0, 1);
	expect("filter op past the last", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, 0, 1);
	p[0].flags = 0x80;
	expect("filter with unknown flags", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0].flags = KPMOD_FILTER_INVERT;
	expect("filter inverting a number", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, 0, 1);
	p[0].__reserved = 1;
	expect("filter with reserved bits", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_STR_FULL, 0, 0);
	p[0].len = 1;
	expect("string op on a number", filter_msg("ok1", p, 1, "a", 2), EINVAL);
	p[0] = P(KPMOD_FILTER_EQ, KPMOD_FIELD_COMM, 1);
	expect("number op on comm", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0] = P(KPMOD_FILTER_STR_GLOB, KPMOD_FIELD_COMM, 0);
	p[0].len = 2;
	expect("string operand past the strings", filter_msg("ok1", p, 1, "a", 2), EINVAL);
	p[0].len = 1;
	expect("string operand without its NUL", filter_msg("ok1", p, 1, "ab", 2), EINVAL);
	expect("string op without strings", filter_msg("ok1", p, 1, NULL, 0), EINVAL);
	p[0].str_off = 0xffffffff;
	expect("string offset at the top", filter_msg("ok1", p, 1, "a", 2), EINVAL);

	/* Valid: a number and a glob on comm, then cleared. */
	p[0] = P(KPMOD_FILTER_EQ, 0, 1);
	p[0].target = 1;	/* not equal: go on; equal: entry 1 */
	p[0].flags = 0;
	p[1] = P(KPMOD_FILTER_STR_GLOB, KPMOD_FIELD_COMM, 0);
	p[1].len = 2;
	p[1].target = 3;
	expect("valid filter", filter_msg("ok1", p, 2, "k*", 3), 0);
	m = new_msg(KPMOD_CMD_PROBE_FILTER);
	nla_put_string(m, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, "ok1");
	expect("filter cleared", m, 0);
}

/* A DEL, ENABLE or DISABLE naming @n GROUP/EVENT pairs ("" for any). */
static struct nl_msg *select_msg(uint8_t cmd, int n, const char *const *names, int *offsets)
{
	struct nl_msg *msg = new_msg(cmd);
	struct nlattr *all = nla_nest_start(msg, KPMOD_A_PROBE_SELECT), *one;
	int i;

	for (i = 0; i < n; i++) {
		one = nla_nest_start(msg, KPMOD_A_SELECTOR);
		if (offsets)
			offsets[i] = (int)((char *)one - (char *)nlmsg_hdr(msg));
		nla_put_string(msg, KPMOD_SEL_A_GROUP, names[2 * i]);
		nla_put_string(msg, KPMOD_SEL_A_EVENT, names[2 * i + 1]);
		nla_nest_end(msg, one);
	}
	nla_nest_end(msg, all);
	return msg;
}

/* How many probes are registered (STATUS). */
static int nprobes_reply;

static int on_status(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[KPMOD_A_MAX + 1];

	(void)arg;
	if (!genlmsg_parse(nlmsg_hdr(msg), 0, tb, KPMOD_A_MAX, NULL) && tb[KPMOD_A_NR_PROBES])
		nprobes_reply = (int)nla_get_u32(tb[KPMOD_A_NR_PROBES]);
	return NL_OK;
}

static int nr_probes(void)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct nl_msg *msg = new_msg(KPMOD_CMD_STATUS);

	nprobes_reply = -1;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_status, NULL);
	nl_send_auto(sk, msg);
	nl_recvmsgs(sk, cb);
	nl_wait_for_ack(sk);
	nl_cb_put(cb);
	nlmsg_free(msg);
	return nprobes_reply;
}

static void check(const char *name, bool ok, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok" : "FAIL", name, detail ? ": " : "", detail ? detail : "");
	ok ? passed++ : failed++;
}

void gen_fail(const char *why)
{
	check("gen", false, why);
}

#define PROG(...) ((const struct kpmod_fetch_insn[]){ __VA_ARGS__ }), \
	(int)(sizeof((const struct kpmod_fetch_insn[]){ __VA_ARGS__ }) / sizeof(struct kpmod_fetch_insn))

static const char *quiet_sym = "kpmod_fuzz_none";

/* A trigger on fuzz/@event: @type, @text, then the caller's attributes. */
static struct nl_msg *trigger_msg(const char *event, uint32_t type, const char *text)
{
	struct nl_msg *msg = new_msg(KPMOD_CMD_TRIGGER);

	nla_put_string(msg, KPMOD_A_PROBE_GROUP, "fuzz");
	nla_put_string(msg, KPMOD_A_PROBE_EVENT, event);
	if (type)
		nla_put_u32(msg, KPMOD_A_TRIGGER_TYPE, type);
	if (text)
		nla_put_string(msg, KPMOD_A_TRIGGER_TEXT, text);
	return msg;
}

static struct kpmod_hist_field HF(uint16_t field, uint16_t flags, uint64_t buckets)
{
	struct kpmod_hist_field f = { .field = field, .flags = flags, .buckets = buckets };

	return f;
}

/* A hist on fuzz/ok1 with @nk keys, @nv values and @size. */
static struct nl_msg *hist_msg(const char *text, const struct kpmod_hist_field *k, int nk,
			       const struct kpmod_hist_field *v, int nv, uint32_t size)
{
	struct nl_msg *m = trigger_msg("ok1", KPMOD_TRIGGER_HIST, text);

	if (k)
		nla_put(m, KPMOD_A_HIST_KEYS, nk * sizeof(*k), k);
	if (v)
		nla_put(m, KPMOD_A_HIST_VALS, nv * sizeof(*v), v);
	if (size)
		nla_put_u32(m, KPMOD_A_HIST_SIZE, size);
	return m;
}

static int ndumped;

static int on_dumped(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	ndumped++;
	return NL_OK;
}

/* How many probes a PROBE_GET dump lists, read as the CLI does; <0 if refused. */
static int dump_probes(void)
{
	struct nl_sock *ds = nl_socket_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	genl_connect(ds);
	nl_socket_set_msg_buf_size(ds, 65536);
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_DUMP,
		    KPMOD_CMD_PROBE_GET, KPMOD_GENL_VERSION);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_dumped, NULL);
	ndumped = 0;
	ret = nl_send_auto(ds, msg);
	if (ret >= 0)
		ret = nl_recvmsgs(ds, cb);
	nl_cb_put(cb);
	nlmsg_free(msg);
	nl_socket_free(ds);
	return ret < 0 ? ret : ndumped;
}

/*
 * A probe's triggers hold at most KPMOD_MAX_TRIGGERS_TEXT bytes of text:
 * two of the longest texts fit exactly, a third is refused, and the probe
 * with both still fits a message of the probes' dump.
 */
static void run_trigger_text_cases(void)
{
	static char big[KPMOD_MAX_TRIGGER_TEXT];
	struct nl_msg *m;
	int i;

	for (i = 0; i < 2; i++) {
		memset(big, 'a' + i, sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		expect("a trigger of the longest text", trigger_msg("ok1", KPMOD_TRIGGER_TRACEOFF,
								      big), 0);
	}
	expect("a trigger past the probe's text budget",
	       trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon"), ENOSPC);
	check("the probe with 8 KiB of triggers is dumped", dump_probes() == 1, NULL);
	for (i = 0; i < 2; i++) {
		memset(big, 'a' + i, sizeof(big) - 1);
		m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEOFF, big);
		nla_put_flag(m, KPMOD_A_TRIGGER_REMOVE);
		expect("remove a long trigger", m, 0);
	}
}

/* Triggers the module must refuse on fuzz/ok1 (one x64 argument), then valid ones. */
static void run_trigger_cases(void)
{
	struct kpmod_hist_field k[4], v[3];
	struct kpmod_filter_pred p = P(KPMOD_FILTER_EQ, 0, 1);
	struct nl_msg *m;
	char text[32], name[KPMOD_HIST_NAME_MAX + 1];
	int i;

	k[0] = HF(0, 0, 0);
	expect("trigger without a type", trigger_msg("ok1", 0, "t"), EINVAL);
	expect("trigger type past the last", trigger_msg("ok1", 99, "t"), ERANGE);
	expect("trigger with an empty text", trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, ""), EINVAL);
	expect("trigger on a missing event", trigger_msg("nosuch", KPMOD_TRIGGER_TRACEON, "t"),
	       ENOENT);
	expect("hist without keys", hist_msg("h", NULL, 0, NULL, 0, 128), EINVAL);
	k[1] = k[2] = k[3] = k[0];
	expect("hist with 4 keys", hist_msg("h", k, 4, NULL, 0, 128), ERANGE);
	m = trigger_msg("ok1", KPMOD_TRIGGER_HIST, "h");
	nla_put(m, KPMOD_A_HIST_KEYS, sizeof(k[0]) - 1, k);
	nla_put_u32(m, KPMOD_A_HIST_SIZE, 128);
	expect("hist key of a partial entry", m, EINVAL);
	expect("hist without a size", hist_msg("h", k, 1, NULL, 0, 0), EINVAL);
	expect("hist size not a power of two", hist_msg("h", k, 1, NULL, 0, 129), EINVAL);
	expect("hist size below 128", hist_msg("h", k, 1, NULL, 0, 64), EINVAL);
	expect("hist size above 131072", hist_msg("h", k, 1, NULL, 0, 262144), EINVAL);
	k[0] = HF(1, 0, 0);
	expect("hist key past the arguments", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(KPMOD_FIELD_PROBE_RET_IP, 0, 0);
	expect("hist key of a return field", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, 0, 0);
	k[0].__reserved = 1;
	expect("hist key with reserved bits", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, 0x0800, 0);
	expect("hist key with an unknown flag", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, KPMOD_HIST_F_LOG2 | KPMOD_HIST_F_BUCKETS, 4);
	expect("hist key log2 and buckets", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, KPMOD_HIST_F_BUCKETS, 0);
	expect("hist buckets of width 0", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, 0, 8);
	expect("hist width without buckets", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, KPMOD_HIST_F_EXECNAME, 0);
	expect("hist execname of an argument", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(KPMOD_FIELD_STACKTRACE, KPMOD_HIST_F_LOG2, 0);
	expect("hist stack with log2", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(KPMOD_FIELD_COMM, KPMOD_HIST_F_LOG2, 0);
	expect("hist string key with log2", hist_msg("h", k, 1, NULL, 0, 128), EINVAL);
	k[0] = HF(0, 0, 0);
	v[0] = v[1] = v[2] = HF(0, 0, 0);
	expect("hist with 3 values", hist_msg("h", k, 1, v, 3, 128), ERANGE);
	v[0] = HF(KPMOD_FIELD_COMM, 0, 0);
	expect("hist value of a string", hist_msg("h", k, 1, v, 1, 128), EINVAL);
	v[0] = HF(0, KPMOD_HIST_F_LOG2, 0);
	expect("hist value with log2", hist_msg("h", k, 1, v, 1, 128), EINVAL);
	v[0] = HF(0, KPMOD_HIST_F_MAX | KPMOD_HIST_F_MIN, 0);
	expect("hist value max and min", hist_msg("h", k, 1, v, 1, 128), EINVAL);
	m = hist_msg("h", k, 1, NULL, 0, 128);
	nla_put_u32(m, KPMOD_A_TRIGGER_COUNT, 3);
	expect("hist with a count", m, EINVAL);
	m = hist_msg("h", k, 1, NULL, 0, 128);
	nla_put_u32(m, KPMOD_A_HIST_ACTION, 9);
	expect("hist action past the last", m, ERANGE);
	m = hist_msg("h", k, 1, NULL, 0, 128);
	nla_put_u32(m, KPMOD_A_HIST_ACTION, KPMOD_HIST_CLEAR);
	expect("clear of a missing hist", m, ENOENT);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon");
	nla_put_u32(m, KPMOD_A_HIST_SIZE, 128);
	expect("traceon with a hist size", m, EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon");
	nla_put_string(m, KPMOD_A_TRIGGER_TARGET_EVENT, "ok1");
	expect("traceon with a target", m, EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon");
	nla_put_u32(m, KPMOD_A_TRIGGER_COUNT, 0x80000000);
	expect("count too large", m, ERANGE);
	expect("enable_event without a target",
	       trigger_msg("ok1", KPMOD_TRIGGER_ENABLE_EVENT, "enable_event"), EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_ENABLE_EVENT, "enable_event:fuzz:nosuch");
	nla_put_string(m, KPMOD_A_TRIGGER_TARGET_GROUP, "fuzz");
	nla_put_string(m, KPMOD_A_TRIGGER_TARGET_EVENT, "nosuch");
	expect("enable_event of a missing event", m, ENOENT);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEOFF, "traceoff");
	p.target = 0;
	nla_put_string(m, KPMOD_A_FILTER_TEXT, "(fuzz)");
	nla_put(m, KPMOD_A_FILTER_PROG, sizeof(p), &p);
	expect("trigger with a bad filter", m, EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEOFF, "traceoff");
	nla_put(m, KPMOD_A_FILTER_STRS, 2, "x");
	expect("trigger with filter strings and no program", m, EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEOFF, "traceoff");
	nla_put_flag(m, KPMOD_A_TRIGGER_REMOVE);
	expect("remove a missing trigger", m, ENOENT);
	m = trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon");
	nla_put_string(m, KPMOD_A_HIST_NAME, "n1");
	expect("traceon with a hist name", m, EINVAL);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	m = hist_msg("hist:name=n:keys=x", k, 1, NULL, 0, 128);
	nla_put_string(m, KPMOD_A_HIST_NAME, name);
	expect("hist name of 64 bytes", m, EINVAL);
	m = hist_msg("hist:name=:keys=x", k, 1, NULL, 0, 128);
	nla_put_string(m, KPMOD_A_HIST_NAME, "");
	expect("hist name empty", m, EINVAL);
	check("the refusals left the probe alone", nr_probes() == 1, NULL);

	/* Named: texts alike but for size= are one hist; another text of the name refused. */
	m = hist_msg("hist:name=n1:keys=x:size=128", k, 1, NULL, 0, 128);
	nla_put_string(m, KPMOD_A_HIST_NAME, "n1");
	expect("a named hist", m, 0);
	m = hist_msg("hist:name=n1:keys=x:size=256", k, 1, NULL, 0, 256);
	nla_put_string(m, KPMOD_A_HIST_NAME, "n1");
	expect("the named hist again, another size", m, EEXIST);
	m = hist_msg("hist:name=n1:keys=x.log2:size=128", k, 1, NULL, 0, 128);
	nla_put_string(m, KPMOD_A_HIST_NAME, "n1");
	expect("a named hist of another text", m, EINVAL);
	m = trigger_msg("ok1", KPMOD_TRIGGER_HIST, "hist:name=n1:keys=x:size=512");
	nla_put_flag(m, KPMOD_A_TRIGGER_REMOVE);
	expect("remove the named hist by another size", m, 0);

	/* Valid: 16 hists, a 17th refused; the probe busy until they go. */
	for (i = 0; i < KPMOD_MAX_TRIGGERS; i++) {
		snprintf(text, sizeof(text), "h%d", i);
		k[0] = HF(i % 2 ? 0 : KPMOD_FIELD_PID, i % 4 == 1 ? KPMOD_HIST_F_LOG2 : 0, 0);
		v[0] = HF(0, i % 3 == 1 ? KPMOD_HIST_F_MAX : 0, 0);
		expect("valid hist", hist_msg(text, k, 1, v, 1, 128 << (i % 4)), 0);
	}
	expect("a 17th trigger", trigger_msg("ok1", KPMOD_TRIGGER_TRACEON, "traceon"), ENOSPC);
	expect("the same hist again", hist_msg("h0", k, 1, v, 1, 128), EEXIST);
	expect("delete a probe with triggers", select_msg(KPMOD_CMD_PROBE_DEL, 1,
		(const char *const[]){ "fuzz", "ok1" }, NULL), EBUSY);
	for (i = 0; i < KPMOD_MAX_TRIGGERS; i++) {
		snprintf(text, sizeof(text), "h%d", i);
		m = trigger_msg("ok1", KPMOD_TRIGGER_HIST, text);
		nla_put_flag(m, KPMOD_A_TRIGGER_REMOVE);
		expect("remove a hist", m, 0);
	}
	run_trigger_text_cases();
}

static void run_cases(void)
{
	struct nl_msg *m;
	struct nlattr *args, *arg;
	char big[300];
	int i;

	expect("add without attributes", new_msg(KPMOD_CMD_PROBE_ADD), EINVAL);

	m = new_msg(KPMOD_CMD_PROBE_ADD);
	nla_put_u32(m, KPMOD_A_PROBE_GROUP, 0x41414141);	/* no NUL */
	expect("group not a string", m, EINVAL);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	m = new_msg(KPMOD_CMD_PROBE_ADD);
	nla_put_string(m, KPMOD_A_PROBE_GROUP, "g");
	nla_put_string(m, KPMOD_A_PROBE_EVENT, big);
	expect("oversize event name", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_URETPROBE + 1, "vfs_read", 0, NULL, 0);
	expect("kind out of range", m, ERANGE);

	uprobe_cases();

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_u64(m, KPMOD_A_PROBE_ADDR, 0xffffffff81000000ULL);
	expect("symbol and address both", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_u8(m, KPMOD_A_PROBE_KIND + 100, 1);
	expect("unknown attribute", m, EINVAL);

	m = probe_msg("bad-name", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	expect("event name not an identifier", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, quiet_sym, 0, NULL, 0);
	expect("unknown symbol", m, ENOENT);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_u64(m, KPMOD_A_PROBE_OFFSET, 1);
#if defined(__aarch64__)
	/* arm64 kprobes refuse a misaligned address with EINVAL, as for kprobe_events. */
	expect("offset inside an instruction", m, EINVAL);
#else
	expect("offset inside an instruction", m, EILSEQ);
#endif

	m = probe_msg("e1", KPMOD_PROBE_RETURN, "vfs_read", 0, NULL, 0);
	nla_put_u64(m, KPMOD_A_PROBE_OFFSET, 4);
	expect("return probe at an offset", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_u32(m, KPMOD_A_PROBE_MAXACTIVE, 5);
	expect("maxactive on an entry probe", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_RETURN, "vfs_read", 0, NULL, 0);
	nla_put_u32(m, KPMOD_A_PROBE_MAXACTIVE, 5000);
	expect("maxactive above 4096", m, ERANGE);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
	nla_put_u32(m, KPMOD_A_PROBE_ID, 1);
	nla_nest_end(m, args);
	expect("ARGS holding a non-ARG", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
	arg = nla_nest_start(m, KPMOD_A_ARG);
	nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_U64);
	nla_nest_end(m, arg);
	nla_nest_end(m, args);
	expect("argument without a program", m, EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		      PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
			   I(KPMOD_FOP_END, 0, 0, 0)));
	/* Truncate the program by 3 bytes: not a whole number of insns. */
	{
		struct nlattr *prog = nlmsg_find_attr(nlmsg_hdr(m), GENL_HDRLEN, KPMOD_A_PROBE_ARGS);

		prog = nla_find(nla_data(prog), nla_len(prog), KPMOD_A_ARG);
		prog = nla_find(nla_data(prog), nla_len(prog), KPMOD_ARG_A_PROG);
		prog->nla_len -= 3;
	}
	expect("program length not whole insns", m, EINVAL);

	expect("unknown op", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(99, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0), I(KPMOD_FOP_END, 0, 0, 0))),
	       EINVAL);
	expect("register out of range", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 999, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("$retval on an entry probe", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read",
		KPMOD_T_U64, PROG(I(KPMOD_FOP_RETVAL, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
				  I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("no END", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
		     I(KPMOD_FOP_ST_RAW, 8, 0, 0))), EINVAL);
	expect("store size 3", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 3, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("type and store size differ", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read",
		KPMOD_T_U32, PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
				  I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("deref of $comm", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_STRING,
		PROG(I(KPMOD_FOP_COMM, 0, 0, 0), I(KPMOD_FOP_DEREF, 0, 0, 0),
		     I(KPMOD_FOP_ST_STRING, 0, 0, 0), I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("string store with a u64 type", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read",
		KPMOD_T_U64, PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_STRING, 0, 0, 0),
				  I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("store missing", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_DEREF, 0, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("two loads", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_REG, 0, 1, 0),
		     I(KPMOD_FOP_ST_RAW, 8, 0, 0), I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("array without count", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U8,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_MEM, 1, 0, 0),
		     I(KPMOD_FOP_LP_ARRAY, 0, 4, 0), I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("bitfield shifts out of range", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read",
		KPMOD_T_BITFIELD, PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 4, 0, 0),
				       { .op = KPMOD_FOP_MOD_BF, .size = 4, .lshift = 40, .rshift = 50 },
				       I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("unused field set", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 77), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);
	expect("$arg0", probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_U64,
		PROG(I(KPMOD_FOP_ARG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), EINVAL);

	m = probe_msg("e1", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
	for (i = 0; i < KPMOD_MAX_ARGS + 1; i++) {
		struct kpmod_fetch_insn p[] = { I(KPMOD_FOP_IMM, 0, 0, i), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
						I(KPMOD_FOP_END, 0, 0, 0) };

		arg = nla_nest_start(m, KPMOD_A_ARG);
		nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_U64);
		nla_put(m, KPMOD_ARG_A_PROG, sizeof(p), p);
		nla_nest_end(m, arg);
	}
	nla_nest_end(m, args);
	expect("129 arguments", m, E2BIG);

	m = new_msg(KPMOD_CMD_BUFFER_SET);
	nla_put_u64(m, KPMOD_A_BUF_SIZE, 100000);
	expect("buffer size not a power of two", m, EINVAL);
	m = new_msg(KPMOD_CMD_BUFFER_SET);
	nla_put_u64(m, KPMOD_A_BUF_SIZE, 4096);
	expect("buffer size below 64K", m, EINVAL);
	m = new_msg(KPMOD_CMD_BUFFER_SET);
	nla_put_u32(m, KPMOD_A_BUF_MODE, 7);
	expect("buffer mode out of range", m, ERANGE);
	expect("buffer with nothing to set", new_msg(KPMOD_CMD_BUFFER_SET), EINVAL);
	/* 256 MiB on each of 2+ CPUs: over a quarter of the guests' 1 GiB. */
	m = new_msg(KPMOD_CMD_BUFFER_SET);
	nla_put_u64(m, KPMOD_A_BUF_SIZE, KPMOD_BUF_SIZE_MAX);
	expect("buffer over the module's limit", m, E2BIG);

	{
		static const char *const nope[] = { "fuzz", "nope" };
		static const char *const bare[] = { "", "nope" };

		expect("delete a missing event", select_msg(KPMOD_CMD_PROBE_DEL, 1, nope, NULL),
		       ENOENT);
		expect("enable a missing event", select_msg(KPMOD_CMD_PROBE_ENABLE, 1, bare, NULL),
		       ENOENT);
	}
	expect("delete without a selection", new_msg(KPMOD_CMD_PROBE_DEL), EINVAL);
	expect("disable without a selection", new_msg(KPMOD_CMD_PROBE_DISABLE), EINVAL);
	m = new_msg(KPMOD_CMD_PROBE_DEL);
	args = nla_nest_start(m, KPMOD_A_PROBE_SELECT);
	nla_put_u32(m, KPMOD_A_SELECTOR, 7);	/* not a nest */
	nla_nest_end(m, args);
	expect("selector not a nest", m, EINVAL);
	m = new_msg(KPMOD_CMD_PROBE_ENABLE);
	args = nla_nest_start(m, KPMOD_A_SELECTOR);
	nla_put_string(m, KPMOD_SEL_A_EVENT, "x");
	nla_nest_end(m, args);
	expect("selector outside a selection", m, EINVAL);
	expect("unknown command", new_msg(__KPMOD_CMD_MAX + 3), EOPNOTSUPP);
	{
		uint64_t a[KPMOD_SYM_BATCH + 1] = { 0, ~0ULL };

		expect("name no address", new_msg(KPMOD_CMD_SYM_RESOLVE), EINVAL);
		m = new_msg(KPMOD_CMD_SYM_RESOLVE);
		nla_put(m, KPMOD_A_SYM_ADDRS, 7, a);
		expect("name part of an address", m, EINVAL);
		m = new_msg(KPMOD_CMD_SYM_RESOLVE);
		nla_put(m, KPMOD_A_SYM_ADDRS, sizeof(a), a);
		expect("name more addresses than a batch", m, ERANGE);
		m = new_msg(KPMOD_CMD_SYM_RESOLVE);
		nla_put(m, KPMOD_A_SYM_ADDRS, 2 * sizeof(a[0]), a);
		expect("name two addresses that are no symbol", m, 0);
	}

	/* A 64-bit offset is refused, not cut to 32 bits (vfs_read+0). */
	m = probe_msg("big", KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
	nla_put_u64(m, KPMOD_A_PROBE_OFFSET, 0x100000000ULL);
	expect("offset above 32 bits", m, ERANGE);
	check("offset above 32 bits registered nothing", nr_probes() == 0, NULL);

	/* A valid probe through the same path, then a duplicate. */
	expect("valid probe", probe_msg("ok1", KPMOD_PROBE_ENTRY, "vfs_read", KPMOD_T_X64,
		PROG(I(KPMOD_FOP_REG, 0, 0, 0), I(KPMOD_FOP_ST_RAW, 8, 0, 0),
		     I(KPMOD_FOP_END, 0, 0, 0))), 0);
	m = probe_msg("ok1", KPMOD_PROBE_ENTRY, "vfs_write", 0, NULL, 0);
	expect("duplicate event", m, EEXIST);
	{
		/* All or none, and the error points at the selector that failed. */
		static const char *const two[] = { "fuzz", "ok1", "fuzz", "typo" };
		int off[2];
		char why[64];

		expect("enable a present and a missing event",
		       select_msg(KPMOD_CMD_PROBE_ENABLE, 2, two, off), ENOENT);
		snprintf(why, sizeof(why), "offset %d, selector 2 at %d", last_off, off[1]);
		check("the error names the missing one", last_off == off[1], why);
		expect("delete both: one is missing", select_msg(KPMOD_CMD_PROBE_DEL, 2, two, NULL),
		       ENOENT);
		check("the present one is still there", nr_probes() == 1, NULL);
		run_filter_cases();
		run_trigger_cases();
		expect("delete it", select_msg(KPMOD_CMD_PROBE_DEL, 1, two, NULL), 0);
	}
}

/*
 * Adds @n probes without reading a reply, into a receive buffer too small
 * for them: the module cannot send most replies.  A probe whose reply was
 * lost must not stay registered, since its caller cannot know it exists.
 */
static void run_flood(int n)
{
	unsigned char *replied = calloc(n + 1, 1);
	unsigned char buf[65536];
	int i, rcv = 0, replies = 0, stray = 0, registered;
	unsigned int seq0 = 0;
	char detail[160];

	setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	nl_socket_set_nonblocking(sk);
	for (i = 0; i < n; i++) {
		char ev[32];
		struct nl_msg *m;

		snprintf(ev, sizeof(ev), "flood%d", i);
		m = probe_msg(ev, KPMOD_PROBE_ENTRY, "vfs_read", 0, NULL, 0);
		nl_send_auto(sk, m);
		if (!i)
			seq0 = nlmsg_hdr(m)->nlmsg_seq;
		nlmsg_free(m);
	}
	/* Replies that made it: a PROBE_ADD message carries its request's seq. */
	for (;;) {
		int len = recv(nl_socket_get_fd(sk), buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0 && errno == ENOBUFS)
			continue;	/* the overrun itself: read on */
		if (len <= 0)
			break;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			unsigned int k = h->nlmsg_seq - seq0;

			if (h->nlmsg_type == family && k < (unsigned int)n) {
				replied[k] = 1;
				replies++;
			}
		}
	}
	nl_socket_free(sk);
	sk = nl_socket_alloc();
	genl_connect(sk);
	/* Every registered flood probe must be one whose reply arrived. */
	registered = nr_probes();
	stray = registered - replies;
	snprintf(detail, sizeof(detail), "%d adds, %d replies, %d registered without a reply",
		 n, replies, stray);
	check("flood: no probe without its reply", stray == 0 && replies < n, detail);
	for (i = 0; i < n; i++) {
		char ev[32];
		const char *names[2] = { "fuzz", ev };

		snprintf(ev, sizeof(ev), "flood%d", i);
		if (!send_msg(select_msg(KPMOD_CMD_PROBE_DEL, 1, names, NULL)) && !replied[i])
			check("flood: a probe without its reply was registered", 0, ev);
	}
	check("flood: all gone", nr_probes() == 0, NULL);
	free(replied);
}

/* Random requests: random commands, attribute types, lengths and bytes. */
static void run_random(int n, unsigned int seed)
{
	int i, j, refused = 0, accepted = 0;

	srand(seed);
	for (i = 0; i < n; i++) {
		uint8_t cmd = 1 + rand() % (__KPMOD_CMD_MAX + 1);
		struct nl_msg *m;
		int nattrs = rand() % 6;

		/* Never enable, clear or stop tracing at random: keep it to refusals. */
		if (cmd == KPMOD_CMD_PROBE_ENABLE || cmd == KPMOD_CMD_CLEAR ||
		    cmd == KPMOD_CMD_TRACING)
			cmd = KPMOD_CMD_PROBE_ADD;
		m = new_msg(cmd);
		for (j = 0; j < nattrs; j++) {
			unsigned char buf[512];
			int len = rand() % sizeof(buf), k, type = rand() % (KPMOD_A_MAX + 3);

			for (k = 0; k < len; k++)
				buf[k] = rand();
			if (type == KPMOD_A_PROBE_ENABLED || type == KPMOD_A_PROBE_ADDR)
				type = KPMOD_A_PROBE_SYMBOL;
			nla_put(m, type, len, buf);
		}
		if (send_msg(m))
			refused++;
		else
			accepted++;
	}
	printf("random: %d requests (seed %u): %d refused, %d accepted\n", n, seed,
	       refused, accepted);
}

/* A new socket: after a lost request or answer, the old one's state is not known. */
void reconnect(void)
{
	int one = 1;

	if (sk)
		nl_socket_free(sk);
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "nlfuzz: cannot connect\n");
		exit(2);
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Room for a dump's replies (gen sends PROBE_GET and HIST_GET). */
	nl_socket_set_msg_buf_size(sk, 65536);
}

int main(int argc, char **argv)
{

	if (argc < 2 || (strcmp(argv[1], "cases") &&
			 ((strcmp(argv[1], "random") && strcmp(argv[1], "gen") &&
			   strcmp(argv[1], "failnth")) || argc < 4) &&
			 (strcmp(argv[1], "flood") || argc < 3))) {
		fprintf(stderr, "usage: kpmod-nlfuzz cases | random N SEED | gen N SEED | flood N | failnth OP MAX [STEP [KO]]\n");
		return 2;
	}
	reconnect();
	/* Loading the module is what failnth insmod tries. */
	if (!strcmp(argv[1], "failnth") && !strcmp(argv[2], "insmod")) {
		run_failnth(argv[2], atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 1,
			    argc > 5 ? argv[5] : "/kpmod/kpmod.ko");
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	family = genl_ctrl_resolve(sk, KPMOD_GENL_NAME);
	if (family < 0) {
		fprintf(stderr, "nlfuzz: kpmod is not loaded\n");
		return 2;
	}
	if (!strcmp(argv[1], "cases"))
		run_cases();
	else if (!strcmp(argv[1], "flood"))
		run_flood(atoi(argv[2]));
	else if (!strcmp(argv[1], "gen"))
		run_gen(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	else if (!strcmp(argv[1], "failnth"))
		run_failnth(argv[2], atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 1, NULL);
	else
		run_random(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	/* The module must still answer. */
	expect("status still answers", new_msg(KPMOD_CMD_STATUS), 0);
	printf("%d passed, %d failed\n", passed, failed);
	nl_socket_free(sk);
	return failed ? 1 : 0;
}
