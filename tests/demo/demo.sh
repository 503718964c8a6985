# What `make demo` runs inside the booted guest.
. "$KPMOD_LIB"
show() { echo "# $*"; "$@" || fail "$* exited $?"; }

echo "# kernel $(uname -r), kprobe_events: $( [ -e /sys/kernel/tracing/kprobe_events ] && echo present || echo absent)"
show insmod "$KPMOD_KO"
show kpmod version
show kpmod status
show rmmod kpmod
