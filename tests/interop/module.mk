# The qemu guest that runs Debian's own kernel PPPoE for the interop tests and
# the benchmark's baselines. The image is cached outside the tree (in
# /var/cache/pppoe-xp/guest-<kernel series>/<hash of inputs>/), so this is instant
# when nothing changed; tests build it on first use anyway. Both kernel series.
.PHONY: guest-image
guest-image:
	$(call msg,GUEST,/var/cache/pppoe-xp/guest-6.1 guest-6.12)
	$(Q)tests/interop/guest/build-image.sh --kernel 6.1 >/dev/null
	$(Q)tests/interop/guest/build-image.sh --kernel 6.12 >/dev/null

# tests/interop/clock_back.c: an LD_PRELOAD library that sets a process's wall clock back, as
# on a router without an RTC (test_wg_device.sh stamp_after_restart).
all: $(O)/tests/interop/clock_back.so

$(O)/tests/interop/clock_back.so: tests/interop/clock_back.c
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 $(WARNINGS) $(CFLAGS) -fPIC -shared $(LDFLAGS) $< -ldl -o $@
