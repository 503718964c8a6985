# Malformed and random netlink requests sent straight to the module (not
# through the CLI): each is refused with an errno and an extended-ack
# message, nothing is left registered, and the module keeps working.
. "$KPMOD_LIB"

load_kpmod
expect_rc 0 kpmod-nlfuzz cases
seed=$(date +%s)
expect_rc 0 kpmod-nlfuzz random 300 "$seed"
# Replies that cannot be sent: the probe goes again, the add fails.
expect_rc 0 kpmod-nlfuzz flood 64
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
expect_rc 0 kpmod list
[ -s /tmp/.out ] && fail "probes left behind: $(cat /tmp/.out)"
unload_kpmod
