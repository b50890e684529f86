import type { SmtpSession } from './smtp-session.js';

export interface HostPoolOptions {
  /** At most this many sessions to the host, open or opening. */
  maxConnections: number;
  /** A session is closed after this many transactions rather than pooled again. */
  maxMessagesPerConnection: number;
  /** An unused session is closed after this long. */
  idleMs: number;
  /** Opens a new session to the host (connect, EHLO, STARTTLS). */
  open: () => Promise<SmtpSession>;
  /** Called when the pool holds nothing any more (no session, opening or waiter), so it can be dropped. */
  onEmpty?: () => void;
}

interface Waiter {
  resolve: (session: SmtpSession) => void;
  reject: (err: unknown) => void;
}

/**
 * The sessions to one `host:port`: idle ones are reused, most recently used first (so the surplus
 * ages out), new ones are opened up to the limit, and callers beyond it wait in FIFO order.
 */
export class HostPool {
  private readonly sessions = new Set<SmtpSession>();
  private readonly idle: SmtpSession[] = [];
  private readonly idleTimers = new Map<SmtpSession, NodeJS.Timeout>();
  private readonly openings = new Set<Promise<SmtpSession>>();
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(private readonly opts: HostPoolOptions) {}

  /** An open session for one transaction; rejects when a new one cannot be opened. Hand it back with release(). */
  acquire(): Promise<SmtpSession> {
    if (this.closed) return Promise.reject(new Error('SMTP transport is closed'));
    const idle = this.takeIdle();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.sessions.size + this.openings.size < this.opts.maxConnections) return this.openNew();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Takes a session back after a transaction: pooled when `reusable` and healthy, else closed. */
  release(session: SmtpSession, reusable: boolean): void {
    if (session.dead) return;
    if (!reusable) return void session.destroy();
    if (this.closed || session.transactions >= this.opts.maxMessagesPerConnection) return void session.quit();
    const waiter = this.waiters.shift();
    if (waiter !== undefined) return waiter.resolve(session);
    this.idle.push(session);
    const timer = setTimeout(() => {
      this.unidle(session);
      void session.quit();
    }, this.opts.idleMs);
    timer.unref();
    this.idleTimers.set(session, timer);
  }

  /** Refuses waiting and future callers, closes idle sessions and waits until every session has ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.failWaiters(new Error('SMTP transport is closed'));
    for (const session of [...this.idle]) {
      this.unidle(session);
      void session.quit();
    }
    await Promise.allSettled([...this.openings]);
    // Sessions in a transaction end when they are released.
    await Promise.all([...this.sessions].map((s) => s.ended));
  }

  private takeIdle(): SmtpSession | undefined {
    for (let session = this.idle.pop(); session !== undefined; session = this.idle.pop()) {
      clearTimeout(this.idleTimers.get(session));
      this.idleTimers.delete(session);
      if (!session.dead) return session;
    }
    return undefined;
  }

  private openNew(): Promise<SmtpSession> {
    const opening = this.opts.open().then(
      (session) => {
        this.openings.delete(opening);
        this.sessions.add(session);
        session.onEnd = () => this.forget(session);
        if (this.closed) {
          void session.quit();
          throw new Error('SMTP transport is closed');
        }
        return session;
      },
      (err: unknown) => {
        this.openings.delete(opening);
        // With no session to this host left, waiters would only queue up to fail the same way:
        // they move on to the next MX now. Otherwise the freed slot goes to the first of them.
        if (this.sessions.size === 0 && this.openings.size === 0) this.failWaiters(err);
        else this.serveWaiters();
        this.checkEmpty();
        throw err;
      },
    );
    this.openings.add(opening);
    return opening;
  }

  private forget(session: SmtpSession): void {
    this.sessions.delete(session);
    this.unidle(session);
    this.serveWaiters();
    this.checkEmpty();
  }

  private checkEmpty(): void {
    if (this.sessions.size === 0 && this.openings.size === 0 && this.waiters.length === 0) this.opts.onEmpty?.();
  }

  private serveWaiters(): void {
    while (
      this.waiters.length > 0 &&
      !this.closed &&
      this.sessions.size + this.openings.size < this.opts.maxConnections
    ) {
      const waiter = this.waiters.shift() as Waiter;
      this.openNew().then(waiter.resolve, waiter.reject);
    }
  }

  private unidle(session: SmtpSession): void {
    const i = this.idle.indexOf(session);
    if (i >= 0) this.idle.splice(i, 1);
    clearTimeout(this.idleTimers.get(session));
    this.idleTimers.delete(session);
  }

  private failWaiters(err: unknown): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(err);
  }
}
