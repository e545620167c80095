// SPDX-License-Identifier: GPL-2.0
/* The status writer: JSON that parses whatever the wire put into names, and its text form. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "status.h"

static char *render(bool json, const char *hostile)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0xab };
	static const uint8_t ifid[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct status_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	status_begin(&w, f, json);
	status_str(&w, "ac_name", hostile);
	status_u64(&w, "session_id", 4660);
	status_ipv4(&w, "local_ip", inet_addr("100.64.1.2"));
	status_ipv4(&w, "peer_ip", 0);
	status_mac(&w, "ac_mac", mac);
	status_link_local(&w, "ipv6_local", ifid);
	status_array_begin(&w, "dns");
	status_ipv4(&w, NULL, inet_addr("9.9.9.9"));
	status_ipv4(&w, NULL, inet_addr("1.1.1.1"));
	status_array_end(&w);
	status_object_begin(&w, "echo");
	status_u64(&w, "sent", 3);
	status_bool(&w, "adaptive", false);
	status_object_end(&w);
	status_array_begin(&w, "sessions");
	status_object_begin(&w, NULL);
	status_u64(&w, "id", 1);
	status_object_end(&w);
	status_object_begin(&w, NULL);
	status_u64(&w, "id", 2);
	status_object_end(&w);
	status_array_end(&w);
	status_end(&w);
	fclose(f);
	return buf;
}

TEST(json_escapes_hostile_names)
{
	char *out = render(true, "ac\"\\\n\x01\xff");

	CHECK(out != NULL);
	CHECK(strstr(out, "\"ac_name\":\"ac\\\"\\\\\\u000a\\u0001\\u00ff\"") != NULL);
	free(out);
}

TEST(json_shape)
{
	char *out = render(true, "isp");
	const char *want = "{\"ac_name\":\"isp\",\"session_id\":4660,\"local_ip\":\"100.64.1.2\","
			   "\"peer_ip\":null,\"ac_mac\":\"02:00:00:00:00:ab\","
			   "\"ipv6_local\":\"fe80::102:304:506:708\","
			   "\"dns\":[\"9.9.9.9\",\"1.1.1.1\"],"
			   "\"echo\":{\"sent\":3,\"adaptive\":false},"
			   "\"sessions\":[{\"id\":1},{\"id\":2}]}\n";

	CHECK(out != NULL);
	CHECK(!strcmp(out, want));
	free(out);
}

TEST(text_form)
{
	char *out = render(false, "bad\nname");

	CHECK(out != NULL);
	CHECK(strstr(out, "ac_name: bad?name\n") != NULL);
	CHECK(strstr(out, "peer_ip: -\n") != NULL);
	CHECK(strstr(out, "dns: 9.9.9.9 1.1.1.1\n") != NULL);
	CHECK(strstr(out, "echo: \n  sent: 3\n  adaptive: no\n") != NULL);
	free(out);
}

int main(void)
{
	check_prefix = "status_writer";
	RUN(json_escapes_hostile_names);
	RUN(json_shape);
	RUN(text_form);
	return check_summary();
}
