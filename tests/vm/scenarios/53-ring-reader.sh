# A reader that follows uapi/kpmod.h alone, not the CLI: poll() with no
# timeout is woken at the watermark, also when the record that gets there
# needed a pad, in both buffer modes; and a ring holds nothing but its
# records' own bytes ($comm sits next to kernel pointers in task_struct,
# strings are read in chunks).
. "$KPMOD_LIB"
load_kpmod
expect_rc 0 kpmod add 'p:kpm/pg find_task_by_vpid nr=$arg1:s64'
for mode in discard overwrite; do
	expect_rc 0 kpmod buffer --size 64K --mode $mode
	expect_rc 0 kpmod enable all
	expect_rc 0 kpmod-ringtest watermark
	expect_rc 0 kpmod disable all
done
expect_rc 0 kpmod clear
# A fresh ring (a resize zeroes it), then $comm and a user string on CPU 0.
expect_rc 0 kpmod buffer --size 128K --mode discard
case $KPMOD_ARCH in
x86_64) path='+0(%si):ustring' ;;
arm64) path='+0(%x1):ustring' ;;
esac
expect_rc 0 kpmod add --enable "p:kpm/cs do_sys_openat2 c=\$comm p=$path"
taskset -c 0 kpmod-work open /etc/passwd 20
taskset -c 0 kpmod-work open /nonexistent/kpmod-path-that-is-long-enough-to-matter 20
expect_rc 0 kpmod disable all
expect_rc 0 kpmod-ringtest zeros 2
expect_rc 0 kpmod clear
expect_rc 0 kpmod buffer --size 1M
unload_kpmod
