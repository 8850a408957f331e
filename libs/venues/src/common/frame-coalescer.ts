import type { Socket } from 'node:net';

/**
 * Lets the frames of one synchronous run (a burst of re-quotes woken by one
 * book update) share writes. Every write to a socket is a system call that
 * also wakes the peer; a trader's several trades on one book re-quote on the
 * same account socket one after the other, and their frames can leave in one.
 *
 * While a run is open, a socket's frames are held back (corked) only as long
 * as the run goes on sending on that socket: they leave the moment it sends
 * on another one, one of its steps sends nothing, or the run ends. So a frame
 * waits for one step of the run at most, never for the whole run. Outside a
 * run, frames leave at once.
 */
export class FrameCoalescer {
  private open = false;
  private held: Socket | null = null;
  private sentInStep = false;
  private readonly onSent: Array<() => void> = [];

  /** Runs `run` with coalescing; every held frame has left when it returns. */
  during(run: () => void): void {
    if (this.open) return run();
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
    if (!this.open) return;
    this.sentInStep = true;
    if (this.held === socket) return;
    this.flush();
    socket.cork();
    this.held = socket;
  }

  /** One step of the run ended: if it sent nothing, the frames held so far leave now. */
  stepEnded(): void {
    if (!this.sentInStep) this.flush();
    this.sentInStep = false;
  }

  /** Calls `callback` once the frames written so far have been handed to the kernel. */
  whenSent(callback: () => void): void {
    if (this.held) this.onSent.push(callback);
    else callback();
  }

  private flush(): void {
    const socket = this.held;
    if (!socket) return;
    this.held = null;
    socket.uncork();
    for (const callback of this.onSent.splice(0)) callback();
  }
}
