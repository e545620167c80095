#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turns bench/run's results.jsonl into results.md (tables with ratios) and a PNG chart.

usage: report.py RESULTS.jsonl RESULTS.md CHART.png [DOC.md]

With DOC.md (docs/benchmark.md), the tables also replace the part of that document between
the lines "<!-- results:begin -->" and "<!-- results:end -->".

Ratios are taken only inside one environment (host kernel, the VPN rows on the host kernel,
qemu guest): pppoe-xp against the ceiling of the same kernel, and in the guest pppoe-xp
against kernel PPPoE; each VPN against no tunnel, wg-bridge against wireguard-go and
WireGuard against OpenVPN. The cases and their order are bench/cases. Several
rounds of one measurement are reduced to their median. Unavailable and failed measurements
are listed with their reasons, never left out. The chart is drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile



def read_cases(path=os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")):
    """bench/cases: each environment's cases in order, its ceiling first."""
    cases = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                cases.setdefault(fields[0], []).append(fields[1])
    return cases


CASES = read_cases()
HOST_CASES, WG_CASES, GUEST_CASES = CASES["host"], CASES["wg"], CASES["guest"]
# The published anchor the VPN rows stand beside: kernel WireGuard 3.4x OpenVPN over UDP on
# two vCPUs (issue 15).
PUBLISHED_WG_OVER_OPENVPN = 3.4


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def key_of(r):
    """What identifies one measurement apart from its round."""
    t = r.get("test")
    if t == "tcp":
        return ("tcp", r.get("direction"), r.get("streams"))
    if t == "udp":
        return ("udp", r.get("direction"), str(r.get("ip_bytes_spec")))
    if t == "ping":
        return ("ping", r.get("load"))
    return (t,)


def label(k):
    if k[0] == "tcp":
        return "TCP %s, %s stream%s" % (k[1], k[2], "" if k[2] == 1 else "s")
    if k[0] == "udp":
        size = "MTU-sized" if k[2] == "mtu" else "%s-byte" % k[2]
        return "UDP %s, %s packets" % (k[1], size)
    if k[0] == "ping":
        return "ping, %s" % ("idle" if k[1] == "idle" else "under load (%s)" % k[1])
    return k[0]


def value_of(r):
    """The figure of merit of a row and its unit."""
    if r.get("test") == "tcp":
        return r.get("bits_per_second", 0) / 1e6, "Mbit/s"
    if r.get("test") == "udp":
        return r.get("pps", 0) / 1e3, "kpps"
    if r.get("test") == "ping":
        return r["rtt_ms"]["avg"], "ms"
    return None, ""


class Cell:
    def __init__(self, rows):
        ok = [r for r in rows if r.get("status") == "ok"]
        self.rows = rows
        self.value = self.cpu = None
        self.unit = ""
        if ok:
            vals = [value_of(r)[0] for r in ok]
            self.unit = value_of(ok[0])[1]
            self.value = statistics.median(vals)
            cpus = [r["cpu_busy"] for r in ok if r.get("cpu_busy") is not None]
            self.cpu = statistics.median(cpus) if cpus else None
            self.retrans = [r.get("retransmits") for r in ok if r.get("retransmits") is not None]
        self.status = "ok" if ok else (rows[0].get("status", "?") if rows else "missing")


def fmt(v, unit):
    if v is None:
        return "-"
    if unit == "ms":
        return "%.3f" % v
    return "%.0f" % v if v >= 100 else "%.1f" % v


def ratio(a, b, lower_is_better=False):
    if a is None or b is None or not b or not a:
        return None
    return b / a if lower_is_better else a / b


def pct(x):
    return "-" if x is None else "%.0f%%" % (100 * x)


def grid(rows, env):
    cells = {}
    for r in rows:
        if r.get("env") != env or r.get("test") not in ("tcp", "udp", "ping"):
            continue
        cells.setdefault(key_of(r), {}).setdefault(r.get("case"), []).append(r)
    order = {"tcp": 0, "udp": 1, "ping": 2}
    keys = sorted(cells, key=lambda k: (order[k[0]], str(k[1]), str(k[2:])))
    return keys, {k: {c: Cell(v) for c, v in cells[k].items()} for k in keys}


def round_ratios(cell, base):
    """case / ceiling within each round, sorted: the two ran minutes apart, so drift in the
    machine's load falls on both; the spread shows how far one run can be trusted."""
    if cell is None or base is None:
        return []
    b = {r.get("round"): value_of(r)[0] for r in base.rows if r.get("status") == "ok"}
    return sorted(value_of(r)[0] / b[r.get("round")] for r in cell.rows
                  if r.get("status") == "ok" and b.get(r.get("round")))


def cell_text(cell, base=None, lower=False):
    if cell is None:
        return "missing"
    if cell.value is None:
        return cell.status
    s = fmt(cell.value, cell.unit)
    if base is not None and base.value is not None:
        s += " (%s)" % pct(ratio(cell.value, base.value, lower))
    if cell.cpu is not None:
        s += " cpu %.0f%%" % (100 * cell.cpu)
    return s


GUEST_X_CASES = ("pppoe-xp", "pppoe-xp-netkit", "pppoe-xp-xdp", "pppoe-xp-tc", "mixed",
                 "mixed-netkit")
# The guest's WireGuard cases: the VPN summary's.
GUEST_WG_CASES = ("kernel-wg", "pppoe-xp-wg", "kernel-wg-over-kernel-pppoe", "pppoe-xp-wg-over-pxp")


def env_table(out, rows, env, cases):
    keys, cells = grid(rows, env)
    if not keys:
        out.append("No %s measurements in this run.\n" % env)
        return
    # The cases this run has rows of (--only and --cases select), the ceiling always.
    ran = {r.get("case") for r in rows if r.get("env") == env}
    cases = [c for i, c in enumerate(cases) if i == 0 or c in ran]
    # Our cases against kernel PPPoE in the guest, those of them this run has.
    ours = [c for c in GUEST_X_CASES if c in ran] if env == "guest" else []
    guest_x = bool(ours)
    extra = ["%s / kernel PPPoE" % c for c in ours]
    out.append("| measurement | unit | " + " | ".join(cases + extra) + " |")
    out.append("|---" * (len(cases) + 2 + len(extra)) + "|")
    for k in keys:
        row = cells[k]
        base = row.get(cases[0])
        lower = k[0] == "ping"
        unit = next((c.unit for c in row.values() if c.unit), "")
        texts = []
        for c in cases:
            texts.append(cell_text(row.get(c), None if c == cases[0] else base, lower))
        if guest_x:
            kp = row.get("kernel-pppoe")
            for c in ours:
                r = ratio(row[c].value if c in row else None, kp.value if kp else None, lower)
                texts.append("-" if r is None else "%.2fx" % r)
        out.append("| %s | %s | %s |" % (label(k), unit, " | ".join(texts)))
    out.append("")


def headline(out, rows):
    """pppoe-xp against the ceiling (both kernels) and against kernel PPPoE (guest), with the
    veth-hop bound beside the host figure."""
    hk, hc = grid(rows, "host")
    gk, gc = grid(rows, "guest")
    keys = [k for k in hk if k[0] == "tcp"] + [k for k in gk if k[0] == "tcp" and k not in hk]
    pppoe = [r for r in rows if r.get("env") in ("host", "guest") and
             r.get("case", "").startswith(("pppoe-xp", "kernel-pppoe", "mixed", "veth-hop"))]
    if not keys or not pppoe:
        out.append("No PPPoE case in this run.\n")
        return
    out.append("| TCP | host: best pppoe-xp mode / ceiling | host: veth hop alone / ceiling |"
               " guest: kernel PPPoE / ceiling | guest: veth hop alone / ceiling |"
               " guest: netkit hop alone / ceiling | guest: kernel PPPoE + flowtable / ceiling |"
               " guest: pppoe-xp / ceiling | guest: pppoe-xp / kernel PPPoE |"
               " guest: pppoe-xp / kernel PPPoE + flowtable |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")

    def spread(cell, base):
        rr = round_ratios(cell, base)
        return "rounds %s-%s" % (pct(rr[0]), pct(rr[-1])) if len(rr) > 1 else ""

    for k in keys:
        h = hc.get(k, {})
        base = h.get("ceiling")
        best, best_text = None, "-"
        for c in (c for c in HOST_CASES if c.startswith("pppoe-xp")):
            cell = h.get(c)
            r = ratio(cell.value if cell else None, base.value if base else None)
            if r is not None and (best is None or r > best):
                best = r
                best_text = "%s (%s)" % (pct(r), "; ".join(
                    x for x in (c.replace("pppoe-xp-", ""), spread(cell, base)) if x))
        hop = h.get("veth-hop")
        r = ratio(hop.value if hop else None, base.value if base else None)
        hop_spread = spread(hop, base)
        hop_text = "-" if r is None else pct(r) + (" (%s)" % hop_spread if hop_spread else "")
        g = gc.get(k, {})
        gv = {c: (g[c].value if c in g else None) for c in GUEST_CASES}
        kx = ratio(gv["pppoe-xp"], gv["kernel-pppoe"])
        fx = ratio(gv["pppoe-xp"], gv["kernel-pppoe-flowtable"])
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label(k), best_text, hop_text,
            pct(ratio(gv["kernel-pppoe"], gv["ceiling"])),
            pct(ratio(gv["veth-hop"], gv["ceiling"])),
            pct(ratio(gv["netkit-hop"], gv["ceiling"])),
            pct(ratio(gv["kernel-pppoe-flowtable"], gv["ceiling"])),
            pct(ratio(gv["pppoe-xp"], gv["ceiling"])),
            "-" if kx is None else "%.2fx" % kx,
            "-" if fx is None else "%.2fx" % fx))
    out.append("")


def vpn_summary(out, rows):
    """The VPN rows' ratios (issue 15): wg-bridge against wireguard-go over plain Ethernet and
    inside the PPPoE session, each tunnel's share of no tunnel, WireGuard against each
    OpenVPN configuration beside the published kernel WireGuard / OpenVPN UDP, the guest's
    kernel WireGuard against its ceiling and pppoe-xp wg against kernel WireGuard there."""
    wk, wc = grid(rows, "wg")
    gk, gc = grid(rows, "guest")
    keys = [k for k in wk if k[0] == "tcp"] + [k for k in gk if k[0] == "tcp" and k not in wk]
    if not keys or not any(r.get("env") == "wg" or
                           (r.get("env") == "guest" and r.get("case") in GUEST_WG_CASES)
                           for r in rows):
        return

    def x(cells, a, b):
        ca, cb = cells.get(a), cells.get(b)
        r = ratio(ca.value if ca else None, cb.value if cb else None)
        return "-" if r is None else "%.2fx" % r

    def share(cells, a, b):
        ca, cb = cells.get(a), cells.get(b)
        return pct(ratio(ca.value if ca else None, cb.value if cb else None))

    wgs = ("wireguard-go", "pppoe-xp-wg")
    ovpns = [c for c in WG_CASES if c.startswith("openvpn-")]
    out.append("| TCP | pppoe-xp-wg / wireguard-go | pppoe-xp-wg-over-pxp / wireguard-go-over-pxp |"
               " wireguard-go / none | pppoe-xp-wg / none | wireguard-go-over-pxp / none-over-pxp |"
               " pppoe-xp-wg-over-pxp / none-over-pxp | guest: kernel-wg / ceiling |"
               " guest: kernel-wg-over-kernel-pppoe / kernel-pppoe |"
               " guest: pppoe-xp-wg / kernel-wg |"
               " guest: pppoe-xp-wg-over-pxp / kernel-wg-over-kernel-pppoe |")
    out.append("|---" * 11 + "|")
    for k in keys:
        w, g = wc.get(k, {}), gc.get(k, {})
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label(k), x(w, "pppoe-xp-wg", "wireguard-go"),
            x(w, "pppoe-xp-wg-over-pxp", "wireguard-go-over-pxp"),
            share(w, "wireguard-go", "none"), share(w, "pppoe-xp-wg", "none"),
            share(w, "wireguard-go-over-pxp", "none-over-pxp"),
            share(w, "pppoe-xp-wg-over-pxp", "none-over-pxp"),
            share(g, "kernel-wg", "ceiling"),
            share(g, "kernel-wg-over-kernel-pppoe", "kernel-pppoe"),
            x(g, "pppoe-xp-wg", "kernel-wg"),
            x(g, "pppoe-xp-wg-over-pxp", "kernel-wg-over-kernel-pppoe")))
    out.append("")
    # Issue 15's "done when": wg-bridge at least 2x wireguard-go with one stream, inside the
    # session and over plain Ethernet; at most 32 MB RSS a process.
    for a, b, where in (("pppoe-xp-wg", "wireguard-go", "over plain Ethernet"),
                        ("pppoe-xp-wg-over-pxp", "wireguard-go-over-pxp", "inside the session")):
        got = ["%s %s" % (d, x(wc.get(("tcp", d, 1), {}), a, b)) for d in ("download", "upload")]
        out.append("- %s / %s, one stream, %s: %s (target: at least 2x both ways)." % (
            a, b, where, ", ".join(got)))
    # A hub: the far end with WG_HUB_PEERS idle peers (bench/lib/wg.sh) against one peer.
    for impl in wgs:
        got = ["%s %s" % (d, x(wc.get(("tcp", d, 1), {}), impl + "-hub", impl))
               for d in ("download", "upload")]
        out.append("- %s-hub / %s (the far end a hub of idle peers besides the router: "
                   "WG_HUB_PEERS, bench/lib/wg.sh), one stream: %s." % (impl, impl, ", ".join(got)))
    # ... and in the guest at least kernel WireGuard's throughput (TCG: both emulated). Each
    # round's ratio too: the two ran side by side, minutes apart at most.
    for a, b in (("pppoe-xp-wg", "kernel-wg"),
                 ("pppoe-xp-wg-over-pxp", "kernel-wg-over-kernel-pppoe")):
        got = []
        for d in ("download", "upload"):
            g = gc.get(("tcp", d, 1), {})
            rr = round_ratios(g.get(a), g.get(b))
            got.append("%s %s%s" % (d, x(g, a, b), " (rounds %.2f-%.2fx)" % (rr[0], rr[-1])
                                               if len(rr) > 1 else ""))
        out.append("- guest: %s / %s, one stream: %s (target: at least 1x both ways)." % (
            a, b, ", ".join(got)))
    peaks = [(("guest/" if r.get("env") == "guest" else "") + r.get("case", ""),
              max(r.get("router_rss_max_kb") or 0, r.get("isp_rss_max_kb") or 0))
             for r in rows if r.get("test") == "memory" and r.get("status") == "ok" and
             (r.get("env") == "wg" or r.get("case") in GUEST_WG_CASES)]
    if peaks:
        out.append("- Largest tunnel process (kB): %s (target for pppoe-xp wg: at most 32768)." %
                   ", ".join("%s %d" % p for p in peaks))
    out.append("")
    cols = [(a, b) for a in wgs for b in ovpns]
    out.append("| TCP | " + " | ".join("%s / %s" % c for c in cols) +
               " | published: kernel WireGuard / OpenVPN UDP |")
    out.append("|---" * (len(cols) + 2) + "|")
    for k in (k for k in wk if k[0] == "tcp"):
        w = wc.get(k, {})
        out.append("| %s | %s | %.1fx |" % (label(k), " | ".join(x(w, a, b) for a, b in cols),
                                          PUBLISHED_WG_OVER_OPENVPN))
    out.append("")


def memory_table(out, rows):
    mem = [r for r in rows if r.get("test") == "memory"]
    if not mem:
        return
    out.append("| env | case | processes | router RSS kB | isp RSS kB | largest process kB |"
               " router BPF maps bytes | isp BPF maps bytes | router UMEM bytes |"
               " router data path |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in mem:
        if r.get("status") != "ok":
            out.append("| %s | %s | %s | %s: %s | | | | | | |" % (
                r.get("env"), r.get("case"), r.get("rss_of", "pppoe-xp"), r.get("status"),
                r.get("reason", "")))
            continue
        peak = [r[k] for k in ("router_rss_max_kb", "isp_rss_max_kb") if r.get(k) is not None]
        r = dict(r, rss_of=r.get("rss_of", "pppoe-xp"), peak=max(peak) if peak else None)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % tuple(
            "-" if r.get(k) in (None, "") else str(r[k]) for k in (
                "env", "case", "rss_of", "router_rss_kb", "isp_rss_kb", "peak",
                "router_bpf_map_bytes", "isp_bpf_map_bytes", "router_umem_bytes",
                "router_data_path")))
    out.append("")


def bpf_table(out, rows):
    b = [r for r in rows if r.get("test") == "bpf_ns"]
    if not b:
        return
    out.append("| program | frame | bytes | verdict | ns/packet | median ns | empty program ns |")
    out.append("|---|---|---|---|---|---|---|")
    for r in b:
        if r.get("status") != "ok":
            out.append("| %s | | | %s: %s | | | |" % (r.get("program", r.get("object", "-")),
                                                    r.get("status"), r.get("reason", "")))
            continue
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % tuple(
            str(r.get(k)) for k in ("program", "frame", "frame_bytes", "verdict",
                                    "ns_per_packet", "median_ns", "empty_prog_ns")))
    out.append("")


def problems(out, rows):
    seen = {}
    for r in rows:
        if r.get("status") in ("unavailable", "failed"):
            k = (r.get("env"), r.get("case"), r["status"], r.get("reason", ""))
            seen[k] = seen.get(k, 0) + 1
    if not seen:
        out.append("Every measurement ran.\n")
        return
    out.append("| env | case | status | measurements | reason |")
    out.append("|---|---|---|---|---|")
    for (env, case, status, reason), n in sorted(seen.items(), key=lambda x: x[0][:3]):
        out.append("| %s | %s | %s | %d | %s |" % (env, case, status, n,
                                                  reason.replace("|", "/")))
    out.append("")


def chart(rows, png):
    """Grouped bars: TCP throughput of every case as a share of its own kernel's ceiling."""
    series = [(env, c) for env in ("host", "wg", "guest") for c in CASES[env][1:]]
    grids = {env: grid(rows, env) for env in ("host", "wg", "guest")}
    keys = []
    for k in grids["host"][0] + grids["wg"][0] + grids["guest"][0]:
        if k[0] == "tcp" and k not in keys:
            keys.append(k)
    def share(env, c, k):
        g = grids[env][1].get(k, {})
        base, cell = g.get(CASES[env][0]), g.get(c)
        return ratio(cell.value if cell else None, base.value if base else None)

    # gnuplot refuses a histogram column without a single number.
    series = [s for s in series if any(share(s[0], s[1], k) is not None for k in keys)]
    if not shutil.which("gnuplot"):
        print("report.py: gnuplot is not installed (gnuplot-nox): no chart", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")
        any_value = False
        with open(data, "w") as f:
            f.write("test " + " ".join('"%s %s"' % s for s in series) + "\n")
            for k in keys:
                vals = []
                for env, c in series:
                    r = share(env, c, k)
                    vals.append("NaN" if r is None else "%.1f" % (100 * r))
                    any_value = any_value or r is not None
                short = {"upload": "up", "download": "down"}.get(k[1], k[1])
                f.write('"%s %s" %s\n' % (short, k[2], " ".join(vals)))
        script = """
set terminal pngcairo size 1200,600 font ",10"
set output "%s"
set title "TCP throughput as %% of the same environment's ceiling: no PPPoE; wg: no tunnel (up/down, streams)"
set ylabel "%% of ceiling"
set yrange [0:*]
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set arrow from graph 0, first 100 to graph 1, first 100 nohead dashtype 2
plot for [i=2:%d] "%s" using i:xtic(1) title columnhead(i)
""" % (png, len(series) + 1, data)
        if not any_value:
            script = ('set terminal pngcairo size 1200,600\nset output "%s"\nunset border\n'
                      'unset tics\nset label "no TCP measurement of a PPPoE case in this run" at 0,0 center\n'
                      'plot [-1:1][-1:1] NaN notitle\n' % png)
        p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if p.returncode:
            print("report.py: gnuplot failed: %s" % p.stderr.strip(), file=sys.stderr)
            return False
    return True


BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def update_doc(doc, body, png):
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        print("report.py: %s has no %s ... %s block" % (doc, BEGIN, END), file=sys.stderr)
        return
    rel = os.path.relpath(png, os.path.dirname(os.path.abspath(doc)))
    body = body.replace("](%s)" % os.path.basename(png), "](%s)" % rel)
    # The document has its own title: the tables' headings go one level down.
    body = "\n".join("#" + l if l.startswith("## ") else l
                      for l in body.splitlines()[2:])
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(doc, "w") as f:
        f.write(head + BEGIN + "\n" + body.strip() + "\n" + END + tail)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    src, md, png = sys.argv[1:4]
    rows = load(src)
    meta = rows[0] if rows else {}
    out = ["# pppoe-xp benchmark results", ""]
    out.append("Run `%s` (%s), commit `%s`%s; kernel %s, %s x %s; load average at start %s;"
               " WAN GRO %s; guest kernel %s, guest WAN ports %s." % (
                   meta.get("run_id"), meta.get("run_mode"), str(meta.get("git_commit"))[:12],
                   " (uncommitted changes)" if meta.get("git_dirty") else "", meta.get("kernel"),
                   meta.get("cpus"), meta.get("cpu_model"),
                   " ".join(meta.get("loadavg_at_start", [])), meta.get("wan_gro", "off"),
                   meta.get("guest_kernel", "6.1"), meta.get("guest_wan", "veth")))
    out.append("")
    out.append("Cells: median over rounds; (%) = share of the same kernel's ceiling (for ping:"
               " ceiling RTT / case RTT); rounds a-b = the lowest and highest case / ceiling"
               " within one round; cpu = whole-machine busy share during the"
               " measurement. Guest numbers are qemu TCG: compare them only with each other."
               " x = ratio to kernel PPPoE in the guest (for ping: kernel RTT / case RTT);"
               " mixed = the pppoe-xp client against the kernel AC, the closest client-to-client"
               " comparison; -netkit = netkit session netdevs (--mode tc --rx xdp-pass"
               " --netdev netkit) at our end(s).")
    out.append("")
    out.append("## Summary: pppoe-xp against the ceiling and kernel PPPoE")
    out.append("")
    headline(out, rows)
    out.append("## Host kernel (namespaces over veth)")
    out.append("")
    env_table(out, rows, "host", HOST_CASES)
    out.append("## qemu guest (Debian kernel, TCG)")
    out.append("")
    env_table(out, rows, "guest", GUEST_CASES)
    out.append("## VPN tunnels (host kernel, namespaces over veth)")
    out.append("")
    env_table(out, rows, "wg", WG_CASES)
    out.append("## VPN tunnels: wg-bridge, wireguard-go, OpenVPN, kernel WireGuard")
    out.append("")
    vpn_summary(out, rows)
    out.append("## Memory")
    out.append("")
    memory_table(out, rows)
    out.append("## BPF programs (BPF_PROG_TEST_RUN)")
    out.append("")
    bpf_table(out, rows)
    out.append("## Not measured")
    out.append("")
    problems(out, rows)
    drew = chart(rows, png)
    if drew:
        out.append("![TCP throughput as share of the ceiling](%s)" % os.path.basename(png))
        out.append("")
    with open(md, "w") as f:
        f.write("\n".join(out))
    if len(sys.argv) == 5:
        update_doc(sys.argv[4], "\n".join(out), png)
    print("report: %s%s" % (md, " and " + png if drew else ""))


if __name__ == "__main__":
    main()
