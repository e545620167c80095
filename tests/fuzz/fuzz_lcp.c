// SPDX-License-Identifier: GPL-2.0
/* Arbitrary LCP packets (mixed with other PPP protocols) into a link in each phase. */
#include "fuzz_ppp_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_ppp_run(data, size, PPP_PROTO_LCP);
}
