#!/usr/bin/env python3
"""Fanout and direct chat load from Python asyncio clients in several processes.

A second kind of client beside hearth-bench's (SwiftNIO, reads as fast as it can): this one
reads as the independent harness of issue 42 did, up to 64 KiB per recv in a latency-bound
loop, and with --read-every-ms N it is a deliberately slow reader that sleeps N ms after every
read (a phone, WeeChat over a VPN), so a server's lines pile up in between.

  bench-clients.py fanout --port P --pid PID --server NAME [--members 200 --senders 10 --window 16]
  bench-clients.py direct --port P --pid PID --server NAME [--pairs 300]
  bench-clients.py summary RESULTS.jsonl        (medians per client kind, scenario and server)

Prints one JSON line per run (the same keys as hearth-bench's fanout and direct). Every loop is
bounded in time; all traffic stays on 127.0.0.1.
"""
import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

READ_SIZE = 64 * 1024


def cpu_seconds(pid):
    """utime + stime of PID from /proc (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


class Client(asyncio.Protocol):
    """One connection. Each read is one recv of up to 64 KiB (the transport's max_size); its
    complete lines go to `on_lines(client, lines, now)`. A slow reader stops reading for
    `slow` seconds after every read, so the server's lines pile up in the socket meanwhile."""

    def __init__(self, nick, slow=0):
        self.nick, self.slow, self.rest = nick, slow, b""
        self.on_lines = lambda client, lines, now: None
        self.waiting = None  # (token, future): registration and JOIN wait for a numeric
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        transport.max_size = READ_SIZE

    def data_received(self, data):
        now = time.monotonic()
        data = self.rest + data
        cut = data.rfind(b"\n") + 1
        self.rest = data[cut:]
        lines = data[:cut].split(b"\r\n")
        for line in lines:
            if line.startswith(b"PING"):
                self.send(b"PONG" + line[4:] + b"\r\n")
            elif self.waiting and self.waiting[0] in line and not self.waiting[1].done():
                self.waiting[1].set_result(None)
        self.on_lines(self, lines, now)
        if self.slow and self.transport and not self.transport.is_closing():
            self.transport.pause_reading()
            asyncio.get_running_loop().call_later(self.slow, self.resume)

    def resume(self):
        if not self.transport.is_closing():
            self.transport.resume_reading()

    def connection_lost(self, exc):
        if self.waiting and not self.waiting[1].done():
            self.waiting[1].set_exception(ConnectionError(f"{self.nick}: closed by the server"))

    def send(self, data):
        self.transport.write(data)

    async def wait_for(self, token):
        self.waiting = (token, asyncio.get_running_loop().create_future())
        await asyncio.wait_for(self.waiting[1], 60)
        self.waiting = None


async def register(loop, nick, port, gate):
    async with gate:
        _, client = await loop.create_connection(lambda: Client(nick), "127.0.0.1", port)
        waiting = client.wait_for(b" 001 ")
        client.send(f"NICK {nick}\r\nUSER {nick} 0 * :{nick}\r\n".encode())
        await waiting
        return client


class Window:
    """A run's clock: lines counted and latencies kept only between warm-up and end."""

    def __init__(self, start, warmup, duration):
        self.begin, self.end = start + warmup, start + warmup + duration
        self.count, self.latencies = 0, []

    def measuring(self, now):
        return self.begin <= now < self.end


async def until(window, clients):
    await asyncio.sleep(max(0, window.end - time.monotonic()))
    for client in clients:
        client.on_lines = lambda client, lines, now: None
        client.transport.close()


# MARK: fanout


async def fanout_worker(opts, index, senders, members, ready, go, out):
    """Members `members` of the one channel, `senders` among them; the first non-sender observes
    every line and frees its sender's window (the loop is bound by that latency)."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(opts.register_inflight)
    clients = await asyncio.gather(*(register(loop, f"{opts.prefix}{i}", opts.port, gate) for i in members))
    joins = [c.wait_for(b" 366 ") for c in clients]
    for client in clients:
        client.send(b"JOIN #bench\r\n")
    await asyncio.gather(*joins)
    ready.put(index)
    start = await loop.run_in_executor(None, go.get)
    window = Window(start, opts.warmup, opts.duration)
    in_flight = {i: 0 for i in senders}
    seq = {i: 0 for i in senders}
    by_number = dict(zip(members, clients))
    observer = next((i for i in members if i not in senders), None)

    def pump(i):
        burst = []
        while in_flight[i] < opts.window:
            seq[i] += 1
            in_flight[i] += 1
            burst.append(f"PRIVMSG #bench :s{i} {seq[i]} {time.monotonic_ns()}\r\n")
        if burst:
            by_number[i].send("".join(burst).encode())

    def count(client, lines, now):
        if window.measuring(now):
            window.count += sum(1 for line in lines if b" PRIVMSG " in line)

    def observe(client, lines, now):
        measuring = window.measuring(now)
        for line in lines:
            at = line.find(b" PRIVMSG ")
            if at < 0:
                continue
            text = line[line.find(b" :", at) + 2:].split(b" ")
            sender = int(text[0][1:])
            if measuring:
                window.count += 1
                window.latencies.append(now - int(text[2]) / 1e9)
            if sender in in_flight:
                in_flight[sender] -= 1
        for sender in in_flight:
            pump(sender)

    for i, client in zip(members, clients):
        client.on_lines = observe if i == observer else count
        if i not in senders:
            client.slow = opts.read_every_ms / 1000
    for i in senders:
        pump(i)
    await until(window, clients)
    out.put((window.count, window.latencies))


# MARK: direct


async def direct_worker(opts, index, pairs, ready, go, out):
    """Pairs (a, b) ping-ponging: a sends its clock, b sends it back, a times the round trip."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(opts.register_inflight)
    flat = [f"{opts.prefix}{2 * p + side}" for p in pairs for side in (0, 1)]
    clients = await asyncio.gather(*(register(loop, n, opts.port, gate) for n in flat))
    ready.put(index)
    start = await loop.run_in_executor(None, go.get)
    window = Window(start, opts.warmup, opts.duration)

    def relay(first, other):
        head = b"PRIVMSG " + other.nick.encode() + b" :"

        def on_lines(me, lines, now):
            for line in lines:
                at = line.find(b" PRIVMSG ")
                if at < 0:
                    continue
                sent = line[line.find(b" :", at) + 2:]
                if window.measuring(now):
                    window.count += 1
                    if first:
                        window.latencies.append(now - int(sent) / 1e9)
                me.send(head + (str(time.monotonic_ns()).encode() if first else sent) + b"\r\n")
        return on_lines

    for k in range(0, len(clients), 2):
        a, b = clients[k], clients[k + 1]
        a.on_lines, b.on_lines = relay(True, b), relay(False, a)
        a.slow = b.slow = opts.read_every_ms / 1000
        a.send(f"PRIVMSG {b.nick} :{time.monotonic_ns()}\r\n".encode())
    await until(window, clients)
    out.put((window.count, window.latencies))


def worker(kind, opts, index, share, ready, go, out):
    try:
        if kind == "fanout":
            asyncio.run(fanout_worker(opts, index, *share, ready, go, out))
        else:
            asyncio.run(direct_worker(opts, index, share, ready, go, out))
    except Exception as error:  # reported to the parent, which stops the run
        out.put(error)


def split(items, parts):
    return [items[k::parts] for k in range(parts)]


def run(opts):
    opts.prefix = f"{opts.scenario[0]}{os.getpid() % 10000}x"
    procs = opts.processes
    if opts.scenario == "fanout":
        members = list(range(opts.members))
        senders = list(range(opts.senders))
        shares = [(set(s), m) for s, m in zip(split(senders, procs), split(members, procs))]
    else:
        shares = split(list(range(opts.pairs)), procs)
    ready, go, out = mp.Queue(), mp.Queue(), mp.Queue()
    workers = [mp.Process(target=worker, args=(opts.scenario, opts, k, share, ready, go, out))
               for k, share in enumerate(shares)]
    for w in workers:
        w.start()
    for _ in workers:
        ready.get(timeout=300)
    start = time.monotonic() + 0.2
    for _ in workers:
        go.put(start)
    time.sleep(max(0, start + opts.warmup - time.monotonic()))
    cpu0, t0 = cpu_seconds(opts.pid), time.monotonic()
    time.sleep(max(0, start + opts.warmup + opts.duration - time.monotonic()))
    cpu1, t1 = cpu_seconds(opts.pid), time.monotonic()
    count, latencies = 0, []
    for _ in workers:
        got = out.get(timeout=120)
        if isinstance(got, Exception):
            raise got
        count += got[0]
        latencies += got[1]
    for w in workers:
        w.join(timeout=30)
    seconds = t1 - t0
    cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    kind = f"slow{opts.read_every_ms}ms" if opts.read_every_ms else "asyncio"
    r = {"scenario": opts.scenario, "server": opts.server, "client": kind, "processes": procs,
         "seconds": round(seconds, 3), "server_cpu_s": cpu}
    ms = lambda p: None if not latencies else round(percentile(latencies, p) * 1000, 2)
    if opts.scenario == "fanout":
        r.update(members=opts.members, senders=opts.senders, window=opts.window, deliveries=count,
                 deliveries_per_s=count / seconds,
                 deliveries_per_server_cpu_s=count / cpu if cpu else None)
    else:
        r.update(pairs=opts.pairs, messages=count, round_trips_per_s=len(latencies) / seconds,
                 messages_per_server_cpu_s=count / cpu if cpu else None)
    r.update(p50_ms=ms(50), p99_ms=ms(99))
    print(json.dumps(r), flush=True)


def summary(path):
    """A markdown table of medians per client kind, scenario and server, with ratios to InspIRCd."""
    rows = [json.loads(line) for line in open(path) if line.strip()]
    rows = [r for r in rows if r.get("client")]
    groups = {}
    for r in rows:
        groups.setdefault((r["client"], r["scenario"], r["server"]), []).append(r)
    keys = {"fanout": ("deliveries_per_s", "deliveries_per_server_cpu_s"),
            "direct": ("round_trips_per_s", "messages_per_server_cpu_s")}
    med = lambda rs, k: statistics.median(r[k] for r in rs if r.get(k) is not None)
    print("| clients | scenario | server | rounds | rate /s | per server CPU s | p50 ms | p99 ms "
          "| rate ÷ best other | per CPU ÷ InspIRCd | p99 ÷ lowest other |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (client, scenario, server), rs in sorted(groups.items()):
        rate, per = keys[scenario]
        others = [med(v, rate) for (c, s, srv), v in groups.items()
                  if c == client and s == scenario and not srv.startswith("hearth")]
        lows = [med(v, "p99_ms") for (c, s, srv), v in groups.items()
                if c == client and s == scenario and not srv.startswith("hearth")]
        insp = groups.get((client, scenario, "inspircd"))
        ratio_rate = f"{med(rs, rate) / max(others):.2f}×" if server.startswith("hearth") and others else ""
        ratio_cpu = f"{med(rs, per) / med(insp, per):.2f}×" if server.startswith("hearth") and insp else ""
        ratio_p99 = f"{med(rs, 'p99_ms') / min(lows):.2f}×" if server.startswith("hearth") and lows else ""
        print(f"| {client} | {scenario} | {server} | {len(rs)} | {med(rs, rate):,.0f} | {med(rs, per):,.0f} "
              f"| {med(rs, 'p50_ms'):.1f} | {med(rs, 'p99_ms'):.1f} | {ratio_rate} | {ratio_cpu} | {ratio_p99} |")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "summary":
        return summary(sys.argv[2])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", choices=["fanout", "direct"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True, help="the server's process, for its CPU time")
    p.add_argument("--server", required=True, help="a name for the report")
    p.add_argument("--processes", type=int, default=4)
    p.add_argument("--members", type=int, default=200)
    p.add_argument("--senders", type=int, default=10)
    p.add_argument("--window", type=int, default=16, help="messages in flight per sender")
    p.add_argument("--pairs", type=int, default=300)
    p.add_argument("--duration", type=float, default=10)
    p.add_argument("--warmup", type=float, default=2)
    p.add_argument("--register-inflight", type=int, default=2,
                   help="registrations in flight per process (ngIRCd listens with a backlog of 10)")
    p.add_argument("--read-every-ms", type=int, default=0, help="sleep this long after every read (slow readers)")
    opts = p.parse_args()
    if opts.scenario == "fanout" and not (0 < opts.senders < opts.members):
        p.error("need 0 < senders < members")
    run(opts)


if __name__ == "__main__":
    main()
