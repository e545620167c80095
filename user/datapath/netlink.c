// SPDX-License-Identifier: GPL-2.0
#include "netlink.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct pxp_netlink {
	struct nl_sock *sock;
};

/* libnl returns its own negative codes; callers expect -errno. */
int nl_to_errno(int nlerr)
{
	switch (-nlerr) {
	case 0:
		return 0;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_OBJ_NOTFOUND:
	case NLE_NODEV:
		return -ENODEV;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_INVAL:
	case NLE_RANGE:
		return -EINVAL;
	case NLE_NOADDR:
		return -EADDRNOTAVAIL;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

int pxp_netlink_open(struct pxp_netlink **out)
{
	struct pxp_netlink *nl = calloc(1, sizeof(*nl));
	int err;

	if (!nl)
		return -ENOMEM;
	nl->sock = nl_socket_alloc();
	if (!nl->sock) {
		err = -ENOMEM;
		goto free_nl;
	}
	err = nl_to_errno(nl_connect(nl->sock, NETLINK_ROUTE));
	if (err)
		goto free_sock;
	*out = nl;
	return 0;
free_sock:
	nl_socket_free(nl->sock);
free_nl:
	free(nl);
	return err;
}

void pxp_netlink_close(struct pxp_netlink *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sock);
	free(nl);
}

int pxp_netlink_link_stats(struct pxp_netlink *nl, int ifindex, struct pxp_link_stats *st)
{
	struct rtnl_link *link;
	int err;

	err = nl_to_errno(rtnl_link_get_kernel(nl->sock, ifindex, NULL, &link));
	if (err)
		return err;
	st->rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS);
	st->rx_bytes = rtnl_link_get_stat(link, RTNL_LINK_RX_BYTES);
	st->tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS);
	st->tx_bytes = rtnl_link_get_stat(link, RTNL_LINK_TX_BYTES);
	rtnl_link_put(link);
	return 0;
}

static struct nl_addr *make_addr(int family, const void *bytes, size_t len, int prefix)
{
	struct nl_addr *a = nl_addr_build(family, bytes, len);

	if (a)
		nl_addr_set_prefixlen(a, prefix);
	return a;
}

/* Builds and adds or deletes one address; peer may be NULL. */
static int change_addr(struct pxp_netlink *nl, bool add, int ifindex, struct nl_addr *local,
		       struct nl_addr *peer)
{
	struct rtnl_addr *addr = rtnl_addr_alloc();
	int err;

	if (!addr || !local)
		return -ENOMEM;
	rtnl_addr_set_ifindex(addr, ifindex);
	rtnl_addr_set_family(addr, nl_addr_get_family(local));
	err = nl_to_errno(rtnl_addr_set_local(addr, local));
	if (!err && peer)
		err = nl_to_errno(rtnl_addr_set_peer(addr, peer));
	if (!err && add) {
		err = nl_to_errno(rtnl_addr_add(nl->sock, addr, NLM_F_REPLACE));
		if (err == -EEXIST)
			err = 0;
	} else if (!err) {
		err = nl_to_errno(rtnl_addr_delete(nl->sock, addr, 0));
	}
	rtnl_addr_put(addr);
	return err;
}

static int p2p(struct pxp_netlink *nl, bool add, int ifindex, uint32_t local, uint32_t peer)
{
	struct nl_addr *l = make_addr(AF_INET, &local, 4, 32);
	struct nl_addr *p = make_addr(AF_INET, &peer, 4, 32);
	int err = -ENOMEM;

	if (l && p)
		err = change_addr(nl, add, ifindex, l, p);
	if (l)
		nl_addr_put(l);
	if (p)
		nl_addr_put(p);
	return err;
}

int pxp_netlink_add_p2p(struct pxp_netlink *nl, int ifindex, uint32_t local, uint32_t peer)
{
	return p2p(nl, true, ifindex, local, peer);
}

int pxp_netlink_del_p2p(struct pxp_netlink *nl, int ifindex, uint32_t local, uint32_t peer)
{
	return p2p(nl, false, ifindex, local, peer);
}

static int link_local(struct pxp_netlink *nl, bool add, int ifindex, const uint8_t ifid[8])
{
	uint8_t bytes[16] = { 0xfe, 0x80 };
	struct nl_addr *a;
	int err;

	memcpy(bytes + 8, ifid, 8);
	a = make_addr(AF_INET6, bytes, sizeof(bytes), 64);
	if (!a)
		return -ENOMEM;
	err = change_addr(nl, add, ifindex, a, NULL);
	nl_addr_put(a);
	return err;
}

int pxp_netlink_add_link_local(struct pxp_netlink *nl, int ifindex, const uint8_t ifid[8])
{
	return link_local(nl, true, ifindex, ifid);
}

int pxp_netlink_del_link_local(struct pxp_netlink *nl, int ifindex, const uint8_t ifid[8])
{
	return link_local(nl, false, ifindex, ifid);
}

void pxp_route_default(struct pxp_route *r, int family, int ifindex, uint32_t metric)
{
	memset(r, 0, sizeof(*r));
	r->family = (uint8_t)family;
	r->protocol = PXP_RTPROT;
	/* A route through a point-to-point netdev without a gateway reaches its peer directly. */
	r->scope = RT_SCOPE_LINK;
	r->ifindex = (uint32_t)ifindex;
	r->metric = metric;
	r->nexthops = 1;
}

static size_t addr_len(int family)
{
	return family == AF_INET6 ? 16 : 4;
}

static bool addr_set(const uint8_t a[16])
{
	static const uint8_t zero[16];

	return memcmp(a, zero, sizeof(zero)) != 0;
}

/* A default route of the main table as libnl holds it, in our terms. */
static void route_from_nl(struct rtnl_route *route, struct pxp_route *r)
{
	struct rtnl_nexthop *nh = rtnl_route_nexthop_n(route, 0);
	struct nl_addr *a;

	memset(r, 0, sizeof(*r));
	r->family = rtnl_route_get_family(route);
	r->protocol = rtnl_route_get_protocol(route);
	r->scope = rtnl_route_get_scope(route);
	r->metric = rtnl_route_get_priority(route);
	r->nexthops = (uint8_t)rtnl_route_get_nnexthops(route);
	a = rtnl_route_get_pref_src(route);
	if (a && nl_addr_get_len(a) == addr_len(r->family))
		memcpy(r->prefsrc, nl_addr_get_binary_addr(a), nl_addr_get_len(a));
	if (!nh)
		return;
	r->ifindex = (uint32_t)rtnl_route_nh_get_ifindex(nh);
	a = rtnl_route_nh_get_gateway(nh);
	if (a && nl_addr_get_len(a) == addr_len(r->family))
		memcpy(r->gateway, nl_addr_get_binary_addr(a), nl_addr_get_len(a));
}

struct find_ctx {
	int family, not_via;
	int64_t metric;
	struct pxp_route *found;
	bool hit;
};

static void find_one(struct nl_object *obj, void *arg)
{
	struct rtnl_route *route = (struct rtnl_route *)obj;
	struct find_ctx *f = arg;
	struct nl_addr *dst = rtnl_route_get_dst(route);
	struct pxp_route r;

	if (f->hit || rtnl_route_get_family(route) != f->family ||
	    rtnl_route_get_table(route) != RT_TABLE_MAIN ||
	    rtnl_route_get_type(route) != RTN_UNICAST || (dst && nl_addr_get_prefixlen(dst)))
		return;
	route_from_nl(route, &r);
	if ((f->not_via && r.nexthops == 1 && r.ifindex == (uint32_t)f->not_via) ||
	    (f->metric >= 0 && r.metric != (uint64_t)f->metric))
		return;
	*f->found = r;
	f->hit = true;
}

int pxp_netlink_find_default_route(struct pxp_netlink *nl, int family, int not_via, int64_t metric,
				   struct pxp_route *found)
{
	struct find_ctx f = {
		.family = family, .not_via = not_via, .metric = metric, .found = found
	};
	struct nl_cache *cache;
	int err;

	err = nl_to_errno(rtnl_route_alloc_cache(nl->sock, family, 0, &cache));
	if (err)
		return err;
	nl_cache_foreach(cache, find_one, &f);
	nl_cache_free(cache);
	return f.hit ? 0 : -ENOENT;
}

/* The route r as a libnl object: every field given, so that the kernel matches them all. */
static int route_to_nl(const struct pxp_route *r, struct rtnl_route **out)
{
	uint8_t any[16] = { 0 };
	size_t len = addr_len(r->family);
	struct nl_addr *dst = make_addr(r->family, any, len, 0), *a = NULL;
	struct rtnl_route *route = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	int err = -ENOMEM;

	if (!dst || !route || !nh)
		goto out;
	rtnl_route_set_family(route, r->family);
	rtnl_route_set_table(route, RT_TABLE_MAIN);
	rtnl_route_set_protocol(route, r->protocol);
	rtnl_route_set_scope(route, r->scope);
	rtnl_route_set_type(route, RTN_UNICAST);
	rtnl_route_set_priority(route, r->metric);
	err = nl_to_errno(rtnl_route_set_dst(route, dst));
	if (!err && addr_set(r->prefsrc)) {
		a = make_addr(r->family, r->prefsrc, len, (int)len * 8);
		err = a ? nl_to_errno(rtnl_route_set_pref_src(route, a)) : -ENOMEM;
	}
	if (err)
		goto out;
	rtnl_route_nh_set_ifindex(nh, (int)r->ifindex);
	if (addr_set(r->gateway)) {
		if (a)
			nl_addr_put(a);
		a = make_addr(r->family, r->gateway, len, (int)len * 8);
		if (!a) {
			err = -ENOMEM;
			goto out;
		}
		rtnl_route_nh_set_gateway(nh, a);
	}
	rtnl_route_add_nexthop(route, nh);
	nh = NULL; /* owned by the route now */
	*out = route;
	route = NULL;
out:
	if (nh)
		rtnl_route_nh_free(nh);
	if (route)
		rtnl_route_put(route);
	if (a)
		nl_addr_put(a);
	if (dst)
		nl_addr_put(dst);
	return err;
}

int pxp_netlink_route_add(struct pxp_netlink *nl, const struct pxp_route *r)
{
	struct rtnl_route *route;
	int err = route_to_nl(r, &route);

	if (err)
		return err;
	/* No NLM_F_EXCL: that refuses any route of the same metric, not only this one. */
	err = nl_to_errno(rtnl_route_add(nl->sock, route, NLM_F_CREATE));
	rtnl_route_put(route);
	return err;
}

int pxp_netlink_route_del(struct pxp_netlink *nl, const struct pxp_route *r)
{
	struct rtnl_route *route;
	int err;

	/* Without a netdev the kernel would delete the first default route of any. */
	if (!r->ifindex)
		return -EINVAL;
	err = route_to_nl(r, &route);
	if (err)
		return err;
	err = nl_to_errno(rtnl_route_delete(nl->sock, route, 0));
	rtnl_route_put(route);
	return err;
}

void pxp_route_describe(const struct pxp_route *r, char *buf, size_t cap)
{
	char gw[INET6_ADDRSTRLEN] = "", dev[IF_NAMESIZE];
	int n = 0;

	if (addr_set(r->gateway))
		inet_ntop(r->family, r->gateway, gw, sizeof(gw));
	if (r->nexthops > 1)
		n = snprintf(buf, cap, "with %u next hops", r->nexthops);
	else if (gw[0])
		n = snprintf(buf, cap, "via %s dev %s", gw,
			     if_indextoname(r->ifindex, dev) ?: "(gone)");
	else
		n = snprintf(buf, cap, "dev %s", if_indextoname(r->ifindex, dev) ?: "(gone)");
	if (n >= 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, " metric %u proto %u", r->metric, r->protocol);
}

static int route6(struct pxp_netlink *nl, bool add, int ifindex, const uint8_t prefix[16],
		  unsigned int len, const uint8_t *gw)
{
	struct nl_addr *dst = make_addr(AF_INET6, prefix, 16, (int)len);
	struct nl_addr *via = gw ? nl_addr_build(AF_INET6, gw, 16) : NULL;
	struct rtnl_route *route = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	int err;

	if (!dst || !route || !nh || (gw && !via)) {
		err = -ENOMEM;
		goto out;
	}
	rtnl_route_set_family(route, AF_INET6);
	rtnl_route_set_table(route, RT_TABLE_MAIN);
	rtnl_route_set_protocol(route, RTPROT_BOOT);
	rtnl_route_set_scope(route, RT_SCOPE_UNIVERSE);
	rtnl_route_set_type(route, RTN_UNICAST);
	err = nl_to_errno(rtnl_route_set_dst(route, dst));
	if (err)
		goto out;
	rtnl_route_nh_set_ifindex(nh, ifindex);
	if (via)
		rtnl_route_nh_set_gateway(nh, via);
	rtnl_route_add_nexthop(route, nh);
	nh = NULL; /* owned by the route now */
	if (add) {
		err = nl_to_errno(rtnl_route_add(nl->sock, route, NLM_F_CREATE));
		if (err == -EEXIST)
			err = 0;
	} else {
		err = nl_to_errno(rtnl_route_delete(nl->sock, route, 0));
		if (err == -ENODEV)
			err = 0;
	}
out:
	if (nh)
		rtnl_route_nh_free(nh);
	if (route)
		rtnl_route_put(route);
	if (via)
		nl_addr_put(via);
	if (dst)
		nl_addr_put(dst);
	return err;
}

int pxp_netlink_add_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw)
{
	return route6(nl, true, ifindex, prefix, len, gw);
}

int pxp_netlink_del_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw)
{
	return route6(nl, false, ifindex, prefix, len, gw);
}

int pxp_netlink_global6(struct pxp_netlink *nl, int ifindex, uint8_t addr[16],
			unsigned int *prefix_len)
{
	struct nl_cache *cache;
	struct nl_object *obj;
	int err;

	err = nl_to_errno(rtnl_addr_alloc_cache(nl->sock, &cache));
	if (err)
		return err;
	err = -ENOENT;
	for (obj = nl_cache_get_first(cache); obj && err; obj = nl_cache_get_next(obj)) {
		struct rtnl_addr *a = (struct rtnl_addr *)obj;
		struct nl_addr *local = rtnl_addr_get_local(a);

		if (rtnl_addr_get_ifindex(a) != ifindex || rtnl_addr_get_family(a) != AF_INET6 ||
		    rtnl_addr_get_scope(a) != RT_SCOPE_UNIVERSE || !local ||
		    nl_addr_get_len(local) != 16)
			continue;
		memcpy(addr, nl_addr_get_binary_addr(local), 16);
		*prefix_len = (unsigned int)rtnl_addr_get_prefixlen(a);
		err = 0;
	}
	nl_cache_free(cache);
	return err;
}
