# SPDX-License-Identifier: GPL-2.0
#
# Where the time of one PPPoE session set-up goes, read from `tcpdump -nn -tt -e` of
# discovery and session frames. -v us=MAC names our side (pppoe-xp, client or AC); the
# other side is pppd. Prints "#"-comment lines: each step's time after the PADI, and how
# many LCP Configure-Requests we sent before pppd acked one (more than one: one was lost
# or ignored, typically because pppd was not running yet).
# Used by tests/interop/test_client_vs_pppd.sh and test_server_vs_pppd.sh.

function at(label) {
	if (!(label in t)) {
		t[label] = $1
		order[n++] = label
	}
}

{ ours = ($2 == us) }
/PADI/ { at("PADI") }
/PADO/ { at("PADO") }
/PADR/ { at("PADR") }
/PADS/ { at("PADS") }
/LCP, Conf-Request/ && ours { at("our LCP Conf-Request") }
/LCP, Conf-Request/ && ours && !acked { our_lcp_reqs++ }
/LCP, Conf-Request/ && !ours { at("pppd LCP Conf-Request") }
/LCP, Conf-Ack/ && !ours { at("pppd acks our LCP"); acked = 1 }
/LCP, Conf-Ack/ && ours { at("we ack pppd LCP") }
/(PAP, Auth-ACK|CHAP, Success)/ { at("auth success") }
/IPCP, Conf-Ack/ && ours { at("we ack pppd IPCP") }
/IPCP, Conf-Ack/ && !ours { at("pppd acks our IPCP") }

END {
	if (!("PADI" in t)) {
		print "#   no PADI in the capture"
		exit
	}
	for (i = 0; i < n; i++)
		printf "#   %-22s +%6.0f ms\n", order[i], (t[order[i]] - t["PADI"]) * 1000
	printf "#   our LCP Conf-Requests until pppd acked one: %d\n", our_lcp_reqs
}
