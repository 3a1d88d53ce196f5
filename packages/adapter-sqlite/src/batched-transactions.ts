import type Database from "better-sqlite3"
import { StoreError } from "@tessera/core"
import type { PendingCommit, TransactionHooks } from "@tessera/core/store-kit"
import type { GroupCommit, OpenGroup } from "./group-commit.ts"

/**
 * Write transactions batched into one SQLite transaction per group (DECISIONS #480): the first
 * write transaction of a group runs `BEGIN IMMEDIATE`, each one runs as `SAVEPOINT` … `RELEASE`
 * (`ROLLBACK TO` on failure, so a failed request undoes only its own writes), and the group's
 * outer transaction commits when its sync starts (`GroupCommit.start`, through `end`). So the
 * pages every creation rewrites (index leaves, counters, the records table's last page) reach
 * the log once per group instead of once per request.
 */
export class BatchedTransactions implements OpenGroup {
  /** Whether our outer transaction is open. */
  private open = false
  /** Whether a write transaction (our savepoint) is in progress. */
  private inWrite = false
  /** The newest ticket when the outer transaction began: tickets above it are in it. */
  private base = 0
  private ticket: PendingCommit | undefined
  private lostListeners: Array<() => void> = []
  private committedListeners: Array<() => void> = []
  private readonly st: Record<"begin" | "commit" | "rollback" | "savepoint" | "release" | "rollbackTo", Database.Statement>

  constructor(
    private readonly db: Database.Database,
    private readonly group: GroupCommit
  ) {
    this.st = {
      begin: db.prepare("BEGIN IMMEDIATE"),
      commit: db.prepare("COMMIT"),
      rollback: db.prepare("ROLLBACK"),
      savepoint: db.prepare("SAVEPOINT write"),
      release: db.prepare("RELEASE write"),
      rollbackTo: db.prepare("ROLLBACK TO write")
    }
    group.attach(this)
  }

  readonly busy = (): boolean => this.inWrite

  /** Called when the open group's writes are gone (rolled back): caches of what was read go too. */
  onLost(f: () => void): void {
    this.lostListeners.push(f)
  }

  /** Called when the open group's outer transaction has committed. */
  onCommitted(f: () => void): void {
    this.committedListeners.push(f)
  }

  private lose(): void {
    for (const f of this.lostListeners) f()
  }

  readonly end = (): void => {
    if (!this.open) return
    this.open = false
    if (!this.db.inTransaction) {
      this.lose()
      throw new StoreError({ message: "SQLite: the group's transaction was rolled back", retryable: false })
    }
    try {
      this.st.commit.run()
      for (const f of this.committedListeners) f()
    } catch (e) {
      this.lose()
      // A failed COMMIT may leave the transaction open (a deferred constraint, SQLITE_BUSY): the
      // group is failed either way, so its writes go.
      if (this.db.inTransaction) this.st.rollback.run()
      throw e
    }
  }

  readonly discard = (): void => {
    if (!this.open) return
    this.open = false
    this.lose()
    if (this.db.inTransaction) this.st.rollback.run()
  }

  /**
   * After any failed statement: SQLite may have rolled the whole outer transaction back by itself
   * (SQLITE_FULL, IOERR, NOMEM…), taking with it the writes of requests already waiting for the
   * group's sync. Those are lost (#482).
   */
  checkLost(error: unknown): void {
    if (!this.open || this.db.inTransaction) return
    this.open = false
    this.lose()
    if (this.group.newest > this.base) this.group.lost(error)
  }

  /**
   * What a store call running now depends on (#481): the newest ticket, while the open outer
   * transaction holds other requests' writes that are neither committed nor synced.
   */
  pending(): PendingCommit | undefined {
    return this.open && this.group.newest > this.base ? { barrier: this.group, ticket: this.group.newest } : undefined
  }

  /** The transaction hooks; `wrote` says whether the transaction in progress wrote anything. */
  hooks(wrote: () => boolean): TransactionHooks {
    return {
      begin: () => {
        this.group.checkWritable()
        if (!this.open) {
          this.st.begin.run()
          this.open = true
          this.base = this.group.newest
        }
        try {
          this.st.savepoint.run()
        } catch (e) {
          this.endIfEmpty()
          throw e
        }
        this.inWrite = true
      },
      commit: () => {
        this.st.release.run()
        this.inWrite = false
        if (wrote()) this.ticket = this.group.commit()
        else this.endIfEmpty()
      },
      rollback: () => {
        this.inWrite = false
        if (this.open && this.db.inTransaction) {
          this.st.rollbackTo.run()
          this.st.release.run()
          this.endIfEmpty()
        } else this.checkLost(new StoreError({ message: "SQLite: the group's transaction was rolled back", retryable: false }))
        this.group.transactionEnded()
      },
      committed: () => {
        const t = this.ticket
        this.ticket = undefined
        this.group.transactionEnded()
        return t
      }
    }
  }

  /** Ends the outer transaction when it holds no other request's writes: nothing stays locked idle. */
  private endIfEmpty(): void {
    if (!this.open || this.group.newest !== this.base) return
    this.open = false
    if (this.db.inTransaction) this.st.rollback.run()
  }
}
