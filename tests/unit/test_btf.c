// SPDX-License-Identifier: GPL-2.0
/*
 * Names from BTF (probe_btf.c, kbtf.c) against the BTF pahole made of
 * btf_fixture.c: what each name compiles to, the types the kernel picks,
 * the generated names, $arg* and $argN, and the kernel's BTF errors with
 * their carets (its selftests' kprobe_syntax_errors.tc lines, on the
 * fixture's functions).
 */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "btf_fixture.h"
#include "fetch_text.h"
#include "kbtf.h"
#include "probe_def.h"
#include "suites.h"

#ifndef KP_BTF_FIXTURE
#error "KP_BTF_FIXTURE: the object pahole gave BTF (tests/unit/Makefile)"
#endif

static struct kp_probe_def def;
static struct kp_parse_err perr;
static enum kp_def_op op;

static const struct kp_arch *x86(void)
{
	return kp_arch_by_name("x86_64");
}

static int parse_with(struct kp_btf *kb, const char *text)
{
	return kp_parse_def_btf(text, x86(), NULL, NULL, kb, &op, &def, &perr);
}

static const struct kp_probe_def *parse(const char *text)
{
	struct kp_btf *kb = kp_btf_new(KP_BTF_FIXTURE);
	int ret;

	ck_assert_ptr_nonnull(kb);
	ret = parse_with(kb, text);
	ck_assert_msg(ret == 0, "'%s' refused: %s at %u", text, perr.msg, perr.pos);
	kp_btf_free(kb);
	return &def;
}

/* Argument @i as kp_fetch_text() writes it, and its name and type. */
static void check_arg(const struct kp_probe_def *d, unsigned int i, const char *name,
		      const char *compiled, const char *text)
{
	char buf[256];

	ck_assert_uint_lt(i, d->nargs);
	ck_assert_str_eq(d->args[i].name, name);
	kp_fetch_text(&d->args[i], x86(), buf, sizeof(buf));
	ck_assert_msg(!strcmp(buf, compiled), "arg %u (%s): '%s', want '%s'", i,
		      d->args[i].text, buf, compiled);
	if (text)
		ck_assert_str_eq(d->args[i].text, text);
}

/* The definition with '^' before the byte the error points at. */
static void check_err_kb(struct kp_btf *kb, const char *caret_text, int code)
{
	char text[512];
	const char *c = strchr(caret_text, '^');
	size_t pos;

	ck_assert_ptr_nonnull(c);
	pos = (size_t)(c - caret_text);
	memcpy(text, caret_text, pos);
	strcpy(text + pos, c + 1);
	ck_assert_msg(parse_with(kb, text) == -1, "'%s' accepted", text);
	ck_assert_msg(perr.code == code, "'%s': code %d (%s), want %d (%s)", text, perr.code,
		      perr.msg, code, kp_parse_strerror(code));
	ck_assert_msg(perr.pos == pos, "'%s': %s at %u, want %zu", text, perr.msg, perr.pos, pos);
}

static void check_err(const char *caret_text, int code)
{
	struct kp_btf *kb = kp_btf_new(KP_BTF_FIXTURE);

	check_err_kb(kb, caret_text, code);
	kp_btf_free(kb);
}

START_TEST(parameters_and_members)
{
	const struct kp_probe_def *d;
	char want[128];

	d = parse("p:b/rd fx_vfs_read count file buf:x32 pos");
	check_arg(d, 0, "count", "$arg3:u64", "count=count");
	check_arg(d, 1, "file", "$arg1:x64", "file=file");
	check_arg(d, 2, "buf", "$arg2:x32", "buf=buf:x32");
	check_arg(d, 3, "pos", "$arg4:x64", NULL);
	ck_assert(d->args[0].btf);
	ck_assert_str_eq(d->definition,
			 "p:b/rd fx_vfs_read count=count file=file buf=buf:x32 pos=pos");

	/* ->, and . through embedded structures and an anonymous union */
	d = parse("p:b/m fx_vfs_read file->f_pos l=file->f_path.dentry->d_name.len "
		  "n=file->f_path.dentry->d_name.name:string i=file->f_path.dentry->d_iname:string");
	ck_assert_str_eq(d->args[0].name, "arg1");
	snprintf(want, sizeof(want), "+0x%zx($arg1):s64", offsetof(struct fx_file, f_pos));
	check_arg(d, 0, "arg1", want, "arg1=file->f_pos");
	snprintf(want, sizeof(want), "+0x%zx(+0x%zx($arg1)):u32",
		 offsetof(struct fx_dentry, d_name) + offsetof(struct qstr, len),
		 offsetof(struct fx_file, f_path) + offsetof(struct fx_path, dentry));
	check_arg(d, 1, "l", want, NULL);
	snprintf(want, sizeof(want), "+0x0(+0x%zx(+0x%zx($arg1))):string",
		 offsetof(struct fx_dentry, d_name) + offsetof(struct qstr, name),
		 offsetof(struct fx_file, f_path) + offsetof(struct fx_path, dentry));
	check_arg(d, 2, "n", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx(+0x%zx($arg1)):string",
		 offsetof(struct fx_dentry, d_iname),
		 offsetof(struct fx_file, f_path) + offsetof(struct fx_path, dentry));
	check_arg(d, 3, "i", want, NULL);

	/* The types the kernel picks: enum s32, bool u8, char * x64, signed char s8 */
	d = parse("p:b/t fx_state_of t->state wait nice t->comm t");
	snprintf(want, sizeof(want), "+0x%zx($arg1):s32", offsetof(struct fx_task, state));
	check_arg(d, 0, "arg1", want, NULL);
	check_arg(d, 1, "wait", "$arg2:u8", NULL);
	check_arg(d, 2, "nice", "$arg3:s8", NULL);
	/* A char[] untyped: its first 8 bytes, as the kernel (x64) */
	snprintf(want, sizeof(want), "+0x%zx($arg1):x64", offsetof(struct fx_task, comm));
	check_arg(d, 3, "arg4", want, NULL);
	check_arg(d, 4, "t", "$arg1:x64", NULL);

	/* A dereference around a name: no BTF type any more. */
	d = parse("p:b/d fx_vfs_read +0(file) +8(file->f_ppath):u32");
	check_arg(d, 0, "arg1", "+0x0($arg1):x64", NULL);
	snprintf(want, sizeof(want), "+0x8(+0x%zx($arg1)):u32", offsetof(struct fx_file, f_ppath));
	check_arg(d, 1, "arg2", want, NULL);

	/* Written back without names too: an immediate's offset kept */
	d = parse("p:b/w fx_vfs_read a=+8(\\0x1000):string b=\\0x1000:string c=+0(%di):u32[2]");
	check_arg(d, 0, "a", "+0x8(\\0x1000):string", NULL);
	check_arg(d, 1, "b", "\\0x1000:string", NULL);
	check_arg(d, 2, "c", "+0x0(%di):u32[2]", NULL);

	/* The same name through a pointer member, twice */
	d = parse("p:b/pp fx_state_of t->parent->parent->pid");
	snprintf(want, sizeof(want), "+0x%zx(+0x%zx(+0x%zx($arg1))):s32",
		 offsetof(struct fx_task, pid), offsetof(struct fx_task, parent),
		 offsetof(struct fx_task, parent));
	check_arg(d, 0, "arg1", want, NULL);
}
END_TEST

START_TEST(bitfields_strings_and_returns)
{
	const struct kp_probe_def *d;
	size_t unit = offsetof(struct fx_file, f_path) + sizeof(struct fx_path);
	char want[128];

	/* Bitfields: the bits of their unit, shifted out of the store */
	d = parse("p:b/bf fx_vfs_read file->f_mode file->f_kind file->f_wide file->f_byte "
		  "file->f_mode:x8");
	snprintf(want, sizeof(want), "+0x%zx($arg1):b4@0/32", unit);
	check_arg(d, 0, "arg1", want, NULL);
	ck_assert_uint_eq(d->args[0].type, KPMOD_T_U32);
	snprintf(want, sizeof(want), "+0x%zx($arg1):b3@4/32", unit);
	check_arg(d, 1, "arg2", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx($arg1):b20@7/32", unit);
	check_arg(d, 2, "arg3", want, NULL);
	/* 8 bits on a byte boundary: no shifts, as the kernel */
	snprintf(want, sizeof(want), "+0x%zx($arg1):u8", unit + 4);
	check_arg(d, 3, "arg4", want, NULL);
	/* A type given: the kernel reads it as it is, no bitfield */
	snprintf(want, sizeof(want), "+0x%zx($arg1):x8", unit);
	check_arg(d, 4, "arg5", want, NULL);

	/* char * and char[] as strings; ustring a user one */
	d = parse("p:b/s fx_vfs_read buf:string file->f_name:string u=buf:ustring");
	check_arg(d, 0, "buf", "+0x0($arg2):string", "buf=buf:string");
	snprintf(want, sizeof(want), "+0x0(+0x%zx($arg1)):string", offsetof(struct fx_file, f_name));
	check_arg(d, 1, "arg2", want, NULL);
	check_arg(d, 2, "u", "+0x0($arg2):ustring", NULL);

	/* $retval typed; members of what it points to; parameters at the entry */
	d = parse("r:b/r fx_vfs_read $retval count pos");
	check_arg(d, 0, "arg1", "$retval:s64", "arg1=$retval");
	check_arg(d, 1, "count", "$arg3:u64", NULL);
	d = parse("r:b/r2 fx_state_of $retval t->pid");
	check_arg(d, 0, "arg1", "$retval:s32", NULL);
	d = parse("r:b/r3 fx_state_of $retval:x32");
	check_arg(d, 0, "arg1", "$retval:x32", NULL);
}
END_TEST

START_TEST(arg_star_and_bare_argn)
{
	const struct kp_probe_def *d;

	d = parse("p:b/all fx_vfs_read $arg*");
	ck_assert_uint_eq(d->nargs, 4);
	check_arg(d, 0, "file", "$arg1:x64", "file=file");
	check_arg(d, 1, "buf", "$arg2:x64", "buf=buf");
	check_arg(d, 2, "count", "$arg3:u64", "count=count");
	check_arg(d, 3, "pos", "$arg4:x64", "pos=pos");
	ck_assert_str_eq(d->definition,
			 "p:b/all fx_vfs_read file=file buf=buf count=count pos=pos");

	/* With others around it, and in a return probe (taken at the entry) */
	d = parse("r:b/rall fx_state_of x=$retval $arg* c=$comm");
	ck_assert_uint_eq(d->nargs, 5);
	check_arg(d, 1, "t", "$arg1:x64", NULL);
	check_arg(d, 3, "nice", "$arg3:s8", NULL);
	check_arg(d, 4, "c", "$comm:string", NULL);

	/* A bare $argN is the Nth parameter by name, its type kept if given */
	d = parse("p:b/n fx_vfs_read $arg3 $arg2:x32");
	check_arg(d, 0, "count", "$arg3:u64", "count=count");
	check_arg(d, 1, "buf", "$arg2:x32", "buf=buf:x32");
	/* Named, it stays as it always was */
	d = parse("p:b/k fx_vfs_read c=$arg3");
	check_arg(d, 0, "c", "$arg3:x64", NULL);
	ck_assert(!d->args[0].btf);

	/* No parameters: $arg* is refused, a definition without it is not */
	check_err("p fx_noargs ^$arg*", KP_E_NOSUP_BTFARG);
	d = parse("r fx_noargs $retval");
	check_arg(d, 0, "arg1", "$retval:s32", NULL);
}
END_TEST

/* tools/testing/selftests/ftrace/test.d/kprobe/kprobe_syntax_errors.tc, BTF part */
START_TEST(the_kernels_btf_errors)
{
	/* The selftests say BAD_VAR_ARGS; 6.12's and 7.3's say BAD_VAR. */
	check_err("p fx_vfs_read args=^$arg*", KP_E_BAD_VAR);
	check_err("p fx_vfs_read +0(^$arg*)", KP_E_BAD_VAR);
	check_err("p fx_vfs_read $arg* ^$arg*", KP_E_DOUBLE_ARGS);
	check_err("p fx_vfs_read+8 ^$arg*", KP_E_NOFENTRY_ARGS);
	check_err("p fx_vfs_read ^hoge", KP_E_NO_BTFARG);
	check_err("p fx_kfree ^$arg10", KP_E_NO_BTFARG);
	check_err("r fx_kfree ^$retval", KP_E_NO_RETVAL);
	/* btfarg.tc and the parser's own */
	check_err("p fx_vfs_read file.^f_pos", KP_E_NOSUP_DAT_ARG);
	check_err("p fx_vfs_read file^-f_pos", KP_E_BAD_HYPHEN);
	check_err("p fx_vfs_read file->^nosuch", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read file->f_pos->^x", KP_E_NO_PTR_STRCT);
	check_err("p fx_vfs_read count->^x", KP_E_NO_PTR_STRCT);
	/* 6.12 and 7.3 take it where BTF id 8 is an unsigned char: their
	 * btf_type_is_char_ptr() reads an integer's size as a type id. */
	check_err("p fx_vfs_read ^count:string", KP_E_BAD_TYPE4STR);
	check_err("p fx_vfs_read file->^f_pos:string", KP_E_BAD_TYPE4STR);
	check_err("p fx_vfs_read+4 ^count", KP_E_NOSUP_BTFARG);
	check_err("p fx_vfs_read ^$arg1x", KP_E_BAD_VAR);
	check_err("p fx_vfs_read ^$arg5", KP_E_NO_BTFARG);
	check_err("p no_such_function ^count", KP_E_NO_BTF_ENTRY);
	check_err("p 0xffffffff81000000 ^count", KP_E_NOSUP_BTFARG);
	check_err("p fx_vfs_read ^$retval", KP_E_RETVAL_ON_PROBE);
	check_err("r fx_vfs_read $retval->^x", KP_E_NO_PTR_STRCT);
	check_err("p fx_vfs_read count ^count", KP_E_USED_ARG_NAME);
	/* An expanded word: the caret at the word given */
	check_err("p fx_vfs_read ^$arg2:u7", KP_E_BAD_TYPE);
}
END_TEST

/* 7.3's typecasts, $current, this_cpu_*() and %pd/%pD */
START_TEST(typecasts_current_percpu)
{
	const struct kp_probe_def *d;
	char want[160];

	/* (STRUCT)VAR->MEMBER: what VAR points to taken as STRUCT */
	d = parse("p:b/c fx_vfs_read (task_struct)file->pid p=(task_struct)file->comm:string");
	snprintf(want, sizeof(want), "+0x%zx($arg1):s32", offsetof(struct task_struct, pid));
	check_arg(d, 0, "arg1", want, "arg1=(task_struct)file->pid");
	ck_assert(d->args[0].btf);
	snprintf(want, sizeof(want), "+0x%zx($arg1):string", offsetof(struct task_struct, comm));
	check_arg(d, 1, "p", want, NULL);

	/* The field option: VAR points to that member (container_of()) */
	d = parse("p:b/co fx_touch_atime pos=(file,f_path)path->f_pos "
		  "fl=(file,f_path.dentry)path->f_flags "
		  "n=(file,f_path)path->f_path.dentry->d_name.name:string");
	snprintf(want, sizeof(want), "+0x%zx($arg1):s64",
		 offsetof(struct file, f_pos) - offsetof(struct file, f_path));
	check_arg(d, 0, "pos", want, NULL);
	snprintf(want, sizeof(want), "-0x%zx($arg1):u64",
		 offsetof(struct file, f_path) + offsetof(struct path, dentry));
	check_arg(d, 1, "fl", want, NULL);
	snprintf(want, sizeof(want), "+0x0(+0x%zx(+0x%zx($arg1))):string",
		 offsetof(struct dentry, d_name) + offsetof(struct qstr, name),
		 offsetof(struct path, dentry));
	check_arg(d, 2, "n", want, NULL);

	/* (STRUCT)(FETCHARG)->M, nested casts, a dereference and $retval inside */
	d = parse("p:b/n fx_touch_atime "
		  "a=(dentry)((file,f_path)path->f_path.dentry)->d_name.len "
		  "b=(file)+8(path)->f_pos c=(task_struct)(%di)->tgid");
	snprintf(want, sizeof(want), "+0x%zx(+0x%zx($arg1)):u32",
		 offsetof(struct dentry, d_name) + offsetof(struct qstr, len),
		 offsetof(struct path, dentry));
	check_arg(d, 0, "a", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx(+0x8($arg1)):s64", offsetof(struct file, f_pos));
	check_arg(d, 1, "b", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx(%%di):s32", offsetof(struct task_struct, tgid));
	check_arg(d, 2, "c", want, NULL);
	d = parse("r:b/r fx_read_file (task_struct)$retval->pid");
	snprintf(want, sizeof(want), "+0x%zx($retval):s32", offsetof(struct task_struct, pid));
	check_arg(d, 0, "arg1", want, NULL);

	/* $current: the task's task_struct, its members without a cast */
	d = parse("p:b/cur fx_vfs_read+4 $current pid=$current->pid c=$current->comm:string "
		  "g=$current->group_leader->tgid");
	check_arg(d, 0, "arg1", "$current:x64", "arg1=$current");
	ck_assert(!d->args[0].btf);
	snprintf(want, sizeof(want), "+0x%zx($current):s32", offsetof(struct task_struct, pid));
	check_arg(d, 1, "pid", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx($current):string", offsetof(struct task_struct, comm));
	check_arg(d, 2, "c", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx(+0x%zx($current)):s32",
		 offsetof(struct task_struct, tgid), offsetof(struct task_struct, group_leader));
	check_arg(d, 3, "g", want, NULL);
	ck_assert_uint_eq(d->args[1].insns[0].op, KPMOD_FOP_CURRENT);
	d = parse("r:b/rc fx_vfs_read l=(task_struct,se)$current->pid");
	snprintf(want, sizeof(want), "%s0x%zx($current):s32",
		 offsetof(struct task_struct, pid) < offsetof(struct task_struct, se) ? "-" : "+",
		 offsetof(struct task_struct, pid) < offsetof(struct task_struct, se) ?
		 offsetof(struct task_struct, se) - offsetof(struct task_struct, pid) :
		 offsetof(struct task_struct, pid) - offsetof(struct task_struct, se));
	check_arg(d, 0, "l", want, NULL);

	/* this_cpu_ptr(), this_cpu_read(): +0(this_cpu_ptr()), no BTF type */
	d = parse("p:b/pc fx_vfs_read+4 p=this_cpu_ptr(%di) r=this_cpu_read(%di):u32 "
		  "s=this_cpu_read(@0x1000)");
	check_arg(d, 0, "p", "this_cpu_ptr(%di):x64", NULL);
	ck_assert_uint_eq(d->args[0].ninsns, 4);
	ck_assert_uint_eq(d->args[0].insns[1].op, KPMOD_FOP_CPU_PTR);
	ck_assert_uint_eq(d->args[0].insns[2].op, KPMOD_FOP_ST_RAW);
	check_arg(d, 1, "r", "+0x0(this_cpu_ptr(%di)):u32", NULL);
	ck_assert_uint_eq(d->args[1].insns[2].op, KPMOD_FOP_ST_MEM);
	/* @ADDR's own dereference becomes the per-CPU step */
	check_arg(d, 2, "s", "+0x0(this_cpu_ptr(\\0x1000)):x64", NULL);
	ck_assert_uint_eq(d->args[2].insns[0].op, KPMOD_FOP_IMM);
	ck_assert_uint_eq(d->args[2].insns[1].op, KPMOD_FOP_CPU_PTR);
	snprintf(want, sizeof(want), "+0x0(this_cpu_ptr(+0x%zx($arg2))):x64",
		 offsetof(struct task_struct, group_leader));
	d = parse("p:b/pc3 fx_read_file t=this_cpu_read((task_struct)task->group_leader) "
		  "u=(task_struct)this_cpu_ptr(task)->pid");
	check_arg(d, 0, "t", want, NULL);
	snprintf(want, sizeof(want), "+0x%zx(this_cpu_ptr($arg2)):s32",
		 offsetof(struct task_struct, pid));
	check_arg(d, 1, "u", want, NULL);

	/* %pd, %pD: the dentry's name, with this BTF's offsets */
	d = parse("p:b/pd fx_dput dentry:%pd");
	snprintf(want, sizeof(want), "+0x0(+0x%zx($arg1)):string",
		 offsetof(struct dentry, d_name) + offsetof(struct qstr, name));
	check_arg(d, 0, "arg1", want, NULL);
	snprintf(want, sizeof(want), "arg1=+0x0(+0x%zx(dentry)):string",
		 offsetof(struct dentry, d_name) + offsetof(struct qstr, name));
	ck_assert_str_eq(d->args[0].text, want);
	d = parse("p:b/pD fx_read_file n=file:%pD");
	snprintf(want, sizeof(want), "+0x0(+0x%zx(+0x%zx($arg1))):string",
		 offsetof(struct dentry, d_name) + offsetof(struct qstr, name),
		 offsetof(struct file, f_path) + offsetof(struct path, dentry));
	check_arg(d, 0, "n", want, NULL);
}
END_TEST

/* btf_typecast_errors (7.3's kprobe_syntax_errors.tc typecast lines) */
START_TEST(typecast_errors)
{
	check_err("p fx_vfs_read arg1=(task_struct)file^", KP_E_TYPECAST_REQ_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct,^in_execve)file->comm", KP_E_TYPECAST_NOT_ALIGNED);
	check_err("p fx_vfs_read arg1=(task_struct,^foo_bar)file->pid", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read arg1=(^task_struct1234)file->pid", KP_E_NO_PTR_STRCT);
	check_err("p fx_vfs_read arg1=(task_struct,se^->group_node)file->comm",
		  KP_E_TYPECAST_BAD_ARROW);
	check_err("p fx_vfs_read arg1=(task_struct,^->pid)file->comm", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct,^.pid)file->comm", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct,^.)file->comm", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct)^@symbol+10->comm", KP_E_TYPECAST_SYM_OFFSET);
	check_err("p fx_vfs_read arg1=(task_struct)file->^nosuch", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct)file->comm->^x", KP_E_NO_PTR_STRCT);
	check_err("p fx_vfs_read arg1=(task_struct)^(file", KP_E_DEREF_OPEN_BRACE);
	check_err("p fx_vfs_read arg1=(task_struct)(file)^", KP_E_TYPECAST_REQ_FIELD);
	check_err("p fx_vfs_read arg1=(task_struct^", KP_E_DEREF_OPEN_BRACE);
	check_err("p fx_vfs_read arg1=(task_struct)^+8file->pid", KP_E_DEREF_NEED_BRACE);
	/* Only at FUNC+0 or a return, as BTF names (7.3 with IBT also takes +4) */
	check_err("p fx_vfs_read+4 ^(task_struct)$arg1->pid", KP_E_NOSUP_BTFARG);
	/* Eight nested forms at most; the ninth's first character */
	check_err("p fx_vfs_read (a)((b)(+0(+0(+0(+0(+0(+0(^+0(file))))))))->b)->a",
		  KP_E_TOO_MANY_NESTED);
	check_err("p fx_vfs_read (a)((b)((c)((d)(+0(+0(+0(+0(^(e)file->e)))))->d)->c)->b)->a",
		  KP_E_TOO_MANY_NESTED);
	check_err("p fx_vfs_read +0(+0(+0(+0(+0(+0(+0(+0(^+0(file)))))))))", KP_E_TOO_MANY_NESTED);
	check_err("p fx_vfs_read this_cpu_ptr(+0(+0(+0(+0(+0(+0(+0(^+0(file)))))))))",
		  KP_E_TOO_MANY_NESTED);
	/* $current */
	check_err("p fx_vfs_read $current->^nosuch", KP_E_NO_BTF_FIELD);
	check_err("p fx_vfs_read ^$currentx", KP_E_BAD_VAR);
	check_err("p fx_vfs_read ^$current.pid", KP_E_BAD_VAR);
	check_err("p fx_vfs_read $current^-pid", KP_E_BAD_HYPHEN);
	check_err("p fx_vfs_read $current:^string", KP_E_BAD_STRING);
	/* this_cpu_*() */
	check_err("p fx_vfs_read this_cpu_ptr(^$comm)", KP_E_COMM_CANT_DEREF);
	check_err("p fx_vfs_read this_cpu_read(file^", KP_E_DEREF_OPEN_BRACE);
	/* (7.3's caret is 13 bytes further, past the end: not followed) */
	check_err("p fx_vfs_read this_cpu_ptr(file):^string", KP_E_BAD_STRING);
}
END_TEST

START_TEST(without_btf)
{
	struct kp_btf *none = kp_btf_new(KP_BTF_NONE), *missing = kp_btf_new("/no/such/btf");

	/* As before BTF: $retval and $argN as they were, names refused with why */
	ck_assert_int_eq(parse_with(none, "r:b/r fx_vfs_read $retval $arg1 $arg2:u32"), 0);
	ck_assert_str_eq(def.args[0].name, "arg1");
	ck_assert_str_eq(def.args[1].name, "arg2");
	ck_assert_str_eq(def.args[2].name, "arg3");
	ck_assert(!def.args[0].btf);
	check_err_kb(none, "p fx_vfs_read ^count", KP_E_NOSUP_BTFARG);
	ck_assert_ptr_nonnull(strstr(perr.msg, "(BTF is off (--btf none))"));
	check_err_kb(missing, "p fx_vfs_read ^$arg*", KP_E_NOSUP_BTFARG);
	ck_assert_ptr_nonnull(strstr(perr.msg, "/no/such/btf"));
	check_err_kb(missing, "p fx_vfs_read ^file->x", KP_E_NOSUP_BTFARG);
	/* 7.3's: $current and this_cpu_*() as they are, casts and members refused */
	ck_assert_int_eq(parse_with(none, "p:b/n fx_vfs_read+4 $current this_cpu_read(%di):u32"), 0);
	check_err_kb(none, "p fx_vfs_read ^$current->pid", KP_E_NOSUP_BTFARG);
	check_err_kb(none, "p fx_vfs_read (^task_struct)$arg1->pid", KP_E_NOSUP_BTFARG);
	check_err_kb(none, "p fx_vfs_read ^d=$arg1:%pd", KP_E_NOSUP_BTFARG);
	kp_btf_free(none);
	kp_btf_free(missing);
}
END_TEST

START_TEST(prototypes)
{
	struct kp_btf *kb = kp_btf_new(KP_BTF_FIXTURE);
	struct kp_btf_func f;
	char buf[128];

	ck_assert_int_eq(kp_btf_func(kb, "", "fx_vfs_read", &f), 0);
	ck_assert_uint_eq(f.nparams, 4);
	ck_assert_int_eq(kp_btf_decl(&f, -1, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "long int");
	ck_assert_int_eq(kp_btf_decl(&f, 0, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "struct fx_file *file");
	ck_assert_int_eq(kp_btf_decl(&f, 3, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "long long int *pos");
	ck_assert_int_eq(kp_btf_func(kb, "", "nosuch", &f), -ENOENT);
	/* A module named: only a directory as /sys/kernel/btf has modules */
	ck_assert_int_eq(kp_btf_func(kb, "ext4", "fx_vfs_read", &f), -ENOENT);
	kp_btf_free(kb);
	kb = kp_btf_new(KP_BTF_NONE);
	ck_assert_int_eq(kp_btf_func(kb, "", "fx_vfs_read", &f), -EOPNOTSUPP);
	kp_btf_free(kb);
}
END_TEST

KP_SUITE(btf_suite)
static Suite *btf_suite(void)
{
	Suite *s = suite_create("btf");
	TCase *tc = tcase_create("btf");

	tcase_add_test(tc, parameters_and_members);
	tcase_add_test(tc, bitfields_strings_and_returns);
	tcase_add_test(tc, arg_star_and_bare_argn);
	tcase_add_test(tc, the_kernels_btf_errors);
	tcase_add_test(tc, typecasts_current_percpu);
	tcase_add_test(tc, typecast_errors);
	tcase_add_test(tc, without_btf);
	tcase_add_test(tc, prototypes);
	suite_add_tcase(s, tc);
	return s;
}
