import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import type { HostName, LabLayout } from './layout';
import { WaitAborted, alive, commandLine, signal, waitFor, which } from './shell';

/**
 * Delay and loss between hosts without netem (this kernel has none): a
 * packet socket on each delayed host's root-side veth sees every frame the
 * host sends before tc's ingress runs; a tc filter there then drops the
 * frames bound for another lab host (faults.ts), and this process sends its
 * copy on through the bridge once the delay has passed (or never, at the
 * loss rate). The root namespace's own traffic (10.<net>.0.1) is neither
 * taken nor delayed. PACKET_VNET_HDR keeps each frame's checksum-offload and
 * segmentation state, which frames between namespaces carry unresolved.
 *
 *   delayer.py <bridge> <subnet prefix "10.77.0."> <root address> <delay ms> <loss %> <ready file> <veth>...
 */
const SCRIPT = String.raw`
import heapq, os, random, select, signal, socket, sys, time
bridge, prefix, gw, delay_ms, loss, ready, *veths = sys.argv[1:]
delay = float(delay_ms) / 1000.0
loss = float(loss) / 100.0
net = bytes(int(part) for part in prefix.strip('.').split('.'))
gw = socket.inet_aton(gw)
SOL_PACKET, PACKET_VNET_HDR, PACKET_OUTGOING, ETH_P_ALL, VNET = 263, 15, 4, 3, 10
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

def packet_socket(dev, proto):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(proto))
    s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((dev, proto))
    s.setblocking(False)
    return s

inputs = [packet_socket(dev, ETH_P_ALL) for dev in veths]
out = packet_socket(bridge, 0)
open(ready, 'w').write(str(os.getpid()))
queue, seq = [], 0

def taken(frame):
    # What the tc filter drops: IPv4 to another lab host (not to the root namespace).
    f = frame[VNET:]
    return len(f) >= 34 and f[12:14] == b'\x08\x00' and f[30:33] == net and f[30:34] != gw

while True:
    timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else 1.0
    readable, _, _ = select.select(inputs, [], [], timeout)
    for s in readable:
        while True:
            try:
                frame, address = s.recvfrom(262144)
            except BlockingIOError:
                break
            if address[2] == PACKET_OUTGOING or not taken(frame):
                continue
            if loss > 0 and random.random() < loss:
                continue
            seq += 1
            heapq.heappush(queue, (time.monotonic() + delay, seq, frame))
    now = time.monotonic()
    while queue and queue[0][0] <= now:
        try:
            out.send(heapq.heappop(queue)[2])
        except OSError:
            pass
`;

export interface DelayerSpec {
  ms: number;
  lossPercent: number;
  hosts: HostName[];
}

/** Starts the delayer for `spec.hosts`; resolves with its pid once its sockets are open. */
export async function startDelayer(layout: LabLayout, spec: DelayerSpec): Promise<number> {
  const python = which('python3', ['/usr/bin/python3']);
  if (!python) {
    throw new Error('delay needs python3 (its packet sockets carry the delayed frames)');
  }
  const script = join(layout.stateDir, 'delayer.py');
  const ready = join(layout.stateDir, 'delayer.ready');
  writeFileSync(script, SCRIPT);
  rmSync(ready, { force: true });
  const out = openSync(join(layout.logDir, 'delayer.out'), 'a');
  const child = spawn(
    python,
    [
      script,
      layout.bridge,
      `10.${layout.net}.0.`,
      layout.gatewayAddress,
      String(spec.ms),
      String(spec.lossPercent),
      ready,
      ...spec.hosts.map((host) => layout.veth(host)),
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  child.on('error', () => undefined);
  child.unref();
  const pid = child.pid!;
  await waitFor(
    'the delayer opening its sockets',
    () => {
      if (!alive(pid)) {
        throw new WaitAborted(`it exited; see ${join(layout.logDir, 'delayer.out')}`);
      }
      return existsSync(ready);
    },
    10_000,
    50,
  );
  return pid;
}

/** Stops the delayer `pid` (only if it is this lab's: its command line names the lab's bridge). */
export async function stopDelayer(layout: LabLayout, pid: number | undefined): Promise<void> {
  if (!pid || !alive(pid) || !commandLine(pid).includes(` ${layout.bridge} `)) {
    return;
  }
  signal([pid], 'SIGKILL');
  await waitFor('the delayer to exit', () => !alive(pid), 5_000, 50);
}
