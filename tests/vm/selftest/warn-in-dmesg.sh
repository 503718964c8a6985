# Writes a WARNING: line into the kernel log; the harness must fail this.
echo "WARNING: kpmod-selftest injected line" >/dev/kmsg
exit 0
