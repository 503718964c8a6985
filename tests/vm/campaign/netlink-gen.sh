# Grammar-aware netlink fuzzing (kpmod-nlfuzz gen, tests/vm/tools/nlgen.c),
# KPMOD_NLGEN_COUNT requests (20,000 here; 1,000,000 in `make stress`), each
# built as the module expects it and then mutated in 0 to 3 places, some of
# the probes they add enabled on functions the generator calls.  Afterwards
# the module answers, every command was accepted at least once (the
# generator is not only making refusals), nothing is left registered, a new
# probe records, and rmmod is clean.
. "$KPMOD_LIB"
load_kpmod
n=${KPMOD_NLGEN_COUNT:-20000}
seed=${KPMOD_NLGEN_SEED:-$(date +%s)}	# the seed of a run to replay
note "seed $seed, $n requests"
expect_rc 0 kpmod-nlfuzz gen "$n" "$seed"
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
expect_grep "^tracing: on"
expect_rc 0 kpmod list
[ -s /tmp/.out ] && fail "probes left behind: $(cat /tmp/.out)"
expect_rc 0 kpmod add 'p:kb/still_works vfs_read'
expect_rc 0 kpmod enable kb/still_works
cat /proc/self/stat >/dev/null
expect_rc 0 kpmod stat
grep -q '^  still_works  *[1-9]' /tmp/.out || fail "the probe added after the fuzzing counted no hit"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
