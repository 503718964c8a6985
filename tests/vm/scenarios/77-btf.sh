# Arguments by name and type from the kernel's BTF: one probe file with
# names only (no register, no offset), applied as it is on every kernel.
#  - Known values on every kernel with BTF: a workload that seeks then
#    reads a named file gives count, file->f_pos, the dentry's name and
#    length, $retval, and the $arg* of its vfs_open with the name of the
#    path's dentry, each as it passed them.
#  - Where kprobe_events reads BTF too (6.6 on: 6.12, 7.3), the oracle: the
#    same file written there, its listing, every format file and every
#    event compared field by field; and the kernel's BTF errors (its
#    selftests' lines) with its message and caret.
#  - 7.3's forms on every kernel ($current->member, this_cpu_read(),
#    %pD, typecasts with and without a field option): known values (the
#    task, the CPU, the file), and against 7.3's kprobe_events, with its
#    typecast errors.
#  - A kernel without BTF in /sys (/sys/kernel/btf hidden): names are
#    refused with the reason, $retval and $argN are as they always were;
#    and --btf FILE and KPMOD_BTF (add, apply, trace) resolve them again
#    from a detached file: on the debug kernel the one pahole made from
#    its vmlinux's DWARF (tests/vm/debug-kernel), elsewhere a copy.
. "$KPMOD_LIB"
T=/sys/kernel/tracing
F=/tmp/btf-probe-file
load_kpmod

cat >/tmp/fleet.conf <<'FLEET'
# names only: the same file on every kernel of a fleet
p:btf/rd vfs_read count pos=file->f_pos name=file->f_path.dentry->d_name.name:string len=file->f_path.dentry->d_name.len
r:btf/rdr vfs_read $retval count
p:btf/open vfs_open $arg* name=path->dentry->d_name.name:string
FLEET
# 7.3's forms: $current's members, a per-CPU variable, %pD, typecasts
# (container_of() of touch_atime's path); kpmod takes them on every kernel.
cat >/tmp/fleet73.conf <<'FLEET'
p:n73/rd vfs_read pid=$current->pid comm=$current->comm:string name=file:%pD pos=(file)file->f_pos
p:n73/ta touch_atime pos=(file,f_path)path->f_pos name=(file,f_path)path->f_path.dentry->d_name.name:string
FLEET
# A per-CPU variable by name, where kallsyms has data symbols (arm64's 5.10
# and 6.1 are built without KALLSYMS_ALL: kprobe_events cannot either).
pcpu=
if grep -q ' cpu_number$' /proc/kallsyms; then
	echo 'p:n73/pc vfs_read cpu=this_cpu_read(@cpu_number):s32 name=file:%pD' >>/tmp/fleet73.conf
	pcpu=1
fi

# Every guest's kernel has BTF (the debug kernel's too); one without it
# is tested below with /sys/kernel/btf hidden.
[ -e /sys/kernel/btf/vmlinux ] || fail "this kernel has no /sys/kernel/btf/vmlinux"

# The file: 4 KiB, read at known offsets.
dd if=/dev/zero of=$F bs=4096 count=1 2>/dev/null || fail "cannot make $F"
workload() {
	kpmod-work seekread $F 100 77
	kpmod-work seekread $F 200 66
	kpmod-work seekread $F 300 55
}

# What each name becomes on this kernel, without the module.
expect_rc 0 kpmod add --dry-run -f /tmp/fleet.conf
kpmod add --dry-run -f /tmp/fleet.conf 2>/dev/null >/tmp/compiled.sys
cat /tmp/compiled.sys
grep -q '^/tmp/fleet.conf:2: btf/rd: pos=file->f_pos is +0x[0-9a-f]*(\$arg1):s64$' /tmp/compiled.sys ||
	fail "dry run does not say what file->f_pos is"
[ "$(wc -l </tmp/compiled.sys)" -eq 9 ] || fail "9 names expected in the dry run"

# The oracle, where kprobe_events takes BTF names (the return probe's
# entry parameters: where its kretprobes take them).
oracle=
if [ -e $T/kprobe_events ] && echo 'p:btfprobe/t vfs_read count' >>$T/kprobe_events 2>/dev/null; then
	echo '-:btfprobe/t' >>$T/kprobe_events
	oracle=1
fi

# check_values FILE: each value as the workload passed it.
check_values() {
	awk -v F="$F" '
	/ kpmod-work-/ && / rd: / && /name="btf-probe-file"/ {
		rd++
		if (!match($0, / count=[0-9]+ pos=[0-9]+ /)) { print "rd: " $0; bad++; next }
		split(substr($0, RSTART + 1, RLENGTH - 2), kv, /[= ]/)
		c = kv[2]; p = kv[4]
		if (!((c == 77 && p == 100) || (c == 66 && p == 200) || (c == 55 && p == 300))) {
			print "rd count/pos: " $0; bad++ }
		if ($0 !~ / len=14$/) { print "rd len: " $0; bad++ }
		seen[c]++
	}
	/ kpmod-work-/ && / rdr: / && / count=(77|66|55)$/ {
		match($0, / count=[0-9]+$/); c = substr($0, RSTART + 7) + 0
		if ($0 !~ (" arg1=" c " ")) { print "rdr retval: " $0; bad++ }
		rdr++
	}
	/ kpmod-work-/ && / open: / && / name="btf-probe-file"$/ {
		if ($0 !~ / path=0x[0-9a-f]+ file=0x[0-9a-f]+ name=/) { print "open: " $0; bad++ }
		open++
	}
	END {
		if (rd != 3 || rdr < 3 || open != 3 || !seen[77] || !seen[66] || !seen[55]) {
			print "rd " rd " rdr " rdr " open " open; bad++ }
		exit bad > 0 }' "$1"
}

# check_values73 FILE: 7.3's forms, each as the task and workload had it:
# $current->pid and ->comm the task's, this_cpu_read(@cpu_number) the CPU
# the event was on, and the file's f_pos and name, through %pD, a typecast
# and container_of(touch_atime's path, struct file, f_path).
check_values73() {
	awk -v pcpu="$pcpu" '
	/ kpmod-work-[0-9]+ +\[[0-9]+\]/ && /name="btf-probe-file"/ {
		match($0, /kpmod-work-[0-9]+ +\[[0-9]+\]/)
		split(substr($0, RSTART + 11, RLENGTH - 11), pcf, /[][ ]+/)
		pid = pcf[1]; cpu = pcf[2] + 0
	}
	/ kpmod-work-/ && / rd: / && /name="btf-probe-file"/ {
		rd++
		if ($0 !~ (" pid=" pid " comm=\"kpmod-work\" name=") ||
		    $0 !~ / pos=(100|200|300)$/) { print "rd: " $0; bad++ }
	}
	/ kpmod-work-/ && / pc: / && /name="btf-probe-file"$/ {
		pc++
		if ($0 !~ (" cpu=" cpu " ")) { print "pc: " $0; bad++ }
	}
	/ kpmod-work-/ && / ta: / && /name="btf-probe-file"$/ {
		ta++
		if ($0 !~ / pos=(100|200|300) /) { print "ta: " $0; bad++ }
	}
	END {
		if (rd != 3 || ta < 3 || pc != (pcpu ? 3 : 0)) {
			print "rd " rd " ta " ta " pc " pc; bad++ }
		exit bad > 0 }' "$1"
}

# run_fleet FILE GROUP CHECK MIN: FILE applied, its events traced over
# the workload and CHECKed; with the oracle, the same FILE written to
# kprobe_events (what it refuses is not compared), the listing, fields
# and print formats compared, and at least MIN events, field by field.
run_fleet() {
	conf=$1 grp=$2 check=$3 min=$4 ocmp=
	expect_rc 0 kpmod apply "$conf"
	expect_rc 0 kpmod list
	kpmod list >/tmp/kl
	if [ -n "$oracle" ]; then
		odefs=0
		while IFS= read -r d; do
			case "$d" in '#'*) continue ;; esac
			if echo "$d" >>$T/kprobe_events 2>/dev/null; then
				odefs=$((odefs + 1))
			else
				note "kprobe_events here refuses '$d': not compared"
				grep -v "^${d%% *} " /tmp/kl >/tmp/kl2 && mv /tmp/kl2 /tmp/kl
			fi
		done <"$conf"
		[ "$odefs" -eq 0 ] || ocmp=1
	fi
	if [ -n "$ocmp" ]; then
		clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock")
		echo mono >"$T/trace_clock" || fail "cannot set trace_clock to mono"
		cat $T/kprobe_events
		sort $T/kprobe_events >/tmp/ol
		sed 's/^r[0-9]*:/r:/' /tmp/kl | sort >/tmp/kls
		sed 's/^r[0-9]*:/r:/' /tmp/ol | cmp - /tmp/kls ||
			{ diff /tmp/ol /tmp/kls; fail "kpmod list differs from kprobe_events"; }
		for e in $(sed -n "s/^[pr][0-9]*:$grp\/\([a-z]*\) .*/\1/p" /tmp/ol); do
			sed -n '/^format:/,$p' $T/events/$grp/$e/format | sed 's/offset:[0-9]*;//' >/tmp/of
			kpmod format $grp/$e | sed -n '/^format:/,$p' | sed 's/offset:[0-9]*;//' >/tmp/kf
			# The fields after the common ones, and the print format.
			grep -v 'common_\|__probe' /tmp/of >/tmp/of2
			grep -v 'common_\|__probe\|__faults' /tmp/kf >/tmp/kf2
			cmp /tmp/of2 /tmp/kf2 || { diff /tmp/of2 /tmp/kf2; fail "$grp/$e: format differs from tracefs'"; }
		done
		note "$odefs definitions: listing, fields and print fmt identical to kprobe_events"
		echo >"$T/trace"
		echo 1 >"$T/events/$grp/enable"
	fi
	expect_rc 0 kpmod enable "$grp/*"
	capture_trace /tmp/t-$grp.txt -- workload
	[ -z "$ocmp" ] || echo 0 >"$T/events/$grp/enable"
	expect_rc 0 kpmod disable all
	$check /tmp/t-$grp.txt || fail "kpmod recorded wrong values ($conf)"
	grep ' kpmod-work-' /tmp/t-$grp.txt | grep 'btf-probe-file' | head -n 3 | cut -c1-220
	note "$grp: every value as the workload passed it, names from this kernel's BTF"
	if [ -n "$ocmp" ]; then
		kpmod-escape <"$T/trace" >/tmp/ftrace.raw
		echo "$clock" >"$T/trace_clock"
		# PID EVENT: REST for kpmod-work's events, each task's in time order;
		# a return probe's caller is not compared: with two return probes on
		# a function, the second finds the first's trampoline (60-oracle.sh).
		# Not the exec's open and touch_atime of kpmod-work: ftrace names
		# the task when it prints (kpmod-work), kpmod when it records (the
		# shell, before exec).
		norm() {
			grep -v ' \(open\|ta\): .* name="kpmod-work"$' "$1" |
			sed -n 's/^ *kpmod-work-\([0-9]*\) *\[[0-9]*\] [^ ]* *\([0-9.]*\): \([a-z0-9_]*\): \(.*\)$/\1 \2 \3: \4/p' |
				sed 's/ ([^ ]* <- / (CALLER <- /' |
				sort -s -k1,1n -k2,2n | cut -d' ' -f1,3- >"$2"
		}
		norm /tmp/ftrace.raw /tmp/ftrace.n
		norm /tmp/t-$grp.txt /tmp/kpmod.n
		# Only what both traced (a refused definition is not compared).
		evs=$(sed -n "s/^[pr][0-9]*:$grp\/\([a-z]*\) .*/\1/p" /tmp/ol | tr '\n' '|')
		grep -E "^[0-9]+ (${evs%|}): " /tmp/kpmod.n >/tmp/kpmod.n2
		nf=$(wc -l </tmp/ftrace.n)
		[ "$nf" -ge "$min" ] || { head -n 20 $T/trace; fail "only $nf events from kprobe_events"; }
		[ "$(wc -l </tmp/kpmod.n2)" -eq "$nf" ] || {
			cat /tmp/ftrace.n /tmp/kpmod.n2
			fail "kprobe_events has $nf events, kpmod $(wc -l </tmp/kpmod.n2)"
		}
		paste -d '\n' /tmp/ftrace.n /tmp/kpmod.n2 | awk '
			NR % 2 { f = $0; next }
			$0 != f { print "differs:\n< " f "\n> " $0; bad++ }
			END { exit bad > 0 }' >/tmp/cmp || { head -n 20 /tmp/cmp; fail "kpmod and kprobe_events differ"; }
		note "$grp: $nf events identical to kprobe_events, field by field"
		echo >"$T/kprobe_events"
	fi
}

run_fleet /tmp/fleet.conf btf check_values 9
# As written in the listing; what it compiled to in --json.
kpmod apply /tmp/fleet.conf >/dev/null || fail "apply again"
kpmod list --json >/tmp/kj || fail "list --json"
grep -q '"name":"pos","compiled":"+0x[0-9a-f]*(\$arg1):s64"' /tmp/kj &&
	grep -q '"definition":"p:btf/rd vfs_read count=count pos=file->f_pos ' /tmp/kj ||
	{ cat /tmp/kj; fail "list --json: not the definition as written and what it compiled to"; }
expect_rc 0 kpmod clear
run_fleet /tmp/fleet73.conf n73 check_values73 6
expect_rc 0 kpmod clear

# Discovery: a prototype from BTF, and a bare function traced as ksnoop.
kpmod funcs -v vfs_read >/tmp/fv 2>/dev/null || fail "funcs -v vfs_read"
cat /tmp/fv
printf 'vfs_read\n    struct file *file\n    char *buf\n    size_t count\n    loff_t *pos\n    ssize_t retval\n' |
	cmp - /tmp/fv || fail "funcs -v vfs_read: not vfs_read's prototype"
kpmod trace vfs_read -- kpmod-work seekread $F 100 77 >/tmp/tf 2>/tmp/tf.err ||
	{ cat /tmp/tf.err; fail "kpmod trace vfs_read failed"; }
grep -q ' p_vfs_read_0: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) file=0x[0-9a-f]* buf=0x[0-9a-f]* count=77 pos=0x[0-9a-f]*$' /tmp/tf &&
	grep -q ' r_vfs_read_0: (.* <- vfs_read) arg1=77$' /tmp/tf ||
	{ head -n 5 /tmp/tf; fail "trace vfs_read: not its \$arg* and \$retval"; }
expect_rc 0 kpmod list
[ "$(kpmod list | wc -l)" -eq 0 ] || fail "trace vfs_read left its probes"
note "funcs -v prints the prototype; trace FUNC gives its \$arg* and \$retval"

# check_errors ORACLE: each "EXIT DEFINITION" line of stdin refused by
# kpmod with that exit code; with ORACLE set, by kprobe_events too, with
# the same message and the caret in the same place.
check_errors() {
	while read -r code def; do
		kpmod add "$def" >/tmp/o 2>&1
		rc=$?
		cat /tmp/o
		[ "$rc" -eq "$code" ] || fail "'$def': exit $rc, expected $code"
		[ -n "$1" ] && [ -e $T/error_log ] || continue
		echo >$T/error_log
		echo "$def" >>$T/kprobe_events 2>/dev/null && fail "kprobe_events took '$def'"
		kmsg=$(sed -n 's/.*trace_kprobe: error: //p' $T/error_log)
		[ -n "$kmsg" ] || { cat $T/error_log; fail "no error_log entry for '$def'"; }
		mmsg=$(sed -n 's/^kpmod: error: //p' /tmp/o)
		[ "$mmsg" = "$kmsg" ] || fail "'$def': kpmod says '$mmsg', the kernel '$kmsg'"
		[ "$(tail -n 1 $T/error_log)" = "$(tail -n 1 /tmp/o)" ] ||
			{ cat $T/error_log; fail "'$def': the caret is not where the kernel puts it"; }
	done
}

# The kernel's BTF errors (kprobe_syntax_errors.tc's BTF lines and more):
# kpmod's exit code, and where kprobe_events reads BTF, its message and caret.
check_errors "$oracle" <<'DEFS'
34 p vfs_read args=$arg*
34 p vfs_read +0($arg*)
100 p vfs_read $arg* $arg*
96 p vfs_read hoge
96 p kfree $arg10
96 p kfree $arg1 $arg2
98 r kfree $retval
102 p vfs_read file.f_pos
103 p vfs_read file-f
104 p vfs_read file->nosuch
101 p vfs_read count->x
DEFS
# Refused by kpmod, taken by 6.12's and 7.3's kprobe_events: their
# btf_type_is_char_ptr() takes an integer's size for a type id (BTF id 8
# is an unsigned char there), so count:string reads memory at count.
expect_rc 106 kpmod add 'p vfs_read count:string'
expect_grep "This type does not fit for string."
note "the kernel's BTF errors, with its message and caret where it has them"

# 7.3's typecast, $current and this_cpu_*() errors (its selftests' lines
# and more): kpmod's exit codes on every kernel, and where kprobe_events
# takes typecasts (7.3), its message and caret.  Not compared: what 7.3
# takes that kpmod refuses (this_cpu_read(x)->m, whose ->m 7.3 drops) and
# 7.3's caret past the end of this_cpu_ptr(x):string.
oracle73=
if [ -n "$oracle" ] && echo 'p:btfprobe/t vfs_read (file)file->f_pos' >>$T/kprobe_events 2>/dev/null; then
	echo '-:btfprobe/t' >>$T/kprobe_events
	oracle73=1
fi
check_errors "$oracle73" <<'DEFS'
107 p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(+0($arg1)))))))))
107 p vfs_read this_cpu_ptr(+0(+0(+0(+0(+0(+0(+0(+0(file)))))))))
107 p vfs_read (a)((b)(+0(+0(+0(+0(+0(+0(+0(file))))))))->b)->a
108 p vfs_read arg1=(task_struct)file
110 p vfs_read arg1=(task_struct,in_execve)file->comm
104 p vfs_read arg1=(task_struct,foo_bar)file->pid
101 p vfs_read arg1=(task_struct1234)file->pid
111 p vfs_read arg1=(task_struct,se->group_node)file->comm
104 p vfs_read arg1=(task_struct,->pid)file->comm
104 p vfs_read arg1=(task_struct,.pid)file->comm
104 p vfs_read arg1=(task_struct,.)file->comm
109 p vfs_read arg1=(task_struct)@symbol+10->comm
104 p vfs_read arg1=(task_struct)file->nosuch
101 p vfs_read arg1=(task_struct)file->comm->x
43 p vfs_read arg1=(task_struct)(file
108 p vfs_read arg1=(task_struct)(file)
43 p vfs_read arg1=(task_struct
41 p vfs_read arg1=(task_struct)+8file->pid
108 p vfs_read (%ax+10)
104 p vfs_read $current->nosuch
34 p vfs_read $currentx
34 p vfs_read $current.pid
103 p vfs_read $current-pid
43 p vfs_read this_cpu_read(file
DEFS
note "7.3's typecast errors, with its message and caret where it has them"

# A kernel without BTF in /sys: /sys/kernel/btf hidden.  The detached
# file: pahole's, made from vmlinux's DWARF, where the harness has it
# (the debug kernel), else a copy of /sys/kernel/btf/vmlinux.
if [ -f /kpmod/extra/vmlinux.btf ]; then
	cp /kpmod/extra/vmlinux.btf /tmp/vmlinux.btf
	cmp -s /tmp/vmlinux.btf /sys/kernel/btf/vmlinux && fail "pahole's detached file is /sys's"
	note "the detached file: pahole --btf_encode_detached from vmlinux's DWARF"
else
	cp /sys/kernel/btf/vmlinux /tmp/vmlinux.btf || fail "cannot copy the BTF"
fi
mount -t tmpfs none /sys/kernel/btf || fail "cannot hide /sys/kernel/btf"
trap 'umount /sys/kernel/btf 2>/dev/null' EXIT
expect_rc 95 kpmod add --dry-run -f /tmp/fleet.conf
expect_grep "^kpmod: /tmp/fleet.conf:2: error: BTF is not available or not supported (/sys/kernel/btf/vmlinux: No such file or directory)\$"
expect_rc 95 kpmod apply --check /tmp/fleet.conf
expect_rc 2 kpmod trace vfs_read -- true
expect_grep "^kpmod: trace: 'vfs_read' is not an event, and there is no BTF to trace it as a function (/sys/kernel/btf/vmlinux: No such file or directory)\$"
# Without BTF, $retval and a bare $argN are as they always were.
expect_rc 0 kpmod add 'r:nb/r vfs_read $retval $arg3'
kpmod format nb/r >/tmp/f || fail "format nb/r"
grep -q 'field:u64 arg1;' /tmp/f && grep -q 'field:u64 arg2;' /tmp/f ||
	{ cat /tmp/f; fail "untyped \$retval and \$arg3 are not x64 named arg1, arg2"; }
expect_rc 0 kpmod clear
note "without BTF: names refused with the reason, \$retval and \$argN unchanged"
kpmod add --dry-run --btf /tmp/vmlinux.btf -f /tmp/fleet.conf 2>/dev/null >/tmp/compiled.file ||
	fail "--btf FILE refused"
cmp /tmp/compiled.sys /tmp/compiled.file || fail "--btf FILE compiles otherwise than /sys"
KPMOD_BTF=/tmp/vmlinux.btf kpmod add --dry-run -f /tmp/fleet.conf 2>/dev/null >/tmp/compiled.env ||
	fail "KPMOD_BTF refused"
cmp /tmp/compiled.sys /tmp/compiled.env || fail "KPMOD_BTF compiles otherwise than /sys"
expect_rc 95 kpmod add --btf none 'p:btf/x vfs_read count'
expect_grep "(BTF is off (--btf none))"
expect_rc 0 kpmod add --btf /tmp/vmlinux.btf -f /tmp/fleet.conf
expect_rc 0 kpmod enable 'btf/*'
capture_trace /tmp/t2.txt -- workload
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
check_values /tmp/t2.txt || fail "wrong values with add --btf FILE"
expect_rc 0 kpmod apply --btf /tmp/vmlinux.btf /tmp/fleet.conf
KPMOD_BTF=/tmp/vmlinux.btf kpmod list --json >/tmp/kj2 || fail "list --json"
cmp /tmp/kj /tmp/kj2 || { diff /tmp/kj /tmp/kj2; fail "apply --btf FILE added otherwise than apply"; }
expect_rc 0 kpmod enable 'btf/*'
capture_trace /tmp/t3.txt -- workload
expect_rc 0 kpmod disable all
check_values /tmp/t3.txt || fail "wrong values with apply --btf FILE"
expect_rc 0 kpmod clear
KPMOD_BTF=/tmp/vmlinux.btf kpmod trace vfs_read -- kpmod-work seekread $F 100 77 >/tmp/tf2 2>/tmp/tf.err ||
	{ cat /tmp/tf.err; fail "KPMOD_BTF kpmod trace vfs_read failed"; }
grep -q ' p_vfs_read_0: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) file=0x[0-9a-f]* buf=0x[0-9a-f]* count=77 pos=0x[0-9a-f]*$' /tmp/tf2 ||
	{ head -n 5 /tmp/tf2; fail "KPMOD_BTF trace vfs_read: not its \$arg*"; }
umount /sys/kernel/btf || fail "cannot unhide /sys/kernel/btf"
trap - EXIT
note "--btf FILE and KPMOD_BTF: add, apply and trace as with /sys/kernel/btf"
unload_kpmod
