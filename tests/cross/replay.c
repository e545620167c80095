// SPDX-License-Identifier: GPL-2.0
/*
 * A libFuzzer harness's entry point driven by plain files: linked with one of tests/fuzz/'s
 * harnesses instead of libFuzzer (which a cross toolchain lacks), it replays the seed corpus
 * on the target's CPU under qemu-user. A crash or a sanitizer-free abort fails the run.
 * usage: replay FILE...
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Larger than every seed; a bigger file is an error, not a silent cut. */
#define REPLAY_MAX (1 << 20)

int main(int argc, char **argv)
{
	static uint8_t buf[REPLAY_MAX + 1];
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (!f) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (n > REPLAY_MAX) {
			fprintf(stderr, "replay: %s is larger than %d bytes\n", argv[i],
				REPLAY_MAX);
			return 1;
		}
		/* A copy of exactly n bytes, so that reading past the input is reading past malloc.
		 */
		uint8_t *in = malloc(n ? n : 1);

		if (!in)
			return 1;
		memcpy(in, buf, n);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
	}
	return 0;
}
