// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: the client side of N PPPoE sessions from one process, against an AC on the
 * other end of IFACE. Each session is the real pure cores (pppoe/discovery_client.c and
 * the PPP link of pppoe/ppp.c in the client role) with a MAC of its own, 02:4c:00:00:HI:LO
 * for session index HI*256+LO; one pair of promiscuous AF_PACKET sockets carries them all.
 *
 *   ac_load --iface IF --sessions N [--rate R] [--down-rate R] [--user U --password P]
 *           [--timeout S]
 *
 * Starts R sessions a second (default 100) and prints "up N of N in MS ms" once all reached
 * IPCP Opened (exit 1 with "FAIL ..." after --timeout S, default 60). Then one ICMP echo
 * request per session, from the address IPCP gave it to the AC's, as a PPP session data
 * frame: the AC's data path decapsulates it, its stack answers, and the data path
 * encapsulates the answer; again each second while unanswered (the AC may write a session's
 * data path a little after its IPCP opened). Prints "traffic A of N sessions answered in MS
 * ms, E echoes sent" and exits 1 unless every session got its answer within 10 s. Counts the
 * AC's LCP and IPCP Configure-Requests (one each per session when none was sent again). Holds the
 * sessions up (answers LCP echoes) until SIGUSR1 or SIGTERM, then sends a PADT for each,
 * --down-rate a second (default R), prints "down N in MS ms" and exits 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "discovery.h"
#include "fsm.h"
#include "ppp.h"
#include "pppoe_wire.h"
#include "random.h"
#include "session_frame.h"

#define MAX_SESSIONS  4096
#define ECHO_LEN      64    /* IPv4 + ICMP header + payload of each echo request */
#define ECHO_BATCH    32    /* echoes per loop pass: veth rings hold 256 frames */
#define ECHO_WAIT_MS  10000 /* for the last answer, on a loaded machine */
/* The next echo of a session not answered: the AC may not have its data path written yet. */
#define ECHO_RETRY_MS 1000

struct load_session {
	unsigned int index;
	uint8_t mac[PXP_ETH_ALEN];
	struct disc_client disc;
	struct ppp ppp;
	uint16_t session_id;
	uint8_t ac_mac[PXP_ETH_ALEN];
	bool started, ppp_on, up, failed, ended, echo_sent, answered;
};

static struct load_session *sessions;
static unsigned int nr_sessions;
static int disc_fd = -1, sess_fd = -1, ifindex;
static volatile sig_atomic_t stop_requested;
static const char *user = "load", *password = "load";
/* Configure-Requests from the AC, all sessions: one each per session unless it resent. */
static unsigned long lcp_requests, ipcp_requests;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int send_frame(int fd, const void *frame, size_t len)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6 };

	memcpy(to.sll_addr, frame, 6);
	if (sendto(fd, frame, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

static int disc_send(void *ctx, const void *frame, size_t len)
{
	(void)ctx;
	return send_frame(disc_fd, frame, len);
}

static void ppp_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct load_session *s = ctx;
	uint8_t buf[1600];
	int n = session_frame_build(buf, sizeof(buf), s->ac_mac, s->mac, s->session_id, proto, data,
				    len);

	if (n > 0)
		send_frame(sess_fd, buf, (size_t)n);
}

static void ppp_event(void *ctx, enum ppp_event ev, int reason)
{
	struct load_session *s = ctx;

	if (ev == PPP_EV_IPV4_UP)
		s->up = true;
	if (ev == PPP_EV_LINK_DOWN) {
		if (!stop_requested)
			fprintf(stderr, "session %u (id %u): link down: %s\n", s->index,
				s->session_id, ppp_down_reason_text((enum ppp_down_reason)reason));
		s->up = false;
		s->failed = !stop_requested;
	}
}

static void disc_event(void *ctx, const struct disc_client_event *ev)
{
	struct load_session *s = ctx;
	struct ppp_callbacks cb = {
		.ctx = s, .send = ppp_send, .event = ppp_event, .random = pxp_random_fill
	};
	struct ppp_config cfg = { .role = PPP_ROLE_CLIENT };

	switch (ev->type) {
	case DISC_EV_SESSION_UP:
		s->session_id = ev->session_id;
		memcpy(s->ac_mac, ev->ac_mac, PXP_ETH_ALEN);
		snprintf(cfg.user, sizeof(cfg.user), "%s", user);
		cfg.password_len = strlen(password);
		memcpy(cfg.password, password, cfg.password_len);
		if (ppp_init(&s->ppp, &cfg, &cb)) {
			s->failed = true;
			return;
		}
		s->ppp_on = true;
		ppp_lower_up(&s->ppp, now_ms());
		break;
	case DISC_EV_SESSION_DOWN:
		if (s->ppp_on)
			ppp_lower_down(&s->ppp, now_ms());
		s->failed = true;
		fprintf(stderr, "session %u (id %u): PADT from the AC\n", s->index, s->session_id);
		break;
	case DISC_EV_FAILED:
		s->failed = true;
		fprintf(stderr, "session %u: discovery failed: %s\n", s->index, ev->message);
		break;
	default:
		break;
	}
}

static int start_session(struct load_session *s)
{
	struct disc_client_config cfg = { .padi_attempts = 5,
					  .padr_attempts = 5,
					  .initial_timeout_ms = 1000 };
	struct disc_client_ops ops = {
		.io = { .ctx = s, .send = disc_send, .random = pxp_random_fill },
		.event = disc_event,
	};
	int err;

	memcpy(cfg.local_mac, s->mac, PXP_ETH_ALEN);
	err = disc_client_init(&s->disc, &cfg, &ops);
	if (!err)
		err = disc_client_start(&s->disc, now_ms());
	s->started = true;
	return err;
}

/* The session a frame is addressed to, by our MAC scheme, or NULL. */
static struct load_session *session_for(const uint8_t *dst)
{
	unsigned int i;

	if (dst[0] != 0x02 || dst[1] != 0x4c || dst[2] || dst[3])
		return NULL;
	i = (unsigned int)dst[4] << 8 | dst[5];
	return i < nr_sessions && sessions[i].started ? &sessions[i] : NULL;
}

static uint16_t inet_csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* An ICMP echo request from the session's address, identifier = the session's index. */
static void send_echo(struct load_session *s)
{
	struct ppp_status st;
	uint8_t ip[ECHO_LEN] = { 0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 1 };
	uint8_t *icmp = ip + 20;

	ppp_get_status(&s->ppp, &st);
	put16(ip + 2, ECHO_LEN);
	memcpy(ip + 12, &st.local_ip, 4);
	memcpy(ip + 16, &st.peer_ip, 4);
	put16(ip + 10, inet_csum(ip, 20));
	icmp[0] = 8; /* echo request */
	put16(icmp + 4, (uint16_t)s->index);
	put16(icmp + 6, 1);
	memset(icmp + 8, 0xa5, ECHO_LEN - 28);
	put16(icmp + 2, inet_csum(icmp, ECHO_LEN - 20));
	ppp_send(s, PPP_PROTO_IPV4, ip, sizeof(ip));
	s->echo_sent = true;
}

/* True if an IPv4 packet is the echo reply to this session's request. */
static bool is_our_answer(const struct load_session *s, const uint8_t *ip, size_t len)
{
	size_t ihl;

	if (len < 20 || ip[0] >> 4 != 4)
		return false;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	if (ihl < 20 || len < ihl + 8 || ip[9] != 1)
		return false;
	return ip[ihl] == 0 && (ip[ihl + 4] << 8 | ip[ihl + 5]) == (int)s->index;
}

static void read_socket(int fd, bool disc)
{
	uint8_t buf[2048];

	for (int burst = 0; burst < 256; burst++) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n =
			recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		struct load_session *s;
		struct session_frame f;
		enum session_drop_reason why;

		if (n < 0)
			return;
		if (from.sll_pkttype == PACKET_OUTGOING || n < PXP_ETH_HLEN)
			continue;
		s = session_for(buf);
		if (!s)
			continue;
		if (disc) {
			disc_client_input(&s->disc, now_ms(), buf, (size_t)n);
			continue;
		}
		if (!s->ppp_on || session_frame_parse(buf, (size_t)n, &f, &why) ||
		    f.session_id != s->session_id)
			continue;
		if (f.ppp_proto == PPP_PROTO_IPV4) {
			ppp_data_seen(&s->ppp, now_ms());
			if (s->echo_sent && is_our_answer(s, f.payload, f.payload_len))
				s->answered = true;
			continue;
		}
		if (f.payload_len && f.payload[0] == FSM_CONF_REQ) {
			lcp_requests += f.ppp_proto == PPP_PROTO_LCP;
			ipcp_requests += f.ppp_proto == PPP_PROTO_IPCP;
		}
		ppp_input(&s->ppp, now_ms(), f.ppp_proto, f.payload, f.payload_len);
	}
}

static int open_socket(const char *iface, uint16_t proto)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(proto) };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };
	int one = 1 << 22, fd;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
	if (fd < 0)
		return -1;
	sll.sll_ifindex = ifindex;
	mr.mr_ifindex = ifindex;
	/* Our many MACs are not the port's: the AC's unicast replies need promiscuous mode. */
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &one, sizeof(one))) {
		fprintf(stderr, "%s: socket for 0x%04x: %s\n", iface, proto, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Runs timers, then waits for frames until the earliest deadline or 10 ms. */
static void step(void)
{
	struct pollfd pfd[2] = { { .fd = disc_fd, .events = POLLIN },
				 { .fd = sess_fd, .events = POLLIN } };
	uint64_t now = now_ms(), next = now + 10;

	for (unsigned int i = 0; i < nr_sessions; i++) {
		struct load_session *s = &sessions[i];

		if (!s->started || s->ended)
			continue;
		if (disc_client_deadline(&s->disc) <= now)
			disc_client_timer(&s->disc, now);
		if (s->ppp_on && ppp_deadline(&s->ppp) <= now)
			ppp_timer(&s->ppp, now);
		if (disc_client_deadline(&s->disc) < next)
			next = disc_client_deadline(&s->disc);
		if (s->ppp_on && ppp_deadline(&s->ppp) < next)
			next = ppp_deadline(&s->ppp);
	}
	if (poll(pfd, 2, next > now ? (int)(next - now) : 0) > 0) {
		if (pfd[0].revents)
			read_socket(disc_fd, true);
		if (pfd[1].revents)
			read_socket(sess_fd, false);
	}
}

static unsigned int count(bool (*pred)(const struct load_session *))
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nr_sessions; i++)
		n += pred(&sessions[i]);
	return n;
}

static bool is_up(const struct load_session *s)
{
	return s->up;
}

static bool is_failed(const struct load_session *s)
{
	return s->failed;
}

static bool is_answered(const struct load_session *s)
{
	return s->answered;
}

/*
 * An echo to every session not answered yet, ECHO_BATCH a pass, a round every
 * ECHO_RETRY_MS; 0 once every session has its answer, -1 after ECHO_WAIT_MS.
 */
static int traffic(void)
{
	uint64_t t0 = now_ms(), deadline = t0 + ECHO_WAIT_MS, next_round = t0;
	unsigned int next = nr_sessions, echoes = 0, shown = 0;

	while (count(is_answered) < nr_sessions && !stop_requested && !count(is_failed) &&
	       now_ms() <= deadline) {
		if (next == nr_sessions && now_ms() >= next_round) {
			next = 0;
			next_round = now_ms() + ECHO_RETRY_MS;
		}
		for (unsigned int b = 0; b < ECHO_BATCH && next < nr_sessions; next++) {
			if (sessions[next].answered)
				continue;
			send_echo(&sessions[next]);
			echoes++;
			b++;
		}
		step();
	}
	printf("traffic %u of %u sessions answered in %llu ms, %u echoes sent\n",
	       count(is_answered), nr_sessions, (unsigned long long)(now_ms() - t0), echoes);
	for (unsigned int i = 0; i < nr_sessions && shown < 5; i++) {
		if (sessions[i].answered)
			continue;
		fprintf(stderr, "session %u (id %u): no echo reply\n", i, sessions[i].session_id);
		shown++;
	}
	fflush(stdout);
	return count(is_answered) == nr_sessions ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iface", required_argument, NULL, 'i' },
		{ "sessions", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "user", required_argument, NULL, 'u' },
		{ "password", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "down-rate", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *iface = NULL;
	unsigned long rate = 100, down_rate = 0, timeout_s = 60;
	uint64_t t0, deadline, next_start;
	unsigned int started = 0, ended = 0;
	int c;

	nr_sessions = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			iface = optarg;
			break;
		case 'n':
			nr_sessions = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rate = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			user = optarg;
			break;
		case 'p':
			password = optarg;
			break;
		case 't':
			timeout_s = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			down_rate = strtoul(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (!down_rate)
		down_rate = rate;
	if (!iface || !nr_sessions || nr_sessions > MAX_SESSIONS || !rate || rate > 100000 ||
	    down_rate > 100000) {
		fprintf(stderr,
			"usage: ac_load --iface IF --sessions 1..%u [--rate 1..100000] "
			"[--down-rate 1..100000] [--user U --password P] [--timeout S]\n",
			MAX_SESSIONS);
		return 2;
	}
	ifindex = (int)if_nametoindex(iface);
	if (!ifindex) {
		fprintf(stderr, "%s: %s\n", iface, strerror(errno));
		return 1;
	}
	disc_fd = open_socket(iface, PXP_ETH_P_PPP_DISC);
	sess_fd = open_socket(iface, PXP_ETH_P_PPP_SES);
	sessions = calloc(nr_sessions, sizeof(*sessions));
	if (disc_fd < 0 || sess_fd < 0 || !sessions)
		return 1;
	for (unsigned int i = 0; i < nr_sessions; i++) {
		uint8_t mac[PXP_ETH_ALEN] = { 0x02, 0x4c, 0, 0, (uint8_t)(i >> 8), (uint8_t)i };

		sessions[i].index = i;
		memcpy(sessions[i].mac, mac, sizeof(mac));
	}
	signal(SIGUSR1, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	t0 = next_start = now_ms();
	deadline = t0 + timeout_s * 1000;
	while (count(is_up) < nr_sessions && !stop_requested) {
		while (started < nr_sessions && now_ms() >= next_start) {
			if (start_session(&sessions[started]))
				sessions[started].failed = true;
			started++;
			next_start = t0 + started * 1000 / rate;
		}
		if (count(is_failed) || now_ms() > deadline) {
			printf("FAIL up %u of %u, %u failed, after %llu ms\n", count(is_up),
			       nr_sessions, count(is_failed), (unsigned long long)(now_ms() - t0));
			return 1;
		}
		step();
	}
	printf("up %u of %u in %llu ms\n", count(is_up), nr_sessions,
	       (unsigned long long)(now_ms() - t0));
	printf("configure-requests from the AC: LCP %lu, IPCP %lu\n", lcp_requests, ipcp_requests);
	fflush(stdout);
	if (traffic())
		return 1;
	while (!stop_requested) {
		step();
		if (count(is_failed)) {
			printf("FAIL %u sessions lost while held up\n", count(is_failed));
			return 1;
		}
	}

	t0 = next_start = now_ms();
	while (ended < nr_sessions) {
		while (ended < nr_sessions && now_ms() >= next_start) {
			struct load_session *s = &sessions[ended];

			disc_client_stop(&s->disc, now_ms()); /* the PADT */
			if (s->ppp_on)
				ppp_destroy(&s->ppp);
			s->ppp_on = false;
			s->ended = true;
			ended++;
			next_start = t0 + ended * 1000 / down_rate;
		}
		step();
	}
	printf("down %u in %llu ms\n", ended, (unsigned long long)(now_ms() - t0));
	return 0;
}
