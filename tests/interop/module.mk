# The qemu guest that runs Debian's own kernel PPPoE for the interop tests and
# the benchmark's baselines. The image is cached outside the tree (in
# /var/cache/pppoe-xp/guest-<kernel series>/<hash of inputs>/), so this is instant
# when nothing changed; tests build it on first use anyway. Both kernel series.
.PHONY: guest-image
guest-image:
	$(call msg,GUEST,/var/cache/pppoe-xp/guest-6.1 guest-6.12)
	$(Q)tests/interop/guest/build-image.sh --kernel 6.1 >/dev/null
	$(Q)tests/interop/guest/build-image.sh --kernel 6.12 >/dev/null

# LD_PRELOAD libraries for test_wg_device.sh: clock_back.c sets a process's wall clock back,
# as on a router without an RTC (stamp_after_restart); no_ipv6.c hides IPv6 from it, as a
# host booted with ipv6.disable=1 (ipv4_only).
all: $(O)/tests/interop/clock_back.so $(O)/tests/interop/no_ipv6.so

$(O)/tests/interop/%.so: tests/interop/%.c
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 $(WARNINGS) $(CFLAGS) -fPIC -shared $(LDFLAGS) $< -ldl -o $@
