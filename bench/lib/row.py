#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Builds one results.jsonl row from the raw output of a measurement and appends it.

usage: row.py OUT.jsonl META.json [ITEM...]
  key=value          a parameter (numbers become numbers)
  key:=JSON          a JSON value
  --iperf FILE       iperf3 -J output: TCP or UDP throughput (and the error, if any)
  --ping FILE        ping output: loss and rtt min/avg/max/mdev in ms
  --cpu BEFORE AFTER /proc/stat snapshots ("cpu" lines): busy share, machine and per core
  --json-line STR    merge one JSON object (e.g. a line from bpf_ns)
  --cause TEXT       what ended the path (e.g. its PPP session), put before the reason of a
                     row that failed; empty: nothing

A row whose measurement produced nothing usable gets "status": "failed" and a reason;
rows are never dropped. Prints a one-line summary of the row to stdout.
"""
import json
import re
import sys


def typed(v):
    if v == "null":
        return None
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def parse_iperf(path, row):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        return "iperf3 gave no JSON (%s)" % e.__class__.__name__
    if d.get("error"):
        return "iperf3: %s" % d["error"]
    end = d.get("end", {})
    start = d.get("start", {}).get("test_start", {})
    if start.get("protocol") == "UDP":
        s = end.get("sum", {})
        secs = s.get("seconds") or 0
        if not secs:
            return "iperf3 UDP result has no duration"
        packets, lost = s.get("packets", 0), s.get("lost_packets", 0)
        row["packets_sent"] = packets
        row["packets_lost"] = lost
        row["lost_percent"] = round(s.get("lost_percent", 0.0), 3)
        row["pps"] = round((packets - lost) / secs)
        row["pps_sent"] = round(packets / secs)
        row["bits_per_second"] = round(s.get("bits_per_second", 0) * (packets - lost) /
                                       packets) if packets else 0
    else:
        recv, sent = end.get("sum_received", {}), end.get("sum_sent", {})
        if "bits_per_second" not in recv:
            return "iperf3 TCP result has no received sum"
        row["bits_per_second"] = round(recv["bits_per_second"])
        row["retransmits"] = sent.get("retransmits")
    cpu = end.get("cpu_utilization_percent", {})
    if cpu:
        row["iperf_cpu_host_percent"] = round(cpu.get("host_total", 0), 1)
        row["iperf_cpu_remote_percent"] = round(cpu.get("remote_total", 0), 1)
    return None


def parse_ping(path, row):
    try:
        text = open(path).read()
    except OSError as e:
        return "no ping output (%s)" % e
    m = re.search(r"(\d+) packets transmitted, (\d+) (?:packets )?received", text)
    if not m:
        return "ping printed no summary"
    row["ping_sent"], row["ping_received"] = int(m.group(1)), int(m.group(2))
    # iputils prints min/avg/max/mdev, busybox (in the guest) min/avg/max.
    m = re.search(r"= ([\d.]+)/([\d.]+)/([\d.]+)(?:/([\d.]+))? ms", text)
    if not m:
        return "no ping reply (%d sent)" % row["ping_sent"]
    row["rtt_ms"] = {k: float(v) for k, v in zip(("min", "avg", "max", "mdev"), m.groups())
                     if v is not None}
    return None


def read_stat(path):
    cpus = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("cpu"):
                continue
            name, *vals = line.split()
            vals = [int(v) for v in vals[:8]]
            idle = vals[3] + vals[4]  # idle + iowait
            cpus[name] = (sum(vals), idle)
    return cpus


def cpu_busy(before, after, row):
    try:
        a, b = read_stat(before), read_stat(after)
    except (OSError, ValueError) as e:
        return "no /proc/stat snapshot (%s)" % e
    busy = {}
    for name in b:
        if name not in a:
            continue
        total = b[name][0] - a[name][0]
        idle = b[name][1] - a[name][1]
        busy[name] = round(1 - idle / total, 3) if total > 0 else None
    row["cpu_busy"] = busy.pop("cpu", None)
    row["cpu_busy_per_core"] = [busy[k] for k in sorted(busy, key=lambda n: int(n[3:]))]
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, meta_path, items = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(meta_path) as f:
        row = json.load(f)
    errors = []
    cause = ""
    i = 0
    while i < len(items):
        it = items[i]
        if it == "--iperf":
            errors.append(parse_iperf(items[i + 1], row))
            i += 2
        elif it == "--ping":
            errors.append(parse_ping(items[i + 1], row))
            i += 2
        elif it == "--cpu":
            errors.append(cpu_busy(items[i + 1], items[i + 2], row))
            i += 3
        elif it == "--cause":
            cause = items[i + 1]
            i += 2
        elif it == "--json-line":
            row.update(json.loads(items[i + 1]))
            i += 2
        elif ":=" in it:
            k, v = it.split(":=", 1)
            row[k] = json.loads(v)
            i += 1
        elif "=" in it:
            k, v = it.split("=", 1)
            row[k] = typed(v)
            i += 1
        else:
            sys.exit("row.py: cannot parse argument %r" % it)
    errors = [e for e in errors if e]
    if errors and row.get("status", "ok") == "ok":
        row["status"] = "failed"
        row["reason"] = "; ".join(([cause] if cause else []) + errors)
    row.setdefault("status", "ok")
    with open(out, "a") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")

    summary = []
    if "bits_per_second" in row and "pps" not in row:
        summary.append("%.0f Mbit/s" % (row["bits_per_second"] / 1e6))
    if "pps" in row:
        summary.append("%d pps received (%.1f%% lost)" % (row["pps"], row["lost_percent"]))
    if "rtt_ms" in row:
        summary.append("rtt avg %.3f ms" % row["rtt_ms"]["avg"])
    if "ns_per_packet" in row:
        summary.append("%s ns/packet" % row["ns_per_packet"])
    if "router_rss_kb" in row:
        summary.append("router RSS %s kB, isp RSS %s kB, BPF maps %s bytes" % (
            row["router_rss_kb"], row.get("isp_rss_kb"), row.get("router_bpf_map_bytes")))
    if row.get("cpu_busy") is not None:
        summary.append("cpu %.0f%%" % (100 * row["cpu_busy"]))
    if row["status"] != "ok":
        summary.append("%s: %s" % (row["status"], row.get("reason", "")))
    print(", ".join(summary))


if __name__ == "__main__":
    main()
