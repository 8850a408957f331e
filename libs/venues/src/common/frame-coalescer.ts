import type { Socket } from 'node:net';

/**
 * Lets the frames of one synchronous run (a burst of re-quotes woken by one
 * book update) share writes. Every write to a socket is a system call that
 * also wakes the peer; a trader's several trades on one book re-quote on the
 * same account socket one after the other, and their frames can leave in one.
 *
 * While a run is open, a socket's frames are held back (corked) only as long
 * as the run goes on sending on that socket, and for `maxHoldMs` at most:
 * they leave the moment it sends on another one, one of its steps sends
 * nothing, the oldest has waited `maxHoldMs` (an account with a hundred
 * trades on the book still has its first re-quote out early), or the run
 * ends. Outside a run, frames leave at once.
 */
/**
 * A write costs a few microseconds of system call, a re-quote step tens: a
 * quarter millisecond still saves most writes of a long run.
 */
const DEFAULT_MAX_HOLD_MS = 0.25;

export class FrameCoalescer {
  private open = false;
  private held: Socket | null = null;
  /** When the held socket was corked (its oldest frame). */
  private heldSince = 0;
  private sentInStep = false;
  private readonly onSent: Array<() => void> = [];

  constructor(
    private readonly maxHoldMs = DEFAULT_MAX_HOLD_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `run` with coalescing; every held frame has left when it returns. */
  during(run: () => void): void {
    if (this.open) {
      return run();
    }
    this.open = true;
    try {
      run();
    } finally {
      this.open = false;
      this.flush();
    }
  }

  /** Called by a socket just before it writes a frame. */
  beforeWrite(socket: Socket): void {
    if (!this.open) {
      return;
    }
    this.sentInStep = true;
    const now = this.now();
    if (this.held === socket && now - this.heldSince < this.maxHoldMs) {
      return;
    }
    this.flush();
    socket.cork();
    this.held = socket;
    this.heldSince = now;
  }

  /** One step of the run ended: if it sent nothing, or held them long enough, the frames leave now. */
  stepEnded(): void {
    if (!this.sentInStep || (this.held && this.now() - this.heldSince >= this.maxHoldMs)) {
      this.flush();
    }
    this.sentInStep = false;
  }

  /** Calls `callback` once the frames written so far have been handed to the kernel. */
  whenSent(callback: () => void): void {
    if (this.held) {
      this.onSent.push(callback);
    } else {
      callback();
    }
  }

  private flush(): void {
    const socket = this.held;
    if (!socket) {
      return;
    }
    this.held = null;
    socket.uncork();
    for (const callback of this.onSent.splice(0)) {
      callback();
    }
  }
}
