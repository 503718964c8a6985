. "$KPMOD_LIB"
skip "selftest skip reason"
