// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-nlfuzz gen N SEED: grammar-aware requests.  Each is built as the
 * module expects it -- every command, with the attributes it takes, fetch
 * programs of real ops, filter predicates, hist fields, selectors -- and
 * then changed in 0 to 3 places: an attribute dropped, doubled, cut short,
 * grown, retyped or with a byte flipped, a number at a boundary.  Probes go
 * into the group "fuzz" on a few symbols, and some are enabled: the
 * programs the module accepted run in its handler while this process reads
 * and opens files.  Every 256 requests, and at the end, a CLEAR.
 *
 * Prints what each command got (accepted / refused) and fails if any
 * command was never accepted: a generator that only makes refusals tests
 * only the policies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "uapi/kpmod.h"
#include "nlfuzz.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)rand() % n : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static uint64_t rnd64(void)
{
	return ((uint64_t)rand() << 62) ^ ((uint64_t)rand() << 31) ^ (uint64_t)rand();
}

/* Usually in [lo, hi]; one time in 8 a boundary, one in 16 anything. */
static uint64_t num(uint64_t lo, uint64_t hi)
{
	static const uint64_t edge[] = {
		0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 4095,
		4096, 4097, 16384, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL,
	};

	if (!rnd(8))
		return edge[rnd(N_ELEMS(edge))];
	if (!rnd(16) || hi - lo == ~0ULL)
		return rnd64();
	return lo + rnd64() % (hi - lo + 1);
}

/* Mutations left to make in the message being built. */
static int mutations;

/* nla_put, or with a mutation pending, now and then a changed attribute. */
static void put(struct nl_msg *m, int type, const void *data, int len)
{
	unsigned char buf[1024];

	if (len > (int)sizeof(buf) - 64)
		len = sizeof(buf) - 64;
	if (len)
		memcpy(buf, data, len);
	if (mutations && !rnd(3)) {
		mutations--;
		switch (rnd(7)) {
		case 0:		/* dropped */
			return;
		case 1:		/* doubled */
			nla_put(m, type, len, buf);
			break;
		case 2:		/* cut short */
			len = rnd(len + 1);
			break;
		case 3: {	/* grown */
			int more = 1 + rnd(63), i;

			for (i = 0; i < more; i++)
				buf[len + i] = rnd(256);
			len += more;
			break;
		}
		case 4:		/* retyped */
			type = rnd(KPMOD_A_MAX + 3);
			break;
		case 5:		/* a byte flipped */
			if (len)
				buf[rnd(len)] ^= 1 << rnd(8);
			break;
		default:	/* a string without its NUL */
			if (len && !buf[len - 1])
				len--;
			break;
		}
	}
	nla_put(m, type, len, buf);
}

static void put_u32(struct nl_msg *m, int type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

static void put_u64(struct nl_msg *m, int type, uint64_t v)
{
	put(m, type, &v, sizeof(v));
}

static void put_str(struct nl_msg *m, int type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

static struct nlattr *nest(struct nl_msg *m, int type)
{
	if (mutations && !rnd(8)) {
		mutations--;
		type = rnd(KPMOD_A_MAX + 3);
	}
	return nla_nest_start(m, type);
}

/* Where probes go: quiet symbols, busy ones this process calls, bad names. */
static const char *const symbols[] = {
	"vfs_read", "vfs_write", "do_sys_openat2", "find_task_by_vpid", "ksys_read",
	"kpmod_fuzz_none", "", "vfs_read+4", "kpmod:kpmod_ring_commit",
};
static const char *const groups[] = { "fuzz", "fuzz", "fuzz", "kprobes", "", "f/z" };

/* Half the time one of the probes seed_probes() adds. */
static const char *event_name(void)
{
	static char name[16];

	snprintf(name, sizeof(name), "e%u", rnd(2) ? rnd(4) : rnd(16));
	return name;
}

static void put_probe_name(struct nl_msg *m)
{
	put_str(m, KPMOD_A_PROBE_GROUP, rnd(5) ? "fuzz" : groups[rnd(N_ELEMS(groups))]);
	put_str(m, KPMOD_A_PROBE_EVENT, event_name());
}

/*
 * A fetch program: a load, derefs, a store, maybe a bitfield or an array;
 * *@type a type that fits its store, most of the time.
 */
static int gen_prog(struct kpmod_fetch_insn *p, int max, uint32_t *type)
{
	static const uint8_t loads[] = {
		KPMOD_FOP_REG, KPMOD_FOP_STACK, KPMOD_FOP_STACKP, KPMOD_FOP_RETVAL,
		KPMOD_FOP_IMM, KPMOD_FOP_COMM, KPMOD_FOP_ARG, KPMOD_FOP_DATA,
		KPMOD_FOP_DURATION,
	};
	static const uint8_t stores[] = {
		KPMOD_FOP_ST_RAW, KPMOD_FOP_ST_MEM, KPMOD_FOP_ST_UMEM,
		KPMOD_FOP_ST_STRING, KPMOD_FOP_ST_USTRING,
	};
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	int n = 0, i, derefs = rnd(4);

	memset(p, 0, max * sizeof(*p));
	p[n].op = loads[rnd(N_ELEMS(loads))];
	/* Only the fields the op uses: the module wants the others zero. */
	switch (p[n].op) {
	case KPMOD_FOP_REG: p[n].param = num(0, 20); break;
	case KPMOD_FOP_STACK: p[n].param = num(0, 8); break;
	case KPMOD_FOP_ARG: p[n].param = num(1, 6); break;
	case KPMOD_FOP_IMM: p[n].imm = rnd(2) ? (int64_t)num(0, 64) : (int64_t)rnd64(); break;
	case KPMOD_FOP_COMM:
	case KPMOD_FOP_DATA:
	case KPMOD_FOP_DURATION:
		derefs = 0;
		break;
	default: break;
	}
	n++;
	for (i = 0; i < derefs && n < max - 4; i++, n++) {
		p[n].op = rnd(4) ? KPMOD_FOP_DEREF : KPMOD_FOP_UDEREF;
		p[n].imm = (int64_t)num(0, 256) - 128;
	}
	p[n].op = stores[rnd(N_ELEMS(stores))];
	if (p[0].op == KPMOD_FOP_COMM || p[0].op == KPMOD_FOP_DATA)
		p[n].op = KPMOD_FOP_ST_STRING;
	if (p[n].op == KPMOD_FOP_ST_RAW || p[n].op == KPMOD_FOP_ST_MEM ||
	    p[n].op == KPMOD_FOP_ST_UMEM)
		p[n].size = sizes[rnd(N_ELEMS(sizes))];
	if (p[n].op != KPMOD_FOP_ST_RAW && rnd(2))
		p[n].imm = (int64_t)num(0, 64);
	switch (p[n].op) {
	case KPMOD_FOP_ST_STRING: *type = KPMOD_T_STRING; break;
	case KPMOD_FOP_ST_USTRING: *type = KPMOD_T_USTRING; break;
	default:
		/* u, s or x of the store's size: U8..U64 are 1..4, S +4, X +8. */
		*type = KPMOD_T_U8 + 4 * rnd(3) +
			(p[n].size == 1 ? 0 : p[n].size == 2 ? 1 : p[n].size == 4 ? 2 : 3);
		break;
	}
	if (!rnd(8))
		*type = num(KPMOD_T_U8, KPMOD_T_BITFIELD);
	n++;
	if (!rnd(6)) {
		p[n].op = KPMOD_FOP_MOD_BF;
		p[n].size = sizes[rnd(N_ELEMS(sizes))];
		p[n].lshift = num(0, 63);
		p[n].rshift = num(0, 63);
		n++;
	}
	if (!rnd(8)) {
		p[n].op = KPMOD_FOP_LP_ARRAY;
		p[n].param = num(1, KPMOD_MAX_ARRAY_LEN);
		n++;
	}
	/* Now and then an op or a field from nowhere. */
	if (!rnd(10)) {
		i = rnd(n);
		switch (rnd(3)) {
		case 0: p[i].op = num(0, __KPMOD_FOP_MAX + 2); break;
		case 1: p[i].size = num(0, 16); break;
		default: p[i].param = num(0, 64); break;
		}
	}
	p[n++].op = KPMOD_FOP_END;
	return n;
}

static void gen_add(struct nl_msg *m)
{
	struct kpmod_fetch_insn prog[KPMOD_MAX_INSNS + 2];
	struct nlattr *args, *arg;
	unsigned int i, nargs = rnd(5);
	char name[16];

	put_probe_name(m);
	put_u32(m, KPMOD_A_PROBE_KIND, rnd(4) ? 1 + rnd(2) : num(0, 4));
	put_str(m, KPMOD_A_PROBE_SYMBOL, symbols[rnd(N_ELEMS(symbols))]);
	if (!rnd(6))
		put_u64(m, KPMOD_A_PROBE_OFFSET, num(0, 16));
	if (!rnd(8))
		put_u32(m, KPMOD_A_PROBE_MAXACTIVE, num(0, KPMOD_MAX_MAXACTIVE + 1));
	if (!rnd(4))
		put_str(m, KPMOD_A_PROBE_DEFINITION, "p:fuzz/x vfs_read");
	if (!nargs)
		return;
	args = nest(m, KPMOD_A_PROBE_ARGS);
	for (i = 0; i < nargs; i++) {
		uint32_t type;
		int n = gen_prog(prog, N_ELEMS(prog), &type);

		arg = nest(m, KPMOD_A_ARG);
		snprintf(name, sizeof(name), "a%u", i);
		put_str(m, KPMOD_ARG_A_NAME, name);
		put_u32(m, KPMOD_ARG_A_TYPE, type);
		if (!rnd(6))
			put_u32(m, KPMOD_ARG_A_COUNT, num(0, KPMOD_MAX_ARRAY_LEN + 1));
		put(m, KPMOD_ARG_A_PROG, prog, n * sizeof(prog[0]));
		if (prog[0].op == KPMOD_FOP_DATA || !rnd(10))
			put_str(m, KPMOD_ARG_A_DATA, rnd(2) ? "imm" : "");
		nla_nest_end(m, arg);
	}
	nla_nest_end(m, args);
}

/* Selectors: events of the pool, globs, the empty name (any). */
static void gen_select(struct nl_msg *m)
{
	static const char *const events[] = { "", "", "e*", "*", "x" };
	struct nlattr *all = nest(m, KPMOD_A_PROBE_SELECT), *one;
	unsigned int i, n = 1 + rnd(2);

	for (i = 0; i < n; i++) {
		one = nest(m, KPMOD_A_SELECTOR);
		put_str(m, KPMOD_SEL_A_GROUP, rnd(4) ? "fuzz" : groups[rnd(N_ELEMS(groups))]);
		put_str(m, KPMOD_SEL_A_EVENT, rnd(2) ? event_name() : events[rnd(N_ELEMS(events))]);
		nla_nest_end(m, one);
	}
	nla_nest_end(m, all);
}

/* A field a filter or a hist names: an argument, or one of the common ones. */
static uint16_t gen_field(void)
{
	if (rnd(2))
		return num(0, 5);
	if (!rnd(8))
		return KPMOD_FIELD_STACKTRACE;
	return num(KPMOD_FIELD_COMM, __KPMOD_FIELD_MAX);
}

/* A filter program and its strings, in @m. */
static void gen_filter_prog(struct nl_msg *m)
{
	struct kpmod_filter_pred preds[12];
	char strs[128];
	unsigned int i, n = 1 + rnd(rnd(2) ? 3 : N_ELEMS(preds)), slen = 0;

	memset(preds, 0, sizeof(preds));
	for (i = 0; i < n; i++) {
		struct kpmod_filter_pred *p = &preds[i];

		/* Mostly a field every event has, with an op of its kind. */
		if (rnd(4)) {
			p->field = KPMOD_FIELD_COMM + rnd(4);
			p->op = p->field == KPMOD_FIELD_COMM ?
				num(KPMOD_FILTER_STR_FULL, KPMOD_FILTER_STR_GLOB) :
				num(KPMOD_FILTER_EQ, KPMOD_FILTER_BAND);
		} else {
			p->field = gen_field();
			p->op = num(KPMOD_FILTER_EQ, __KPMOD_FILTER_OP_MAX - 1);
		}
		p->flags = rnd(4) ? rnd(4) : num(0, 255);
		/* Forward jumps, to the verdicts just past the end, or anywhere. */
		p->target = rnd(8) ? i + 1 + rnd(n + 1 - i) : num(0, 65535);
		p->val = num(0, 4096);
		if (p->op >= KPMOD_FILTER_STR_FULL && slen < sizeof(strs) - 16) {
			unsigned int len = rnd(12), k;

			p->str_off = slen;
			p->len = len;
			for (k = 0; k < len; k++)
				strs[slen + k] = "ab*?[]!\\c"[rnd(9)];
			strs[slen + len] = '\0';
			slen += len + 1;
			if (!rnd(8))
				p->str_off = num(0, 256);
			if (!rnd(8))
				p->len = num(0, 300);
		}
		if (!rnd(20))
			p->__reserved = 1;
	}
	put(m, KPMOD_A_FILTER_PROG, preds, n * sizeof(preds[0]));
	if (slen || !rnd(4))
		put(m, KPMOD_A_FILTER_STRS, strs, slen);
}

static void gen_filter(struct nl_msg *m)
{
	put_probe_name(m);
	put_str(m, KPMOD_A_FILTER_TEXT, rnd(2) ? "(fuzz)" : "a0 == 1");
	if (rnd(5))
		gen_filter_prog(m);
}

static void gen_hist_fields(struct nl_msg *m, int type, unsigned int max)
{
	struct kpmod_hist_field f[KPMOD_HIST_MAX_KEYS + 2];
	static const uint16_t flags[] = {
		0, KPMOD_HIST_F_LOG2, KPMOD_HIST_F_BUCKETS, KPMOD_HIST_F_EXECNAME,
		KPMOD_HIST_F_MAX, KPMOD_HIST_F_MIN,
	};
	unsigned int i, n = rnd(4) ? 1 + rnd(max) : rnd(max + 2);

	memset(f, 0, sizeof(f));
	for (i = 0; i < n; i++) {
		f[i].field = rnd(2) ? KPMOD_FIELD_COMM + 1 + rnd(2) : gen_field();
		f[i].flags = rnd(3) ? 0 : rnd(6) ? flags[rnd(N_ELEMS(flags))] : num(0, 0xffff);
		f[i].buckets = num(0, 1000);
		if (!rnd(20))
			f[i].__reserved = 1;
	}
	put(m, type, f, n * sizeof(f[0]));
}

static void gen_trigger(struct nl_msg *m)
{
	static const struct { uint32_t type; const char *text; } kinds[] = {
		{ KPMOD_TRIGGER_TRACEON, "traceon" },
		{ KPMOD_TRIGGER_TRACEOFF, "traceoff" },
		{ KPMOD_TRIGGER_HIST, "hist:keys=common_pid" },
		{ KPMOD_TRIGGER_HIST, "hist:keys=common_pid.execname:vals=a1" },
		{ KPMOD_TRIGGER_HIST, "hist:keys=cpu:name=fz" },
		{ KPMOD_TRIGGER_ENABLE_EVENT, "enable_event:fuzz:e1" },
		{ KPMOD_TRIGGER_DISABLE_EVENT, "disable_event:fuzz:e2" },
		{ KPMOD_TRIGGER_STACKTRACE, "stacktrace" },
		{ KPMOD_TRIGGER_SNAPSHOT, "snapshot" },
		{ KPMOD_TRIGGER_TRACEON, "" },
	};
	unsigned int k = rnd(N_ELEMS(kinds));
	uint32_t type = rnd(8) ? kinds[k].type : num(0, __KPMOD_TRIGGER_MAX);

	put_probe_name(m);
	put_u32(m, KPMOD_A_TRIGGER_TYPE, type);
	put_str(m, KPMOD_A_TRIGGER_TEXT, kinds[k].text);
	if (rnd(2))
		put_u32(m, KPMOD_A_TRIGGER_COUNT, rnd(2) ? num(1, 8) : KPMOD_TRIGGER_UNLIMITED);
	if (!rnd(5))
		put(m, KPMOD_A_TRIGGER_REMOVE, NULL, 0);
	if (type == KPMOD_TRIGGER_ENABLE_EVENT || type == KPMOD_TRIGGER_DISABLE_EVENT ||
	    !rnd(10)) {
		put_str(m, KPMOD_A_TRIGGER_TARGET_GROUP, rnd(4) ? "fuzz" : groups[rnd(N_ELEMS(groups))]);
		put_str(m, KPMOD_A_TRIGGER_TARGET_EVENT, event_name());
	}
	if (type == KPMOD_TRIGGER_HIST || !rnd(10)) {
		gen_hist_fields(m, KPMOD_A_HIST_KEYS, KPMOD_HIST_MAX_KEYS);
		if (rnd(2))
			gen_hist_fields(m, KPMOD_A_HIST_VALS, KPMOD_HIST_MAX_VALS);
		if (rnd(2))
			put_u32(m, KPMOD_A_HIST_SIZE, rnd(3) ? 1u << num(3, 14) : num(0, 1 << 20));
		if (!rnd(4))
			put_u32(m, KPMOD_A_HIST_ACTION, num(KPMOD_HIST_NONE, KPMOD_HIST_CLEAR + 1));
		if (!rnd(4))
			put_str(m, KPMOD_A_HIST_NAME, rnd(2) ? "fz" : "fz2");
	}
	if (!rnd(4)) {
		put_str(m, KPMOD_A_FILTER_TEXT, "common_pid > 1");
		gen_filter_prog(m);
	}
}

static void gen_buffer(struct nl_msg *m)
{
	/* Small sizes only when valid: a guest has little memory to spare. */
	if (rnd(3))
		put_u64(m, KPMOD_A_BUF_SIZE, rnd(3) ? 4096ULL << rnd(5) : num(0, 1 << 20));
	if (rnd(2))
		put_u32(m, KPMOD_A_BUF_MODE, num(KPMOD_BUF_DISCARD, KPMOD_BUF_OVERWRITE));
}

/* The triggers a PROBE_GET dump listed: what removing each takes. */
struct gen_trigger {
	char group[KPMOD_MAX_NAME_LEN], event[KPMOD_MAX_NAME_LEN];
	uint32_t type;
	char text[KPMOD_MAX_TRIGGER_TEXT], filter[KPMOD_MAX_FILTER_TEXT];
	int has_filter;
};

static struct gen_trigger listed[256];
static int nlisted;

static void copy_str(char *dst, size_t size, struct nlattr *a)
{
	snprintf(dst, size, "%.*s", a ? nla_len(a) : 0, a ? (const char *)nla_data(a) : "");
}

static int on_probe(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[KPMOD_A_MAX + 1], *t, *tt[KPMOD_TRIG_A_MAX + 1];
	int rem;

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, KPMOD_A_MAX, NULL) || !tb[KPMOD_A_TRIGGERS])
		return NL_OK;
	nla_for_each_nested(t, tb[KPMOD_A_TRIGGERS], rem) {
		struct gen_trigger *g = &listed[nlisted];

		if (nlisted == (int)N_ELEMS(listed) ||
		    nla_parse_nested(tt, KPMOD_TRIG_A_MAX, t, NULL) || !tt[KPMOD_TRIG_A_TYPE])
			continue;
		copy_str(g->group, sizeof(g->group), tb[KPMOD_A_PROBE_GROUP]);
		copy_str(g->event, sizeof(g->event), tb[KPMOD_A_PROBE_EVENT]);
		g->type = nla_get_u32(tt[KPMOD_TRIG_A_TYPE]);
		copy_str(g->text, sizeof(g->text), tt[KPMOD_TRIG_A_TEXT]);
		g->has_filter = !!tt[KPMOD_TRIG_A_FILTER];
		copy_str(g->filter, sizeof(g->filter), tt[KPMOD_TRIG_A_FILTER]);
		nlisted++;
	}
	return NL_OK;
}

/*
 * Every trigger removed (as the dump lists them), every probe disabled:
 * a clear refuses probes that are enabled or have triggers, as the kernel.
 */
void clear_all(void)
{
	struct nl_msg *m = new_msg(KPMOD_CMD_PROBE_GET);
	struct nlattr *all, *one;
	int i;

	nlmsg_hdr(m)->nlmsg_flags |= NLM_F_DUMP;
	nlisted = 0;
	send_msg_cb(m, on_probe);
	for (i = 0; i < nlisted; i++) {
		m = new_msg(KPMOD_CMD_TRIGGER);
		nla_put_string(m, KPMOD_A_PROBE_GROUP, listed[i].group);
		nla_put_string(m, KPMOD_A_PROBE_EVENT, listed[i].event);
		nla_put_u32(m, KPMOD_A_TRIGGER_TYPE, listed[i].type);
		nla_put_string(m, KPMOD_A_TRIGGER_TEXT, listed[i].text);
		if (listed[i].has_filter)
			nla_put_string(m, KPMOD_A_FILTER_TEXT, listed[i].filter);
		nla_put_flag(m, KPMOD_A_TRIGGER_REMOVE);
		send_msg(m);
	}
	m = new_msg(KPMOD_CMD_PROBE_DISABLE);
	all = nla_nest_start(m, KPMOD_A_PROBE_SELECT);
	one = nla_nest_start(m, KPMOD_A_SELECTOR);
	nla_put_string(m, KPMOD_SEL_A_GROUP, "");
	nla_put_string(m, KPMOD_SEL_A_EVENT, "");
	nla_nest_end(m, one);
	nla_nest_end(m, all);
	send_msg(m);
}

/*
 * fuzz/e0..e3 on vfs_read, with a number and a string: after each clear,
 * so that filters and triggers find events with arguments to work on.
 */
static void seed_probes(void)
{
	struct kpmod_fetch_insn num[] = {
		{ .op = KPMOD_FOP_ARG, .param = 3 },
		{ .op = KPMOD_FOP_ST_RAW, .size = 8 },
		{ .op = KPMOD_FOP_END },
	};
	struct kpmod_fetch_insn str[] = {
		{ .op = KPMOD_FOP_COMM },
		{ .op = KPMOD_FOP_ST_STRING },
		{ .op = KPMOD_FOP_END },
	};
	char name[8];
	int e;

	for (e = 0; e < 4; e++) {
		struct nl_msg *m = new_msg(KPMOD_CMD_PROBE_ADD);
		struct nlattr *args, *arg;

		snprintf(name, sizeof(name), "e%d", e);
		nla_put_string(m, KPMOD_A_PROBE_GROUP, "fuzz");
		nla_put_string(m, KPMOD_A_PROBE_EVENT, name);
		nla_put_u32(m, KPMOD_A_PROBE_KIND, e & 1 ? KPMOD_PROBE_RETURN : KPMOD_PROBE_ENTRY);
		nla_put_string(m, KPMOD_A_PROBE_SYMBOL, "vfs_read");
		args = nla_nest_start(m, KPMOD_A_PROBE_ARGS);
		arg = nla_nest_start(m, KPMOD_A_ARG);
		nla_put_string(m, KPMOD_ARG_A_NAME, "a0");
		nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_U64);
		nla_put(m, KPMOD_ARG_A_PROG, sizeof(num), num);
		nla_nest_end(m, arg);
		arg = nla_nest_start(m, KPMOD_A_ARG);
		nla_put_string(m, KPMOD_ARG_A_NAME, "a1");
		nla_put_u32(m, KPMOD_ARG_A_TYPE, KPMOD_T_STRING);
		nla_put(m, KPMOD_ARG_A_PROG, sizeof(str), str);
		nla_nest_end(m, arg);
		nla_nest_end(m, args);
		if (send_msg(m))
			gen_fail("a probe to work on was refused");
	}
}

/* Calls that enabled probes on symbols[] see. */
static void workload(void)
{
	char buf[256];
	int fd = open("/proc/self/stat", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			perror("read");
		close(fd);
	}
}

/* Addresses to name: in the kernel half of the address space, or any value. */
static void gen_syms(struct nl_msg *m)
{
	uint64_t a[KPMOD_SYM_BATCH + 2];
	unsigned int n = (unsigned int)num(1, KPMOD_SYM_BATCH), i;

	if (n > N_ELEMS(a))
		n = N_ELEMS(a);
	for (i = 0; i < n; i++)
		a[i] = rnd(2) ? 0xffff800000000000ULL + rnd64() % (1ULL << 47) : num(0, ~0ULL);
	put(m, KPMOD_A_SYM_ADDRS, a, n * sizeof(a[0]));
}

void run_gen(int n, unsigned int seed)
{
	static const uint8_t cmds[] = {
		KPMOD_CMD_PROBE_ADD, KPMOD_CMD_PROBE_ADD, KPMOD_CMD_PROBE_ADD,
		KPMOD_CMD_PROBE_DEL, KPMOD_CMD_PROBE_ENABLE, KPMOD_CMD_PROBE_DISABLE,
		KPMOD_CMD_PROBE_GET, KPMOD_CMD_PROBE_FILTER, KPMOD_CMD_PROBE_FILTER,
		KPMOD_CMD_TRIGGER, KPMOD_CMD_TRIGGER, KPMOD_CMD_TRIGGER,
		KPMOD_CMD_HIST_GET, KPMOD_CMD_BUFFER_SET, KPMOD_CMD_TRACING,
		KPMOD_CMD_STATUS, KPMOD_CMD_CLEAR, KPMOD_CMD_SYM_RESOLVE,
	};
	int accepted[__KPMOD_CMD_MAX + 1] = { 0 }, refused[__KPMOD_CMD_MAX + 1] = { 0 };
	static char why[__KPMOD_CMD_MAX + 1][160];
	/* Time spent on each command, clears included: where a run's time goes. */
	uint64_t spent[__KPMOD_CMD_MAX + 1] = { 0 }, t0, began = now_ns();
	struct nl_msg *m;
	int i, c, planned, never = 0;

	srand(seed);
	for (i = 0; i < n; i++) {
		uint8_t cmd = cmds[rnd(N_ELEMS(cmds))];

		/* CLEAR only now and then, so that probes pile up between. */
		if (cmd == KPMOD_CMD_CLEAR && (i % 256))
			cmd = KPMOD_CMD_PROBE_ADD;
		if (!(i % 256))
			cmd = KPMOD_CMD_CLEAR;
		planned = mutations = rnd(2) ? 0 : 1 + rnd(3);
		t0 = now_ns();
		if (cmd == KPMOD_CMD_CLEAR)
			clear_all();
		m = new_msg(cmd);
		if (cmd == KPMOD_CMD_CLEAR && !planned) {
			/* Cleared in full, then the probes to work on again. */
			if (send_msg(m))
				gen_fail("a clear after clear_all() was refused");
			seed_probes();
			accepted[cmd]++;
			spent[cmd] += now_ns() - t0;
			continue;
		}
		switch (cmd) {
		case KPMOD_CMD_PROBE_ADD: gen_add(m); break;
		case KPMOD_CMD_PROBE_DEL:
		case KPMOD_CMD_PROBE_ENABLE:
		case KPMOD_CMD_PROBE_DISABLE: gen_select(m); break;
		case KPMOD_CMD_PROBE_GET:
		case KPMOD_CMD_HIST_GET:
			/* Dumps only; now and then one without the flag. */
			if (rnd(8))
				nlmsg_hdr(m)->nlmsg_flags |= NLM_F_DUMP;
			put_probe_name(m);
			break;
		case KPMOD_CMD_PROBE_FILTER: gen_filter(m); break;
		case KPMOD_CMD_TRIGGER: gen_trigger(m); break;
		case KPMOD_CMD_BUFFER_SET: gen_buffer(m); break;
		case KPMOD_CMD_TRACING: put_u32(m, KPMOD_A_TRACING_ON, num(0, 2)); break;
		case KPMOD_CMD_SYM_RESOLVE: gen_syms(m); break;
		default: break;
		}
		c = send_msg(m);
		if (c) {
			/* The reason of the last unmutated refusal, for the summary. */
			if (!planned || !why[cmd][0])
				snprintf(why[cmd], sizeof(why[cmd]), "%s: %s", strerror(c),
					 last_msg_text());
			refused[cmd]++;
		} else {
			accepted[cmd]++;
		}
		spent[cmd] += now_ns() - t0;
		if (!(i % 32))
			workload();
	}
	clear_all();
	c = send_msg(new_msg(KPMOD_CMD_CLEAR));
	if (c) {
		printf("gen: the closing clear: errno %d (%s) \"%s\"\n", c, strerror(c),
		       last_msg_text());
		gen_fail("the closing clear was refused");
	}
	m = new_msg(KPMOD_CMD_TRACING);
	nla_put_u32(m, KPMOD_A_TRACING_ON, 1);
	if (send_msg(m))
		gen_fail("tracing could not be turned on again");
	printf("gen: %d requests (seed %u) in %.1f s\n", n, seed,
	       (double)(now_ns() - began) / 1e9);
	for (c = 1; c < __KPMOD_CMD_MAX; c++) {
		printf("gen: command %d: %d accepted, %d refused, %.1f s%s%s\n", c, accepted[c],
		       refused[c], (double)spent[c] / 1e9, why[c][0] ? "; last: " : "", why[c]);
		if (n >= 2000 && !accepted[c])
			never++;
	}
	if (never)
		gen_fail("a command was never accepted: the generator makes only refusals of it");
}
