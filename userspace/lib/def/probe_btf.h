/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names from BTF in a definition (probe_btf.c), for the definition parser
 * (probe_def.c): as the kernel's CONFIG_PROBE_EVENTS_BTF_ARGS.
 */
#ifndef KPMOD_PROBE_BTF_H
#define KPMOD_PROBE_BTF_H

#include "probe_parse.h"

/*
 * parse_btf_arg(): @var (a parameter's name, or $retval, then ->member or
 * .member) at @offs of the word, into the slot *@pcode and after.
 */
int kp_btf_parse_arg(struct pctx *pc, char *var, struct kinsn **pcode, struct kinsn *end,
		     int offs);
/*
 * A typecast, once its FETCHARG is parsed (the kernel's unwinding of
 * handle_typecast()): @cast is "STRUCT[,FIELD[.FIELD...]]" at @cast_offs,
 * @field what follows the "->" at @field_offs.
 */
int kp_btf_cast(struct pctx *pc, char *cast, char *field, struct kinsn **pcode,
		struct kinsn *end, int cast_offs, int field_offs);
/*
 * After the FETCHARG: with no type given (@t NULL), *@type becomes the
 * type of what the name resolved to (NULL: the default); with a string
 * type, a char * is dereferenced.  *@type is left alone otherwise.
 */
int kp_btf_fix_type(struct pctx *pc, const char *t, struct kinsn **pcode, const char **type);
/*
 * parse_btf_bitfield(): a bitfield member's shifts, when no type was
 * given, for a store of @size bytes.
 */
int kp_btf_bitfield(struct pctx *pc, unsigned int size, struct kinsn **pcode);
/*
 * traceprobe_expand_meta_args(): $arg* becomes every parameter's name and
 * a bare $argN[:TYPE] the Nth's, when BTF names them.  @w (the arguments,
 * *@nw of them, room for KPMOD_MAX_ARGS) is rewritten; what it points to
 * is kept in @buf (@size bytes).  0, or -1 with the error set.
 */
int kp_btf_expand_args(struct pctx *pc, struct word *w, size_t *nw, char *buf, size_t size);
/*
 * traceprobe_expand_dentry_args(): ARG:%pd (a struct dentry *) becomes
 * +0x0(+OFF(ARG)):string, ARG:%pD (a struct file *) the same through
 * f_path.dentry, with this kernel's offsets from BTF.  @w (@nw words) is
 * rewritten into @buf (@size bytes).  0, or -1 with the error set.
 */
int kp_btf_expand_dentry(struct pctx *pc, struct word *w, size_t nw, char *buf, size_t size);

#endif
