# The qemu guest that runs Debian's own kernel PPPoE for the interop tests and
# the benchmark's baselines. The image is cached outside the tree (in
# /var/cache/pppoe-xp/guest-<kernel series>/<hash of inputs>/), so this is instant
# when nothing changed; tests build it on first use anyway. Both kernel series.
.PHONY: guest-image
guest-image:
	$(call msg,GUEST,/var/cache/pppoe-xp/guest-6.1 guest-6.12)
	$(Q)tests/interop/guest/build-image.sh --kernel 6.1 >/dev/null
	$(Q)tests/interop/guest/build-image.sh --kernel 6.12 >/dev/null
