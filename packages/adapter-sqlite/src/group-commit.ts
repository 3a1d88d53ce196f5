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
  readonly resume: (effect: Effect.Effect<void, StoreError>) => void
}

/**
 * Group commit (DECISIONS #310): each write transaction commits on its own with
 * synchronous=NORMAL (atomic and ordered in the log, not yet synced) and takes a ticket; whoever
 * must answer waits for a sync that started after its commit. One sync runs at a time and
 * releases every commit made before it started; commits made while it runs wait for the next,
 * which starts as soon as it ends. So under load one fsync serves every request that committed
 * during the previous one.
 *
 * A failed sync breaks the store until restart (#314): Linux may drop the pages it could not
 * write and report success to the next fsync, so no later commit could be trusted to be on disk.
 */
export class GroupCommit implements DurabilityBarrier {
  private committed = 0
  private synced = 0
  private syncing = false
  private closing = false
  private broken: StoreError | undefined
  private waiters: Array<Waiter> = []

  constructor(private readonly file: WalSync) {}

  /** Numbers a commit that wrote something: what its request waits for before it is answered. */
  commit(): PendingCommit {
    return { barrier: this, ticket: ++this.committed }
  }

  /** Throws once a sync failed: a write begun now could never be acknowledged. */
  checkWritable(): void {
    if (this.broken !== undefined) throw this.broken
  }

  readonly wait = (ticket: number): Effect.Effect<void, StoreError> =>
    Effect.suspend(() => {
      if (this.broken !== undefined) return Effect.fail(this.broken)
      if (ticket <= this.synced) return Effect.void
      return Effect.async<void, StoreError>((resume) => {
        const waiter: Waiter = { ticket, resume }
        this.waiters.push(waiter)
        if (!this.syncing) this.start()
        return Effect.sync(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter)
        })
      })
    })

  readonly waitSync = (ticket: number): void => {
    if (this.broken !== undefined) throw this.broken
    if (ticket <= this.synced) return
    const upTo = this.committed
    try {
      this.file.syncNow()
    } catch (e) {
      throw this.fail(e)
    }
    this.synced = Math.max(this.synced, upTo)
    this.release()
  }

  /** Closes the log's descriptor once no sync is running (the store is closing). */
  close(): void {
    this.closing = true
    if (!this.syncing) this.file.close()
  }

  private start(): void {
    this.syncing = true
    const upTo = this.committed
    this.file.sync((error) => {
      this.syncing = false
      if (error !== null && error !== undefined) this.fail(error)
      else {
        this.synced = Math.max(this.synced, upTo)
        this.release()
      }
      if (this.waiters.length > 0) this.start()
      else if (this.closing) this.file.close()
    })
  }

  private release(): void {
    const waiting: Array<Waiter> = []
    for (const w of this.waiters) {
      if (w.ticket <= this.synced) w.resume(Effect.void)
      else waiting.push(w)
    }
    this.waiters = waiting
  }

  private fail(error: unknown): StoreError {
    const code = (error as { code?: unknown } | null)?.code
    this.broken ??= new StoreError({
      message: `SQLite: the write-ahead log could not be synced to disk (${typeof code === "string" ? code : String(error)}); restart the server`,
      retryable: false
    })
    const failed = Effect.fail(this.broken)
    for (const w of this.waiters) w.resume(failed)
    this.waiters = []
    return this.broken
  }
}
