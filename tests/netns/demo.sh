#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: a whole PPPoE session with traffic through it, in network namespaces.
#
#   lan ---------- router ================ isp ---------- net
#   lan0      lan1      wan0    PPPoE    isp0     isp1      net0
#   192.168.100.2       pxp0 100.64.1.2  pxs* 100.64.1.1    198.51.100.2
#   fd00:100::2         (pppoe-xp up)    (pppoe-xp server)  2001:db8:2::2
#
# The router NATs the LAN out of pxp0, as a home router does on ppp0. IPv6 is routed: the
# ISP routes the LAN prefix to the session. The client reads its options from a
# configuration file in pppd's words (PPPOE_XP_CONFIG_DIR, as /etc/pppoe-xp/wan0.conf) and
# its password from a chap-secrets (PPPOE_XP_PPP_DIR, as /etc/ppp): none on argv. Usage: demo.sh [--mode auto|xdp|afxdp|generic]
# [--seconds N]. Prints a summary and exits non-zero if any step failed.
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pxdemo$$-}
. "$(dirname "$0")/lib.sh"

MODE=auto
SECONDS_EACH=5
while [ $# -gt 0 ]; do
	case $1 in
	--mode) MODE=$2 && shift 2 ;;
	--seconds) SECONDS_EACH=$2 && shift 2 ;;
	*)
		echo "demo.sh: unknown argument '$1' (--mode M, --seconds N)" >&2
		exit 2
		;;
	esac
done

[ -x "$PXP_BIN" ] || {
	echo "demo: $PXP_BIN is missing: run make first" >&2
	exit 2
}
missing=$(require_cmds ip ping nft iperf3 jq ethtool python3) || {
	echo "demo: missing commands:$missing (make deps installs them)" >&2
	exit 2
}

step() { printf '\n== %s\n' "$*"; }
CLIENT_ENV=(PPPOE_XP_CONFIG_DIR="$PXP_TMP/config" PPPOE_XP_PPP_DIR="$PXP_TMP/ppp")
json_field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval("d"+sys.argv[1]))' "$1"; }

errors=0
check() { # description command...
	local what=$1
	shift
	if "$@"; then
		echo "   ok: $what"
	else
		echo "   FAILED: $what"
		errors=$((errors + 1))
	fi
}

# iperf3 from NS_CLIENT to ADDRESS (server in NS_SERVER); prints Mbit/s or 0.
throughput() { # NS_CLIENT NS_SERVER ADDRESS [iperf3 args]
	local nsc=$1 nss=$2 addr=$3 mbit
	shift 3
	mbit=$(iperf_tcp "$nsc" "$nss" "$addr" "$SECONDS_EACH" "$@") || mbit=0
	echo "${mbit:-0}"
}

step "topology: lan - router - isp - net"
topo_create pppoe || exit 1
# Senders into an XDP-redirecting veth must not leave checksums to offload.
in_ns "$NS_LAN" ethtool -K lan0 tx off >/dev/null
in_ns "$NS_NET" ethtool -K net0 tx off >/dev/null
printf 'demo\t*\tdemo-secret\t*\n' >"$PXP_TMP/chap-secrets"
mkdir -p "$PXP_TMP/config" "$PXP_TMP/ppp"
printf 'demo\t*\tdemo-secret\n' >"$PXP_TMP/ppp/chap-secrets"
printf 'user demo\ndefaultroute\n+ipv6\n' >"$PXP_TMP/config/wan0.conf"
chmod 600 "$PXP_TMP/ppp/chap-secrets" "$PXP_TMP/config/wan0.conf"

step "isp: pppoe-xp server isp0 (CHAP, pool 100.64.1.0/24)"
server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth chap \
	--secrets "$PXP_TMP/chap-secrets" --ac-name demo-isp --dns 198.51.100.53 --ipv6 \
	--mode "$MODE" || exit 1
on_cleanup "env PPPOE_XP_RUN_DIR=$RUN_S ip netns exec $NS_ISP $PXP_BIN down isp0"

step "router: pppoe-xp up wan0 --mode $MODE (wan0.conf: $(tr '\n' ' ' <"$PXP_TMP/config/wan0.conf"))"
t0=$(date +%s%N)
client up wan0 --mode "$MODE" || exit 1
t1=$(date +%s%N)
on_cleanup "env PPPOE_XP_RUN_DIR=$RUN_C ip netns exec $NS_ROUTER $PXP_BIN down wan0"
echo "   session up in $(((t1 - t0) / 1000000)) ms (command start to IPCP open)"
client status wan0

status=$(client status wan0 --json)
server_json=$(server status isp0 --json)
session_netdev=$(json_field '["sessions"][0]["ifname"]' <<<"$server_json")
topo_nat_out pxp0
in_ns "$NS_ROUTER" ethtool -K pxp0 tx off >/dev/null
in_ns "$NS_ISP" ethtool -K "$session_netdev" tx off >/dev/null
in_ns "$NS_ROUTER" ip -6 route replace default dev pxp0
in_ns "$NS_ISP" ip -6 route replace fd00:100::/64 dev "$session_netdev"

step "traffic lan <-> net through the session"
check "ping lan -> net (IPv4, NAT on pxp0)" \
	in_ns "$NS_LAN" ping -c 3 -i 0.2 -W 2 198.51.100.2 >/dev/null
check "ping lan -> net (IPv6, routed)" \
	in_ns "$NS_LAN" ping -6 -c 3 -i 0.2 -W 2 2001:db8:2::2 >/dev/null
up=$(throughput "$NS_LAN" "$NS_NET" 198.51.100.2)
down=$(throughput "$NS_LAN" "$NS_NET" 198.51.100.2 -R)
up6=$(throughput "$NS_LAN" "$NS_NET" 2001:db8:2::2)
check "iperf3 upload (lan -> net) ran" [ "$up" -gt 0 ]
check "iperf3 download (net -> lan) ran" [ "$down" -gt 0 ]
check "iperf3 over IPv6 ran" [ "$up6" -gt 0 ]

after=$(client status wan0 --json)
drops=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])["datapath"]
print(sum(v for k, v in d.items() if k.startswith("drop")))' "$after")

step "summary"
python3 - "$status" "$up" "$down" "$up6" "$drops" <<'EOF'
import json, sys
s = json.loads(sys.argv[1])
print(f"   session      0x{s['session_id']:04x} with AC {s['ac_name']} ({s['ac_mac']})")
print(f"   addresses    {s['local_ip']} -> peer {s['peer_ip']}, MTU {s['mtu']}")
print(f"   data path    {s['datapath']['mode']}")
print(f"   upload       {sys.argv[2]} Mbit/s (lan -> net, TCP, IPv4 through NAT)")
print(f"   download     {sys.argv[3]} Mbit/s (net -> lan)")
print(f"   IPv6 upload  {sys.argv[4]} Mbit/s")
print(f"   drops        {sys.argv[5]} frames counted by the data path")
EOF

step "down"
check "pppoe-xp down wan0" client down wan0
[ "$errors" -eq 0 ] && echo "demo: all steps passed" || echo "demo: $errors step(s) failed"
[ "$errors" -eq 0 ]
