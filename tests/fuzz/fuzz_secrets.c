// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the pppd secrets file parser: arbitrary bytes as a file. A
 * success must give sane records that lookups can use; a failure must leave nothing
 * allocated and an error naming the file and a line.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "secrets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t secret[PPP_SECRET_MAX];
	struct secrets s;
	char err[256];
	int ret;

	ret = secrets_parse(&s, "fuzz", (const char *)data, size, err, sizeof(err));
	if (ret) {
		if (s.count || s.entries || strncmp(err, "fuzz", 4) != 0)
			__builtin_trap();
		return 0;
	}
	for (size_t i = 0; i < s.count; i++) {
		const struct secrets_entry *e = &s.entries[i];

		if (!e->client || !e->server || !e->secret || e->secret_len > PPP_SECRET_MAX ||
		    strlen(e->client) > PPP_NAME_MAX || strlen(e->server) > PPP_NAME_MAX)
			__builtin_trap();
		/*
		 * Every record's own names find some record, never a longer secret than fits;
		 * the one found may allow no address ('-'), and then no secret comes out.
		 */
		ret = secrets_lookup(&s, e->client, e->server, secret, sizeof(secret), NULL);
		if ((ret < 0 && ret != -EACCES) || ret > PPP_SECRET_MAX)
			__builtin_trap();
		secrets_lookup(&s, e->client, NULL, secret, sizeof(secret), NULL);
	}
	secrets_free(&s);
	return 0;
}
