/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O shell both daemons wrap around their PPPoE sessions (client.c: one session with
 * an AC; server.c: the AC's many): the event loop, the control socket and its commands,
 * rtnetlink, the data path, the WAN port's two raw sockets with the read loops that feed
 * their frames to the pure cores, the PPP links' framing into session frames, and each
 * session's netdev and addresses. What a role decides (when a session starts or ends,
 * which address it gets, what its status shows) stays in client.c or server.c, reached
 * through struct shell_role.
 *
 * Concurrency: the daemon's single thread.
 */
#ifndef PXP_SESSION_SHELL_H
#define PXP_SESSION_SHELL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "control.h"
#include "datapath.h"
#include "event_loop.h"
#include "netlink.h"
#include "ppp.h"
#include "raw_socket.h"
#include "session_frame.h"
#include "settings.h"
#include "status.h"

#define SHELL_FRAME_BUF	  2048
/* Frames the PPP links may send while one received frame is processed, held (see holding). */
#define SHELL_HELD_FRAMES 8

/* A session frame built to be sent: its PPP packet (for --debug) starts at ppp_off. */
struct shell_tx_frame {
	uint16_t len, ppp_off, ppp_proto, session_id;
	uint8_t frame[SHELL_FRAME_BUF];
};

struct session_shell;

/* One PPPoE session: its PPP link and its session netdev. */
struct shell_session {
	struct session_shell *sh;
	uint16_t session_id; /* 0 = none */
	uint8_t peer_mac[PXP_ETH_ALEN];
	uint16_t max_payload; /* agreed in discovery (RFC 4638), else 1492 */
	struct ppp ppp;
	bool ppp_active; /* shell_session_start_ppp() .. shell_session_end() */
	bool closing;	 /* ppp_close() called: PPP_EV_LINK_DOWN will follow */
	/* At ppp_deadline(): re-armed after every call into the link, here alone. */
	struct ev_timer ppp_timer;
	char ifname[IF_NAMESIZE];
	int ifindex; /* session netdev, 0 = none */
	uint16_t mtu;
	uint32_t local_ip, peer_ip; /* network order */
	bool addr_set, link_local_set;
	uint8_t local_ifid[8];
};

/* What a role (client or server) tells the shell. */
struct shell_role {
	const char *name; /* "client" or "server", as status and stats show it */
	/* The session in slot i (0 .. sh->max_sessions - 1), NULL for a free slot. */
	struct shell_session *(*session_at)(struct session_shell *sh, unsigned int i);
	/* A discovery frame (0x8863) for the role's discovery core. */
	void (*disc_input)(struct session_shell *sh, uint64_t now, const uint8_t *frame,
			   size_t len);
	/*
	 * A well-formed session frame to our MAC from (peer_mac, session_id), which no session
	 * of the role's has (counted as unknown-session); NULL to only count it.
	 */
	void (*unknown_session)(struct session_shell *sh, uint64_t now, const uint8_t *peer_mac,
				uint16_t session_id);
	/* Acts on what core callbacks recorded; called after every frame read. */
	void (*process_pending)(struct session_shell *sh, uint64_t now);
	/* The state word of status and stats: "up", "negotiating", "running", ... */
	const char *(*state)(struct session_shell *sh);
	/* The control commands "status" and "status-json"; see shell_status_begin(). */
	void (*write_status)(struct session_shell *sh, FILE *out, bool json);
	/* The control command "down": end the sessions, then the daemon. */
	void (*request_stop)(struct session_shell *sh, uint64_t now);
	/* Optional: a session's PPP timer is due, just before ppp_timer() runs. */
	void (*ppp_timer_due)(struct shell_session *s, uint64_t now);
};

struct session_shell {
	const struct shell_role *role;
	const char *iface; /* the WAN port */
	unsigned int max_sessions;
	struct ev_loop loop;
	struct control_server ctl;
	struct pxp_netlink *nl;
	struct pxp_dp *dp; /* NULL until shell_attach_datapath() */
	struct raw_socket disc_sock, sess_sock;
	struct ev_handler disc_handler, sess_handler;
	/* With more than one session: the sessions by id (shell_index_session()), so that a
	 * frame finds its session in O(1). */
	struct shell_session **by_id;
	/* Session frames (0x8864) to and from the PPP links, over all sessions. */
	uint64_t session_rx, session_tx, session_tx_errors;
	uint64_t session_drops[SESSION_DROP_REASON_COUNT];
	/* --debug's rate limit of discovery frame lines: this second's window. */
	uint64_t disc_debug_window_ms;
	unsigned int disc_debug_shown, disc_debug_skipped;
	uint8_t rx_buf[SHELL_FRAME_BUF];
	struct shell_tx_frame tx;
	/*
	 * What the PPP links send while ppp_input() runs is held and sent when it returns, so
	 * that what that frame made happen is done first: the AC adds its address when IPCP
	 * opens, and the peer must not hear the Configure-Ack that opens it before (its first
	 * packet would find no address). In order; a frame past the last slot sends the held
	 * ones first.
	 */
	bool holding;
	unsigned int n_held;
	struct shell_tx_frame held[SHELL_HELD_FRAMES];
};

/*
 * Opens the event loop, the control socket, rtnetlink and the raw sockets on iface (tagged
 * with vlan_id, sending with priority vlan_pcp), with their frames going to role. Logs
 * what failed; returns an enum pxp_exit code. shell_close() undoes it, also after a
 * failure.
 */
int shell_open(struct session_shell *sh, const struct shell_role *role, const char *iface,
	       unsigned int max_sessions, uint16_t vlan_id, uint8_t vlan_pcp);
/* Attaches the data path to the WAN port; logs what failed; returns an enum pxp_exit code. */
int shell_attach_datapath(struct session_shell *sh, const struct daemon_settings *common,
			  uint8_t vlan_pcp);
/* Detaches the data path (also the first step of shell_close()). */
void shell_detach_datapath(struct session_shell *sh);
void shell_close(struct session_shell *sh);
/* A discovery core's frame out of the discovery socket (decoded at --debug). 0 or -errno. */
int shell_disc_send(struct session_shell *sh, const void *frame, size_t len);
/* Adds a session to the index by id (unique among the role's sessions), or removes it. */
void shell_index_session(struct session_shell *sh, struct shell_session *s, bool add);
/* The session with this id and peer, or NULL. */
struct shell_session *shell_find_session(struct session_shell *sh, uint16_t session_id,
					 const uint8_t *peer_mac);

/*
 * The session's netdev (s->ifname) with MTU mtu, carried by the data path; 0 or -errno
 * (s->ifindex stays 0).
 */
int shell_session_add_netdev(struct shell_session *s, uint16_t mtu);
/* The session netdev's MTU (pxp0 and the data path alike); 0 without a netdev. */
int shell_session_set_mtu(struct shell_session *s, uint16_t mtu);
/*
 * Starts the session's PPP link (LCP begins): cb brings the role's event (and, for a
 * server, get_secret) callbacks, whose ctx is s; the shell sends the link's packets.
 */
int shell_session_start_ppp(struct shell_session *s, const struct ppp_config *cfg,
			    const struct ppp_callbacks *cb, uint64_t now);
/* ppp_close() once (s->closing says so); PPP_EV_LINK_DOWN follows. */
void shell_session_close(struct shell_session *s, uint64_t now);
/* ppp_lower_down() of a running link: the PPPoE session is gone. */
void shell_session_lower_down(struct shell_session *s, uint64_t now);
/* local_ip peer peer_ip on the session netdev. */
int shell_session_add_addr(struct shell_session *s);
/* The fe80:: address of the identifier IPv6CP agreed on, on the session netdev. */
int shell_session_add_link_local(struct shell_session *s);
/* Undo those two; no-ops when not set (or the netdev is gone). */
void shell_session_del_addr(struct shell_session *s);
void shell_session_del_link_local(struct shell_session *s);
/*
 * The info line of a session that was up for connect_ms: connect time and the session
 * netdev's bytes and packets each way. Call it before the netdev goes.
 */
void shell_session_log_end(const struct shell_session *s, uint64_t connect_ms);
/* Deletes the session netdev (the data path stops carrying it) and the PPP link. */
void shell_session_end(struct shell_session *s);

/*
 * Status that both roles show: iface, role, pid and state first; discovery counters; and
 * the control_frames object.
 */
void shell_status_begin(struct session_shell *sh, struct status_writer *w, FILE *out, bool json);
void shell_status_disc_counters(struct status_writer *w, uint64_t rx, uint64_t tx,
				const uint64_t drops[PPPOE_DROP_REASON_COUNT]);
/* redirects_refused: what the WAN port's driver refused after our XDP redirects, by errno. */
void shell_status_refused(struct session_shell *sh, struct status_writer *w);
/* link: the counters of the one PPP link (client), or NULL for many sessions. */
void shell_status_frames(struct session_shell *sh, struct status_writer *w,
			 const struct ppp_status *link);
/* Which programs run each half of sh's data path ("rx tc (tcx), tx xdp (native)"): buf. */
const char *shell_dp_halves(const struct session_shell *sh, char *buf, size_t len);

#endif
