import { closeSync, fdatasync, fdatasyncSync, openSync } from "node:fs"
import { Effect } from "effect"
import { StoreError } from "@tessera/core"
import type { DurabilityBarrier, PendingCommit } from "@tessera/core/store-kit"

/**
 * How the write-ahead log is made durable: `sync` in the background (libuv's thread pool, so the
 * event loop keeps committing other requests meanwhile), `syncNow` blocking. Replaceable so a
 * test can make the disk fail.
 */
export interface WalSync {
  readonly sync: (done: (error: Error | null) => void) => void
  readonly syncNow: () => void
  readonly close: () => void
}

/**
 * fdatasync of the `-wal` file through a descriptor of our own. The file is opened at the first
 * sync (a commit has created it by then) and stays the same file while the connection is open:
 * SQLite restarts a checkpointed log in place and deletes it only when the last connection closes.
 */
export const walFileSync = (walPath: string): WalSync => {
  let fd: number | undefined
  const open = () => (fd ??= openSync(walPath, "r"))
  return {
    sync: (done) => {
      let f: number
      try {
        f = open()
      } catch (e) {
        return done(e as Error)
      }
      fdatasync(f, done)
    },
    syncNow: () => fdatasyncSync(open()),
    close: () => {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    }
  }
}

interface Waiter {
  readonly ticket: number
  readonly done: (error?: StoreError) => void
}

/**
 * Answers each waiter. A callback that throws (an answer that could not be written) must not
 * leave the others waiting: its error is thrown again once they all have their answer.
 */
const settle = (waiters: ReadonlyArray<Waiter>, error?: StoreError): void => {
  for (const w of waiters)
    try {
      w.done(error)
    } catch (e) {
      queueMicrotask(() => {
        throw e
      })
    }
}

/**
 * The store's open outer transaction, when commits are batched (DECISIONS #480): committed tickets
 * are in the log only once `end` has committed it, so a sync ends it first.
 */
export interface OpenGroup {
  /** Whether a write transaction is in progress inside it (ending it now would commit half of one). */
  readonly busy: () => boolean
  /** Commits the outer transaction if one is open; throws the StoreError when that fails. */
  readonly end: () => void
  /** Rolls the outer transaction back if one is open: every ticket in it has failed. */
  readonly discard: () => void
}

/**
 * Group commit (DECISIONS #310, #480): write transactions run as savepoints of one outer
 * transaction per group, each taking a ticket when it is released; the outer transaction commits
 * with synchronous=NORMAL (atomic and ordered in the log, not yet synced) right before the group's
 * sync starts, so each hot page is written to the log once per group. Whoever must answer waits
 * for a sync that started after its ticket's group committed. One sync runs at a time and releases
 * every ticket committed before it started; tickets taken while it runs form the next group, which
 * commits and syncs as soon as it ends.
 *
 * A failed sync or group commit breaks the store until restart (#314, #482): Linux may drop the
 * pages it could not write and report success to the next fsync, so no later commit could be
 * trusted to be on disk.
 */
export class GroupCommit implements DurabilityBarrier {
  private committed = 0
  private synced = 0
  private syncing = false
  private closing = false
  private deferred = false
  private broken: StoreError | undefined
  /** Once broken: the first ticket that can no longer be made durable (those before it are, or are being, synced). */
  private brokenFrom = 0
  /** The newest ticket the sync in flight covers. */
  private inflight = 0
  private waiters: Array<Waiter> = []
  private group: OpenGroup | undefined

  constructor(private readonly file: WalSync) {}

  /** The store's outer transaction, ended before each sync. */
  attach(group: OpenGroup): void {
    this.group = group
  }

  /** The newest ticket taken: what a reader of the open group's writes depends on. */
  get newest(): number {
    return this.committed
  }

  /** Numbers a write transaction that wrote something: what its request waits for before it is answered. */
  commit(): PendingCommit {
    return { barrier: this, ticket: ++this.committed }
  }

  /** Throws once a sync failed: a write begun now could never be acknowledged. */
  checkWritable(): void {
    if (this.broken !== undefined) throw this.broken
  }

  /**
   * Said by the store when a write transaction ends. A group gathers only while a sync runs: with
   * none running its transaction commits now (so nothing stays open, and locked, while idle), and
   * whoever waits starts the sync. A sync that was held back for this transaction starts now.
   */
  transactionEnded(): void {
    if (this.broken !== undefined) {
      // Its tickets were failed (#314, #482): nothing of the open group stays, nor its lock (#483).
      this.deferred = false
      this.group?.discard()
    } else if (this.deferred) {
      this.deferred = false
      this.kick()
    } else if (!this.syncing) {
      try {
        this.group?.end()
      } catch (e) {
        this.fail(e, "a group of transactions could not be committed")
      }
    }
  }

  /**
   * SQLite rolled the open outer transaction back by itself (SQLITE_FULL, IOERR, NOMEM…): every
   * ticket it held is lost, so their requests fail and the store refuses writes (#482).
   */
  lost(error: unknown): void {
    this.fail(error, "rolled back a group of transactions by itself")
  }

  readonly wait = (ticket: number): Effect.Effect<void, StoreError> =>
    Effect.async<void, StoreError>((resume) => {
      const waiter = this.listen(ticket, (error) => resume(error === undefined ? Effect.void : Effect.fail(error)))
      if (waiter === undefined) return
      // Interrupted: nothing is answered to it any more.
      return Effect.sync(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
      })
    })

  readonly whenDurable = (ticket: number, done: (error?: StoreError) => void): void => void this.listen(ticket, done)

  /**
   * Answers `done` at once when the ticket is durable already, or can no longer be; otherwise
   * queues it (starting a sync if none runs) and answers the waiter that is queued.
   */
  private listen(ticket: number, done: (error?: StoreError) => void): Waiter | undefined {
    if (ticket <= this.synced) return void done()
    if (this.broken !== undefined && ticket >= this.brokenFrom) return void done(this.broken)
    const waiter: Waiter = { ticket, done }
    this.waiters.push(waiter)
    this.kick()
    return waiter
  }

  readonly waitSync = (ticket: number): void => {
    if (ticket <= this.synced) return
    if (this.broken !== undefined) throw this.broken
    if (this.group?.busy() === true)
      throw new StoreError({ message: "SQLite: a write transaction is in progress; its group cannot be committed yet", retryable: true })
    try {
      this.group?.end()
    } catch (e) {
      throw this.fail(e, "a group of transactions could not be committed")
    }
    const upTo = this.committed
    try {
      this.file.syncNow()
    } catch (e) {
      throw this.fail(e, "the write-ahead log could not be synced to disk")
    }
    this.synced = Math.max(this.synced, upTo)
    settle(this.takeReady())
  }

  /** Commits and syncs what is pending (best effort: the store is closing), then closes the log's descriptor once no sync runs. */
  close(): void {
    try {
      if (this.committed > this.synced) this.waitSync(this.committed)
    } catch {
      // The waiters were answered with the failure; nothing more to do on the way out.
    }
    this.closing = true
    if (!this.syncing) this.file.close()
  }

  /** Starts the next group's commit and sync unless one runs, or nothing waits to be synced. */
  private kick(): void {
    if (!this.syncing && this.broken === undefined && this.committed > this.synced) this.start()
  }

  private start(): void {
    if (this.group?.busy() === true) {
      // Committing now would commit part of the transaction in progress; it kicks when it ends.
      this.deferred = true
      return
    }
    try {
      this.group?.end()
    } catch (e) {
      this.fail(e, "a group of transactions could not be committed")
      return
    }
    // Every ticket up to here is in a committed transaction: this sync makes them durable.
    const upTo = this.committed
    this.inflight = upTo
    this.syncing = true
    this.file.sync((error) => {
      this.syncing = false
      if (error !== null && error !== undefined) {
        this.fail(error, "the write-ahead log could not be synced to disk")
        if (this.closing) this.file.close()
        return
      }
      this.synced = Math.max(this.synced, upTo)
      const ready = this.takeReady()
      // The next group commits and its sync starts before this one's answers are written.
      if (this.closing) this.file.close()
      else this.kick()
      settle(ready)
    })
  }

  /** Takes the waiters whose tickets are durable now out of the queue. */
  private takeReady(): Array<Waiter> {
    const ready: Array<Waiter> = []
    const waiting: Array<Waiter> = []
    for (const w of this.waiters) (w.ticket <= this.synced ? ready : waiting).push(w)
    this.waiters = waiting
    return ready
  }

  private fail(error: unknown, what: string): StoreError {
    const code = (error as { code?: unknown } | null)?.code
    this.broken ??= new StoreError({
      message: `SQLite: ${what} (${typeof code === "string" ? code : String(error)}); restart the server`,
      retryable: false
    })
    // The sync in flight, if any, still releases what it covers; nothing after it can be trusted.
    const from = (this.syncing ? this.inflight : this.synced) + 1
    this.brokenFrom = this.brokenFrom === 0 ? from : Math.min(this.brokenFrom, from)
    const failed: Array<Waiter> = []
    const waiting: Array<Waiter> = []
    for (const w of this.waiters) (w.ticket >= this.brokenFrom ? failed : waiting).push(w)
    this.waiters = waiting
    // The open group's tickets are all above brokenFrom, failed: it goes now, or when the write
    // transaction in progress ends (`transactionEnded`), so the file's lock is not held until restart.
    // Before the failed are answered, so that none of them finds the group still open.
    if (this.group?.busy() !== true) this.group?.discard()
    settle(failed, this.broken)
    return this.broken
  }
}
