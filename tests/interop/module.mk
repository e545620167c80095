# The qemu guest that runs Debian's own kernel PPPoE for the interop tests and
# the benchmark's baselines. The image is cached outside the tree (in
# /var/cache/pppoe-xp/guest/<hash of inputs>/), so this is instant when
# nothing changed; tests build it on first use anyway.
.PHONY: guest-image
guest-image:
	$(call msg,GUEST,/var/cache/pppoe-xp/guest)
	$(Q)tests/interop/guest/build-image.sh >/dev/null
