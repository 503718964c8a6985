. "$KPMOD_LIB"
load_kpmod
kpmod status >/dev/null || fail "status"
unload_kpmod
