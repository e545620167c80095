// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the CHAP-MD5 and MS-CHAPv2 peer and authenticator in each
 * state; the input format is described in auth_fuzz.h.
 */
#include "auth_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_auth(data, size, false);
}
