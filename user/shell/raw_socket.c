// SPDX-License-Identifier: GPL-2.0
#include "raw_socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define VLAN_VID_MASK 0x0fff

/* MAC address and MTU of an interface. 0 or -errno (-ENODEV if it does not exist). */
static int link_info(const char *ifname, uint8_t mac[PXP_ETH_ALEN], unsigned int *mtu)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		err = -errno;
		goto out;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, PXP_ETH_ALEN);
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		err = -errno;
		goto out;
	}
	*mtu = (unsigned int)ifr.ifr_mtu;
out:
	close(fd);
	return err;
}

/*
 * The kernel-side filter. Session frames carrying IPv4 or IPv6 are data; the control
 * plane only wants the rest (control protocols, and unknown protocols it must
 * Protocol-Reject), so data frames the data path did not take are not copied to us.
 *
 * With a VLAN the socket listens to every protocol (ETH_P_ALL): only those taps see the
 * tag, which the stack strips into metadata and, having no VLAN device, then clears before
 * protocol handlers run. The filter then matches the ethertype and VLAN id from that
 * metadata. Offsets are from the Ethernet header, the tag being already out of the frame.
 */
/* Jump target placeholder in the filters below: "to the final drop". */
#define TO_DROP 0xff

static int attach_filter(int fd, uint16_t ethertype, uint16_t vlan_id)
{
	struct sock_filter code[16];
	struct sock_fprog prog = { .filter = code };
	unsigned int n = 0, i, drop;

	if (vlan_id) {
		code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							 SKF_AD_OFF + SKF_AD_PROTOCOL);
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ethertype, 0,
							 TO_DROP);
		code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							 SKF_AD_OFF + SKF_AD_VLAN_TAG_PRESENT);
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, TO_DROP, 0);
		code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							 SKF_AD_OFF + SKF_AD_VLAN_TAG);
		code[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, VLAN_VID_MASK);
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, vlan_id, 0,
							 TO_DROP);
	}
	if (ethertype == PXP_ETH_P_PPP_SES) {
		code[n++] =
			(struct sock_filter)BPF_STMT(BPF_LD | BPF_H | BPF_ABS, PXP_ETH_HLEN + 6);
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PPP_PROTO_IPV4,
							 TO_DROP, 0);
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PPP_PROTO_IPV6,
							 TO_DROP, 0);
	}
	if (n == 0)
		return 0;
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffff);
	drop = n;
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	for (i = 0; i < drop; i++) {
		if (code[i].jt == TO_DROP)
			code[i].jt = (uint8_t)(drop - i - 1);
		if (code[i].jf == TO_DROP)
			code[i].jf = (uint8_t)(drop - i - 1);
	}
	prog.len = (unsigned short)n;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)))
		return -errno;
	return 0;
}

int raw_socket_open(struct raw_socket *s, const char *ifname, uint16_t ethertype, uint16_t vlan_id,
		    uint8_t vlan_pcp)
{
	struct sockaddr_ll sll = { 0 };
	uint16_t bound_proto;
	int one = 1, rcvbuf = RAW_SOCKET_RCVBUF, err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->ethertype = ethertype;
	s->vlan_id = vlan_id;
	s->vlan_pcp = vlan_pcp;
	err = link_info(ifname, s->mac, &s->mtu);
	if (err)
		return err;
	s->ifindex = (int)if_nametoindex(ifname);
	if (!s->ifindex)
		return -errno;
	bound_proto = htons(vlan_id ? ETH_P_ALL : ethertype);
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, bound_proto);
	if (s->fd < 0)
		return -errno;
	err = attach_filter(s->fd, ethertype, vlan_id);
	if (err)
		goto fail;
	/* An ETH_P_ALL tap would also see our own frames leaving. */
	if (vlan_id && setsockopt(s->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one))) {
		err = -errno;
		goto fail;
	}
	if (setsockopt(s->fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one))) {
		err = -errno;
		goto fail;
	}
	/* Past net.core.rmem_max as root (FORCE); else as much as rmem_max allows. */
	if (setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = bound_proto;
	sll.sll_ifindex = s->ifindex;
	if (bind(s->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		goto fail;
	}
	return 0;
fail:
	raw_socket_close(s);
	return err;
}

uint64_t raw_socket_rx_dropped(struct raw_socket *s)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	/* The kernel's counters restart at every read: keep the sum. */
	if (s->fd >= 0 && !getsockopt(s->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		s->rx_dropped += st.tp_drops;
	return s->rx_dropped;
}

void raw_socket_close(struct raw_socket *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

ssize_t raw_socket_recv(struct raw_socket *s, void *buf, size_t cap)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = cap };
	struct sockaddr_ll from;
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = &control,
		.msg_controllen = sizeof(control),
	};
	uint16_t frame_vlan = 0;
	struct cmsghdr *cmsg;
	ssize_t n;

	n = recvmsg(s->fd, &msg, MSG_DONTWAIT);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		struct tpacket_auxdata aux;

		if (cmsg->cmsg_level != SOL_PACKET || cmsg->cmsg_type != PACKET_AUXDATA)
			continue;
		memcpy(&aux, CMSG_DATA(cmsg), sizeof(aux));
		if (aux.tp_status & TP_STATUS_VLAN_VALID)
			frame_vlan = aux.tp_vlan_tci & VLAN_VID_MASK;
	}
	/*
	 * Untagged sockets also get frames of VLANs the stack has no device for, with the
	 * tag already cleared but marked "other host"; so are unicasts to other stations.
	 */
	if (!s->vlan_id && from.sll_pkttype == PACKET_OTHERHOST)
		frame_vlan = VLAN_VID_MASK;
	if (frame_vlan != s->vlan_id) {
		s->rx_other_vlan++;
		return 0;
	}
	return n;
}

int raw_socket_send(struct raw_socket *s, const void *frame, size_t len)
{
	uint8_t tagged[PXP_ETH_HLEN + PXP_VLAN_HLEN + 1600];
	const void *out = frame;
	uint16_t tci;
	ssize_t n;

	if (len < PXP_ETH_HLEN)
		return -EINVAL;
	if (s->vlan_id) {
		if (len + PXP_VLAN_HLEN > sizeof(tagged))
			return -EMSGSIZE;
		tci = htons((uint16_t)(s->vlan_pcp << 13 | s->vlan_id));
		memcpy(tagged, frame, 2 * PXP_ETH_ALEN);
		tagged[12] = PXP_ETH_P_8021Q >> 8;
		tagged[13] = PXP_ETH_P_8021Q & 0xff;
		memcpy(tagged + 14, &tci, sizeof(tci));
		memcpy(tagged + 16, (const uint8_t *)frame + 12, len - 12);
		out = tagged;
		len += PXP_VLAN_HLEN;
	}
	n = send(s->fd, out, len, 0);
	if (n < 0) {
		s->tx_errors++;
		return -errno;
	}
	return 0;
}
