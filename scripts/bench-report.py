#!/usr/bin/env python3
"""Turns hearth-bench JSON lines into docs/BENCHMARKS.md (side-by-side table and targets)."""
import json, os, platform, statistics, subprocess, sys, datetime

path, command, versions = sys.argv[1], sys.argv[2], sys.argv[3]
# Results of scripts/bench-clients.py (Python asyncio clients and slow readers), if any.
clients_path = sys.argv[4] if len(sys.argv) > 4 else None
rows = [json.loads(l) for l in open(path) if l.startswith("{")]

def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()

mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
servers = ["hearth", "hearth-nio", "ngircd", "inspircd"]
# "hearth" runs `--io epoll` (the default: its own loops on the IRC port), "hearth-nio" `--io nio`.
# The other servers:
peers = ["ngircd", "inspircd"]
hearths = [("hearth", "Hearth"), ("hearth-nio", "Hearth (--io nio)")]
def find(scenario, server, **match):
    """The run of `scenario` on `server`; with several runs (rounds), each number is their median."""
    runs = [r for r in rows if r["scenario"] == scenario and r["server"] == server and not r.get("client")
            and all(r.get(k) == v for k, v in match.items())]
    if len(runs) <= 1:
        return runs[0] if runs else None
    def number(v): return isinstance(v, (int, float)) and not isinstance(v, bool)
    merged = dict(runs[0], runs=len(runs))
    for key in {k for r in runs for k in r}:
        values = [r[key] for r in runs if number(r.get(key))]
        if values:
            merged[key] = statistics.median(values)
    return merged

def fmt(v, digits=0):
    if v is None: return "–"
    if isinstance(v, float) and digits: return f"{v:,.{digits}f}"
    return f"{v:,.0f}"

out = []
out.append("# Benchmarks\n")
out.append(f"Made by `{command}` on {datetime.date.today().isoformat()}: {os.cpu_count()} cores ({cpu_model()}), "
           f"{mem_gib:.0f} GiB, {platform.platform()}. Versions: {versions}. All servers on loopback with flood "
           "control off (configs in `bench/`), measured in the same run by `hearth-bench` "
           "(SwiftNIO, 2 threads). Server CPU and RSS come from /proc/PID; the harness's own CPU is shown so a "
           "reader can tell when the client side is the limit (on 2 cores the harness and the server share the machine).\n")

def ratio(metric, scenario, higher_better=True, hearth="hearth", **match):
    h = find(scenario, hearth, **match)
    others = [find(scenario, s, **match) for s in peers]
    others = [o for o in others if o and o.get(metric) is not None]
    if not h or not others or h.get(metric) is None: return "–"
    best = max(o[metric] for o in others) if higher_better else min(o[metric] for o in others)
    return f"{h[metric] / best:.2f}×" if best else "–"

# connect
sizes = sorted({r["clients"] for r in rows if r["scenario"] == "connect"})
out.append("## connect: registered idle clients\n")
out.append("| clients | server | registrations/s | p50 ms | p99 ms | KiB per client | server CPU s | harness CPU s |")
out.append("|---|---|---|---|---|---|---|---|")
for n in sizes:
    for s in servers:
        r = find("connect", s, clients=n)
        if r: out.append(f"| {n:,} | {s} | {fmt(r.get('registrations_per_s'))} | {fmt(r.get('p50_ms'),1)} | {fmt(r.get('p99_ms'),1)} | {fmt(r.get('kib_per_client'),2)} | {fmt(r.get('server_cpu_s'),2)} | {fmt(r.get('harness_cpu_s'),2)} |")
    for h, name in hearths:
        if find("connect", h, clients=n) and any(find("connect", p, clients=n) for p in peers):
            out.append(f"| {n:,} | **{name} ÷ best** | {ratio('registrations_per_s','connect',hearth=h,clients=n)} | | | {ratio('kib_per_client','connect',False,hearth=h,clients=n)} | | |")
out.append("")

def rounds_note(scenario):
    r = find(scenario, "hearth")
    return f"Each figure is the median of {r['runs']} runs, the servers taking turns.\n" if r and r.get("runs") else ""

out.append("## fanout: 200 members in one channel, 10 senders, 16 messages in flight each\n")
if rounds_note("fanout"): out.append(rounds_note("fanout"))
out.append("| server | deliveries/s | p50 ms | p99 ms | deliveries per server CPU s | server CPU s | harness CPU s | RSS KiB |")
out.append("|---|---|---|---|---|---|---|---|")
for s in servers:
    r = find("fanout", s)
    if r: out.append(f"| {s} | {fmt(r['deliveries_per_s'])} | {fmt(r['p50_ms'],1)} | {fmt(r['p99_ms'],1)} | {fmt(r.get('deliveries_per_server_cpu_s'))} | {fmt(r.get('server_cpu_s'),2)} | {fmt(r.get('harness_cpu_s'),2)} | {fmt(r.get('server_rss_kib'))} |")
for h, name in hearths:
    out.append(f"| **{name} ÷ best** | {ratio('deliveries_per_s','fanout',hearth=h)} | | {ratio('p99_ms','fanout',False,hearth=h)} | {ratio('deliveries_per_server_cpu_s','fanout',hearth=h)} | | | |")
out.append("")

out.append("## direct: 500 pairs ping-ponging private messages\n")
if rounds_note("direct"): out.append(rounds_note("direct"))
out.append("| server | round trips/s | p50 ms | p99 ms | messages per server CPU s | server CPU s | harness CPU s |")
out.append("|---|---|---|---|---|---|---|")
for s in servers:
    r = find("direct", s)
    if r: out.append(f"| {s} | {fmt(r['round_trips_per_s'])} | {fmt(r['p50_ms'],1)} | {fmt(r['p99_ms'],1)} | {fmt(r.get('messages_per_server_cpu_s'))} | {fmt(r.get('server_cpu_s'),2)} | {fmt(r.get('harness_cpu_s'),2)} |")
for h, name in hearths:
    out.append(f"| **{name} ÷ best** | {ratio('round_trips_per_s','direct',hearth=h)} | | {ratio('p99_ms','direct',False,hearth=h)} | {ratio('messages_per_server_cpu_s','direct',hearth=h)} | | |")
fl = find("direct", "nio-floor")
if fl:
    out.append(f"| nio-floor (not a server: `hearth-bench floor`, a bare SwiftNIO relay) | {fmt(fl['round_trips_per_s'])} | {fmt(fl['p50_ms'],1)} | {fmt(fl['p99_ms'],1)} | {fmt(fl.get('messages_per_server_cpu_s'))} | {fmt(fl.get('server_cpu_s'),2)} | {fmt(fl.get('harness_cpu_s'),2)} |")
    for h, name in hearths:
        hd = find("direct", h)
        if hd and fl.get('messages_per_server_cpu_s') and hd.get('messages_per_server_cpu_s'):
            out.append(f"| **{name} ÷ nio-floor** | {hd['round_trips_per_s'] / fl['round_trips_per_s']:.2f}× | | | {hd['messages_per_server_cpu_s'] / fl['messages_per_server_cpu_s']:.2f}× | | |")
    out.append("\nThe nio-floor row is the least any server built on SwiftNIO's channel pipeline pays per private message "
               "(frame a line, look the target up, write one line on its event loop; no parsing, state or tags): the "
               "ceiling for Hearth's messages per CPU second with `--io nio`. Hearth's own epoll loops (the default) are "
               "not bound by it.")
out.append("")

if clients_path and os.path.exists(clients_path) and os.path.getsize(clients_path):
    out.append("## fanout and direct from other clients: Python asyncio, and slow readers\n")
    out.append("The same fanout (200 members, 10 senders, 16 in flight) and direct load (300 pairs) from "
               "`scripts/bench-clients.py`: Python asyncio clients in 4 processes, each read a `recv` of up to "
               "64 KiB (as issue 42's independent harness read); `asyncio` reads as soon as a line comes, "
               "`slow10ms` sleeps 10 ms after every read, so lines pile up between reads. Medians of the rounds.\n")
    table = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "bench-clients.py"),
                            "summary", clients_path], capture_output=True, text=True).stdout
    out.append(table)
out.append("## Hearth only: bot commands, logins and memes while chat runs\n")
out.append("Chat alongside: 20 pairs of users exchanging private messages, each pair pausing 20 ms between messages (about 1,000 messages/s), measured quiet and under the load.\n")
out.append("| scenario | replies or logins /s | p50 ms | p99 ms | chat p99 ms quiet | chat p99 ms under load | server CPU s |")
out.append("|---|---|---|---|---|---|---|")
for r in rows:
    if r["server"] != "hearth" or r["scenario"] not in ("bot", "login", "meme-cold", "meme-cached"): continue
    names = {"login": f"login `!login` Argon2id ({r['clients']} clients)",
             "meme-cold": f"`!meme sunset …` cold, new captions each time ({r['clients']} clients)",
             "meme-cached": f"`!meme sunset …` cached, same captions ({r['clients']} clients)"}
    paced = f", paced at {r['paced_per_s']:,.0f}/s" if r.get("paced_per_s") else ", flat out"
    name = f"bot `{r.get('command')}` ({r['clients']} clients{paced})" if r["scenario"] == "bot" else names[r["scenario"]]
    rate = r.get("replies_per_s", r.get("logins_per_s", r.get("memes_per_s")))
    out.append(f"| {name} | {fmt(rate)} | {fmt(r['p50_ms'],1)} | {fmt(r['p99_ms'],1)} | {fmt(r['chat_p99_ms_quiet'],1)} | {fmt(r['chat_p99_ms_loaded'],1)} | {fmt(r.get('server_cpu_s'),2)} |")
out.append("")
rr = find("render", "hearth")
if rr:
    out.append("## Hearth only: one meme render in-process (`hearth-bench render`)\n")
    out.append("| memes | size | p50 ms | p99 ms | memes per core-second | average JPEG bytes |")
    out.append("|---|---|---|---|---|---|")
    out.append(f"| {rr['count']} | {rr['width']}×{rr['height']} | {fmt(rr['p50_ms'],1)} | {fmt(rr['p99_ms'],1)} | {fmt(rr['memes_per_core_s'])} | {fmt(rr['avg_jpeg_bytes'])} |\n")

# targets
def best_other(scenario, metric, higher=True, **m):
    vals = [find(scenario, s, **m) for s in peers]
    vals = [v[metric] for v in vals if v and v.get(metric) is not None]
    return (max(vals) if higher else min(vals)) if vals else None
out.append("## Targets\n")
out.append("| target | measured | met? |")
out.append("|---|---|---|")
def target(name, measured, ok):
    out.append(f"| {name} | {measured} | {'yes' if ok else 'no'} |")
big = max(sizes) if sizes else None
h10 = find("connect", "hearth", clients=10000) or (find("connect", "hearth", clients=big) if big else None)
if h10:
    held = max(r['clients'] for r in rows if r['scenario'] == 'connect' and r['server'].startswith('hearth'))
    target("50,000 idle clients held", f"{held:,} (this machine allows {os.sysconf('SC_OPEN_MAX'):,} descriptors per process)", False)
    target(f"≤ 4 KiB RSS per client at {h10['clients']:,}", f"{h10.get('kib_per_client', 0):.2f} KiB", (h10.get('kib_per_client') or 99) <= 4)
    target("registration ≥ 3,000 clients/s", f"{h10['registrations_per_s']:,.0f}/s", h10['registrations_per_s'] >= 3000)
f = find("fanout", "hearth")
if f:
    b = best_other("fanout", "deliveries_per_s"); p = best_other("fanout", "p99_ms", False)
    target("fanout deliveries/s ≥ 1.0× best other", f"{f['deliveries_per_s']:,.0f} vs {b:,.0f}" if b else "–", b is not None and f['deliveries_per_s'] >= b)
    target("fanout p99 ≤ theirs", f"{f['p99_ms']:.1f} ms vs {p:.1f} ms" if p else "–", p is not None and f['p99_ms'] <= p)
d = find("direct", "hearth")
if d:
    b = best_other("direct", "round_trips_per_s"); c = best_other("direct", "messages_per_server_cpu_s"); p = best_other("direct", "p99_ms", False)
    target("direct round trips/s ≥ 1.0× best other", f"{d['round_trips_per_s']:,.0f} vs {b:,.0f}" if b else "–", b is not None and d['round_trips_per_s'] >= b)
    target("direct messages per server CPU s ≥ 1.0× best other", f"{d['messages_per_server_cpu_s']:,.0f} vs {c:,.0f}" if c else "–", c is not None and d['messages_per_server_cpu_s'] >= c)
    target("direct p99 ≤ theirs", f"{d['p99_ms']:.1f} ms vs {p:.1f} ms" if p else "–", p is not None and d['p99_ms'] <= p)
# Speed, round two (issue 22), for each I/O layer of the IRC port.
for h, name in hearths:
    e10 = find("connect", h, clients=10000)
    if e10:
        target(f"{name}: ≤ 2.0 KiB per idle client at 10,000", f"{e10['kib_per_client']:.2f} KiB", e10['kib_per_client'] <= 2.0)
    most = max((r['clients'] for r in rows if r['scenario'] == 'connect' and r['server'] == h), default=0)
    if most:
        target(f"{name}: 19,000 clients held (20,000 descriptors per process here)", f"{most:,}", most >= 19000)
    ef, ed = find("fanout", h), find("direct", h)
    b, p = best_other("fanout", "deliveries_per_s"), best_other("fanout", "p99_ms", False)
    if ef and b and p:
        target(f"{name}: fanout ≥ 1.2× best other, p99 ≤ theirs", f"{ef['deliveries_per_s'] / b:.2f}×, p99 {ef['p99_ms']:.1f} vs {p:.1f} ms", ef['deliveries_per_s'] >= 1.2 * b and ef['p99_ms'] <= p)
    ins = find("direct", "inspircd"); b = best_other("direct", "round_trips_per_s")
    if ed and ins and b:
        target(f"{name}: direct messages per server CPU s ≥ 1.1× InspIRCd; round trips/s ≥ 1.0× best other", f"{ed['messages_per_server_cpu_s'] / ins['messages_per_server_cpu_s']:.2f}×; {ed['round_trips_per_s'] / b:.2f}×", ed['messages_per_server_cpu_s'] >= 1.1 * ins['messages_per_server_cpu_s'] and ed['round_trips_per_s'] >= b)
bots = [r for r in rows if r["scenario"] == "bot" and r["server"] == "hearth"]
# Capacity is judged flat out; "chat unaffected" at the target rate (a server running flat
# out on every core delays everything, whatever it is).
for r in bots:
    unaffected = r['chat_p99_ms_loaded'] <= max(2 * r['chat_p99_ms_quiet'], r['chat_p99_ms_quiet'] + 5)
    if r.get("paced_per_s"):
        target(f"bot `{r['command']}` at {r['paced_per_s']:,.0f} replies/s: chat p99 unaffected", f"{r['replies_per_s']:,.0f}/s served (p99 {r['p99_ms']:.1f} ms); chat p99 {r['chat_p99_ms_quiet']:.1f} → {r['chat_p99_ms_loaded']:.1f} ms", r['replies_per_s'] >= 0.95 * r['paced_per_s'] and unaffected)
    else:
        target(f"bot `{r['command']}` ≥ 5,000 replies/s (flat out)", f"{r['replies_per_s']:,.0f}/s; chat p99 {r['chat_p99_ms_quiet']:.1f} → {r['chat_p99_ms_loaded']:.1f} ms while both cores are saturated", r['replies_per_s'] >= 5000)
if rr:
    target("meme render (800×600, two captions, cold) median ≤ 20 ms", f"{rr['p50_ms']:.1f} ms", rr['p50_ms'] <= 20)
mc = find("meme-cold", "hearth"); mh = find("meme-cached", "hearth")
if mc:
    target("≥ 80 cold memes/s on 2 cores, chat p99 < 10 ms meanwhile", f"{mc['memes_per_s']:,.0f}/s; chat p99 {mc['chat_p99_ms_quiet']:.1f} → {mc['chat_p99_ms_loaded']:.1f} ms", mc['memes_per_s'] >= 80 and mc['chat_p99_ms_loaded'] < 10)
if mh:
    target("cached meme answered in ≤ 1 ms of server time", f"{mh['server_cpu_s'] * 1000 / max(1, mh['memes_per_s'] * mh['seconds']):.2f} ms server CPU per reply (p50 round trip {mh['p50_ms']:.1f} ms)", mh['server_cpu_s'] * 1000 / max(1, mh['memes_per_s'] * mh['seconds']) <= 1)
out.append("")
print("\n".join(out))
print(open(os.path.join(os.path.dirname(__file__), "..", "docs", "BENCHMARKS-notes.md")).read() if os.path.exists(os.path.join(os.path.dirname(__file__), "..", "docs", "BENCHMARKS-notes.md")) else "")
