# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The VPN rows (issue 15), on the host kernel, on the host cases' lan - router - isp - net
# topology: a tunnel between router (the home router, its client) and isp (the far end, as a
# VPN provider's server), the router's traffic from lan routed into it and NATed out of it,
# isp forwarding what leaves the tunnel to net:
#
#   lan ---- router [tunnel 10.99.0.1] ==== wan0/isp0 ==== [10.99.0.2 tunnel] isp ---- net
#
#   none                   no tunnel: the ceiling of this part (host/ceiling's topology)
#   wireguard-go           Debian's wireguard-go at both ends, over plain Ethernet
#   pppoe-xp-wg            `pppoe-xp wg IFNAME` at both ends, driven as wireguard-go is
#                          (WG_PROCESS_FOREGROUND=1, wg setconf); "unavailable" while
#                          build/pppoe-xp has no wg command
#   wireguard-go-hub       the same two, the far end a hub: WG_HUB_PEERS idle peers (keys,
#   pppoe-xp-wg-hub        allowed IPs, no endpoint) configured before the router, as a VPN
#                          provider's server has; what a message costs to find its peer
#   openvpn-aes256gcm-udp  Debian's OpenVPN 2.6 at both ends, no DCO: peer-to-peer TLS
#   openvpn-chacha20-udp   mode over a PKI made at run time (bench/lib/wg.sh
#   openvpn-aes256gcm-tcp  wg_openvpn_pki), the data cipher pinned; UDP or TCP
#   none-over-pxp          no tunnel, inside a pppoe-xp session (host/pppoe-xp-xdp: our AC
#                          at isp, our client at router, XDP mode): the ceiling inside it
#   wireguard-go-over-pxp  wireguard-go inside the same kind of session
#   pppoe-xp-wg-over-pxp   pppoe-xp wg inside the same kind of session
#
# Every tunnel's inner MTU is WireGuard's for its WAN: 1420 over Ethernet (1500 - 80), 1412
# inside the session (1492 - 80), OpenVPN's too (tun-mtu), so that every tunnel carries the
# same packets; the router clamps the TCP MSS both ways to MTU - 40. The keys and
# certificates are files (never argv), made per run under PXP_TMP.

WG_PORT=51820
OVPN_PORT=1194
WG_TUN_ROUTER=10.99.0.1
WG_TUN_ISP=10.99.0.2
# What a tunnel costs of the WAN MTU, wg-quick's rule: an outer IPv6 header 40 (room for an
# IPv6 endpoint) + UDP 8 + WireGuard's data header 16 and tag 16.
WG_OVERHEAD=80

wg_steps() {
	echo $((${#WG_CASES[@]} + $(matrix_steps wg "${WG_CASES[@]}")))
}

wg_seconds() {
	echo $((${#WG_CASES[@]} * (8 + 4 * BENCH_WARMUP + BENCH_ROUNDS * $(bench_round_seconds wg))))
}

# wg_ifname KEY ROLE: the tunnel netdev's name, unique on the machine (wireguard-go's UAPI
# socket, /var/run/wireguard/IFNAME.sock, is not per namespace).
wg_ifname() {
	local i=${CASE_PREFIX[$1]%-}
	echo "pxw$$-${i##*-w}${2:0:1}"
}

# wg_keys DIR: a key pair for each end, in DIR (mode 0700).
wg_keys() {
	local d=$1 role
	(
		umask 077
		mkdir -p "$d" || exit 1
		for role in router isp; do
			wg genkey >"$d/$role.key" && wg pubkey <"$d/$role.key" >"$d/$role.pub" || exit 1
		done
	)
}

# How many idle peers a hub case's far end has before the router.
WG_HUB_PEERS=1000

# wg_conf DIR ROLE ENDPOINT [IDLE]: ROLE's wg setconf file. The router initiates (it knows
# isp's endpoint); isp learns the router's from its first handshake. IDLE peers (public
# keys of random bytes, 10.98.0.0/16 between them) come before the real one.
wg_conf() {
	local d=$1 role=$2 endpoint=$3 idle=${4:-0} other=router allowed=$WG_TUN_ROUTER/32
	[ "$role" = router ] && other=isp allowed=0.0.0.0/0
	(
		umask 077
		printf '[Interface]\nPrivateKey = %s\nListenPort = %s\n' \
			"$(cat "$d/$role.key")" "$WG_PORT" >"$d/$role.conf"
		python3 -c '
import base64, os, sys
for i in range(int(sys.argv[1])):
    print("\n[Peer]\nPublicKey = %s\nAllowedIPs = 10.98.%d.%d/32"
          % (base64.b64encode(os.urandom(32)).decode(), i // 250, i % 250 + 1))' "$idle" \
			>>"$d/$role.conf" || exit 1
		printf '\n[Peer]\nPublicKey = %s\nAllowedIPs = %s\n' \
			"$(cat "$d/$other.pub")" "$allowed" >>"$d/$role.conf"
		[ "$role" = router ] && printf 'Endpoint = %s:%s\n' "$endpoint" "$WG_PORT" >>"$d/$role.conf"
		true
	)
}

# wg_userspace_start KEY ROLE IMPL IFNAME LOG: a userspace WireGuard (wireguard-go or
# pppoe-xp-wg) in ROLE's namespace, ready for wg(8).
wg_userspace_start() {
	local key=$1 ns=${CASE_PREFIX[$1]}$2 impl=$3 ifname=$4 log=$5
	on_cleanup "rm -f /var/run/wireguard/$ifname.sock"
	# Both in the foreground (WG_PROCESS_FOREGROUND=1, which both read), logging to LOG.
	if [ "$impl" = wireguard-go ]; then
		WG_PROCESS_FOREGROUND=1 ip netns exec "$ns" wireguard-go "$ifname" >"$log" 2>&1 &
	else
		WG_PROCESS_FOREGROUND=1 ip netns exec "$ns" sh -c "$(pxp_cmd "$key" "$2" wg "$ifname")" \
			>"$log" 2>&1 &
	fi
	on_cleanup "kill $!"
	wait_for 10 ip -n "$ns" link show "$ifname" &&
		wait_for 10 ip netns exec "$ns" wg show "$ifname" >/dev/null
}

# wg_openvpn_pki DIR: a CA and a certificate for each end (P-256, ECDHE: no DH parameters),
# made once per run with openssl.
wg_openvpn_pki() {
	local d=$1 role eku
	[ -f "$d/ca.crt" ] && return
	(
		umask 077
		mkdir -p "$d" && cd "$d" || exit 1
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
			-keyout ca.key -out ca.crt -subj /CN=pxb-ca -days 2 2>/dev/null || exit 1
		for role in isp router; do
			eku=clientAuth
			[ "$role" = isp ] && eku=serverAuth
			printf 'keyUsage = digitalSignature\nextendedKeyUsage = %s\n' "$eku" >"$role.ext"
			openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
				-keyout "$role.key" -out "$role.csr" -subj "/CN=pxb-$role" 2>/dev/null &&
				openssl x509 -req -in "$role.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
					-days 2 -extfile "$role.ext" -out "$role.crt" 2>/dev/null || exit 1
		done
	)
}

# wg_openvpn_conf DIR ROLE IFNAME CIPHER udp|tcp MTU ISP_ADDR: ROLE's OpenVPN configuration:
# peer-to-peer with TLS (isp the TLS server), the data cipher pinned, no DCO (Debian's
# kernel here has no ovpn module; the issue measures OpenVPN 2.6 without it).
wg_openvpn_conf() {
	local d=$1 role=$2 ifname=$3 cipher=$4 proto=$5 mtu=$6 isp_addr=$7
	local local_tun=$WG_TUN_ROUTER remote_tun=$WG_TUN_ISP
	[ "$role" = isp ] && local_tun=$WG_TUN_ISP remote_tun=$WG_TUN_ROUTER
	{
		echo "dev $ifname"
		echo "dev-type tun"
		if [ "$role" = isp ]; then
			echo "tls-server"
			echo "remote-cert-tls client"
			[ "$proto" = tcp ] && echo "proto tcp4-server" || echo "proto udp4"
			echo "lport $OVPN_PORT"
		else
			echo "tls-client"
			echo "remote-cert-tls server"
			[ "$proto" = tcp ] && echo "proto tcp4-client" || echo "proto udp4"
			echo "remote $isp_addr $OVPN_PORT"
			echo "nobind"
		fi
		echo "ca $d/ca.crt"
		echo "cert $d/$role.crt"
		echo "key $d/$role.key"
		echo "dh none"
		echo "ifconfig $local_tun $remote_tun"
		echo "data-ciphers $cipher"
		echo "tun-mtu $mtu"
		echo "disable-dco"
		echo "verb 3"
	} >"$d/$3.conf"
}

# wg_mss_script PREFIX IFNAME MTU: the sh lines that clamp the TCP MSS at PREFIX's router both
# ways through the tunnel IFNAME to what it carries (on the host and in the guest alike).
wg_mss_script() {
	cat <<-EOF
		ip netns exec ${1}router nft -f - <<-'NFT'
			table inet pxb_mss {
				chain forward {
					type filter hook forward priority mangle; policy accept;
					oifname "$2" tcp flags syn tcp option maxseg size set $(($3 - 40))
					iifname "$2" tcp flags syn tcp option maxseg size set $(($3 - 40))
				}
			}
		NFT
	EOF
}

# wg_router_routes KEY IFNAME MTU: the router sends lan's traffic into the tunnel, NATed out
# of it, with the TCP MSS clamped.
wg_router_routes() {
	local key=$1 ifname=$2 mtu=$3
	ip -n "$NS_ROUTER" route replace default dev "$ifname" &&
		{ ip netns exec "$NS_ROUTER" nft delete table ip pxp_nat 2>/dev/null || true; } &&
		topo_nat_out "$ifname" &&
		sh -c "$(wg_mss_script "${CASE_PREFIX[$key]}" "$ifname" "$mtu")"
}

# wg_guest_ifname KEY ROLE: the tunnel netdev of ROLE in a guest case, unique in the guest
# (a userspace WireGuard's UAPI socket, /var/run/wireguard/IFNAME.sock, is not per namespace).
wg_guest_ifname() {
	local p=${CASE_PREFIX[$1]}
	echo "wg${p%-}${2:0:1}"
}

# wg_guest_script KEY ENDPOINT MTU kernel|pppoe-xp: the sh script (POSIX, for the guest) that
# joins the case's router and isp with WireGuard over the WAN whose isp end is ENDPOINT, the
# router's default route into it: the kernel's module, or `pppoe-xp wg` from /host (detached:
# it returns once its netdev and UAPI socket are there). Both are then configured by the
# same wg(8) lines. The keys are made where the script runs: every namespace there shares
# /tmp, and no key crosses a command line.
wg_guest_script() {
	local key=$1 ep=$2 mtu=$3 impl=$4 p=${CASE_PREFIX[$1]} role ifname wr wi
	wr=$(wg_guest_ifname "$key" router) wi=$(wg_guest_ifname "$key" isp)
	echo "set -e"
	[ "$impl" = kernel ] && echo "modprobe wireguard"
	for role in router isp; do
		ifname=$(wg_guest_ifname "$key" $role)
		if [ "$impl" = kernel ]; then
			echo "ip -n ${p}$role link add $ifname type wireguard"
		else
			echo "ip netns exec ${p}$role sh -c '$(pxp_cmd "$key" $role wg "$ifname")' </dev/null"
		fi
	done
	cat <<-EOF
		d=/tmp/${p}wg
		(umask 077; mkdir -p \$d
		 for r in router isp; do wg genkey >\$d/\$r.key; wg pubkey <\$d/\$r.key >\$d/\$r.pub; done)
		ip netns exec ${p}isp wg set $wi private-key \$d/isp.key listen-port $WG_PORT \
			peer "\$(cat \$d/router.pub)" allowed-ips $WG_TUN_ROUTER/32
		ip netns exec ${p}router wg set $wr private-key \$d/router.key listen-port $WG_PORT \
			peer "\$(cat \$d/isp.pub)" allowed-ips 0.0.0.0/0 endpoint $ep:$WG_PORT
		ip -n ${p}isp -batch - <<-'IP'
			addr add $WG_TUN_ISP/24 dev $wi
			link set $wi mtu $mtu up
		IP
		ip -n ${p}router -batch - <<-'IP'
			addr add $WG_TUN_ROUTER/24 dev $wr
			link set $wr mtu $mtu up
			route replace default dev $wr
		IP
		$(wg_mss_script "$p" "$wr" "$mtu")
	EOF
}

# wg_underlay KEY: the WAN the tunnel runs over (plain Ethernet, or a pppoe-xp session in
# XDP mode for the -over-pxp cases); sets WG_ISP_ADDR (isp's end) and WG_WAN_MTU.
wg_underlay() {
	local key=$1
	if [[ $key == *-over-pxp ]]; then
		host_session "$key" xdp || return
		WG_ISP_ADDR=100.64.1.1 WG_WAN_MTU=${CASE_MTU[$key]}
	else
		host_topo "$key" plain || return
		WG_ISP_ADDR=100.64.0.2 WG_WAN_MTU=1500
	fi
}

# A WireGuard case: IMPL (wireguard-go, pppoe-xp-wg) at both ends over the case's WAN; with
# "hub", the far end has WG_HUB_PEERS idle peers besides the router.
wg_setup_wireguard() {
	local key=$1 impl=$2 hub=${3:-} d=$PXP_TMP/${CASE_PREFIX[$1]}wg mtu role ifname idle
	command -v wg >/dev/null || {
		case_unavailable "$key" "wg (wireguard-tools) is not installed"
		return
	}
	if [ "$impl" = wireguard-go ]; then
		command -v wireguard-go >/dev/null || {
			case_unavailable "$key" "wireguard-go is not installed"
			return
		}
	elif ! "$PXP_BIN" wg --help >/dev/null 2>&1; then
		case_unavailable "$key" "build/pppoe-xp has no wg command yet (pppoe-xp wg --help fails)"
		return
	fi
	wg_underlay "$key" || return
	mtu=$((WG_WAN_MTU - WG_OVERHEAD))
	wg_keys "$d" || {
		case_unavailable "$key" "wg genkey failed"
		return
	}
	for role in isp router; do
		ifname=$(wg_ifname "$key" "$role")
		idle=0
		[ "$hub" = hub ] && [ "$role" = isp ] && idle=$WG_HUB_PEERS
		wg_conf "$d" "$role" "$WG_ISP_ADDR" "$idle" &&
			wg_userspace_start "$key" "$role" "$impl" "$ifname" "$d/$role.log" &&
			ip netns exec "${CASE_PREFIX[$key]}$role" wg setconf "$ifname" "$d/$role.conf" &&
			ip -n "${CASE_PREFIX[$key]}$role" addr add "$(wg_tun_addr "$role")/24" dev "$ifname" &&
			ip -n "${CASE_PREFIX[$key]}$role" link set "$ifname" mtu "$mtu" up || {
			case_unavailable "$key" "$impl at $role did not come up: $(log_reason "$d/$role.log")"
			return
		}
	done
	wg_finish "$key" "$(wg_ifname "$key" router)" "$mtu"
}

wg_tun_addr() {
	[ "$1" = router ] && echo "$WG_TUN_ROUTER" || echo "$WG_TUN_ISP"
}

# An OpenVPN case: CIPHER over PROTO (udp, tcp), plain Ethernet.
wg_setup_openvpn() {
	local key=$1 cipher=$2 proto=$3 d=$PXP_TMP/ovpn-pki role ifname mtu=$((1500 - WG_OVERHEAD))
	command -v openvpn >/dev/null && command -v openssl >/dev/null || {
		case_unavailable "$key" "openvpn or openssl is not installed (make deps installs them)"
		return
	}
	wg_openvpn_pki "$d" || {
		case_unavailable "$key" "openssl could not make the PKI"
		return
	}
	host_topo "$key" plain || return
	for role in isp router; do
		ifname=$(wg_ifname "$key" "$role")
		wg_openvpn_conf "$d" "$role" "$ifname" "$cipher" "$proto" "$mtu" 100.64.0.2
		ip netns exec "${CASE_PREFIX[$key]}$role" openvpn --config "$d/$ifname.conf" \
			>"$d/$ifname.log" 2>&1 &
		on_cleanup "kill $!"
		wait_for 10 ip -n "${CASE_PREFIX[$key]}$role" link show "$ifname" || {
			case_unavailable "$key" "openvpn at $role made no $ifname: $(log_reason "$d/$ifname.log")"
			return
		}
	done
	ifname=$(wg_ifname "$key" router)
	# The TLS handshake first: the tunnel carries nothing until it completes.
	wait_for 20 ip netns exec "$NS_ROUTER" ping -c 1 -W 1 "$WG_TUN_ISP" || {
		case_unavailable "$key" "no OpenVPN tunnel: $(log_reason "$d/$ifname.log")"
		return
	}
	wg_finish "$key" "$ifname" "$mtu"
}

# The router's routes into the tunnel, then the measurements' own checks.
wg_finish() {
	local key=$1 ifname=$2 mtu=$3
	wg_router_routes "$key" "$ifname" "$mtu" || {
		case_unavailable "$key" "routing into $ifname failed"
		return
	}
	CASE_MTU[$key]=$mtu
	host_common "$key"
}

# wg_setup KEY CASE: one VPN case's topology and tunnel.
wg_setup() {
	local key=$1
	case $2 in
	none) host_setup_ceiling "$key" ;;
	none-over-pxp) host_session "$key" xdp && host_common "$key" ;;
	wireguard-go | wireguard-go-over-pxp) wg_setup_wireguard "$key" wireguard-go ;;
	pppoe-xp-wg | pppoe-xp-wg-over-pxp) wg_setup_wireguard "$key" pppoe-xp-wg ;;
	wireguard-go-hub) wg_setup_wireguard "$key" wireguard-go hub ;;
	pppoe-xp-wg-hub) wg_setup_wireguard "$key" pppoe-xp-wg hub ;;
	openvpn-aes256gcm-udp) wg_setup_openvpn "$key" AES-256-GCM udp ;;
	openvpn-chacha20-udp) wg_setup_openvpn "$key" CHACHA20-POLY1305 udp ;;
	openvpn-aes256gcm-tcp) wg_setup_openvpn "$key" AES-256-GCM tcp ;;
	*) case_unavailable "$key" "bench/lib/wg.sh does not know this case" ;;
	esac
}

wg_run() {
	bench_host_cases wg w wg_setup "${WG_CASES[@]}"
}
