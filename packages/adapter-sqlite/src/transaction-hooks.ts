import type Database from "better-sqlite3"
import type { TransactionHooks } from "@tessera/core/store-kit"
import type { Spaces } from "./spaces.ts"

/** Runs a driver call, turning what it throws into the store's errors. */
export type Guard = <X>(f: () => X) => () => X

/** A transaction's SQLite statements, without the store's bookkeeping around them. */
export interface RawHooks {
  readonly begin: () => void
  readonly commit: () => void
  readonly rollback: () => void
  readonly committed?: TransactionHooks["committed"]
}

/** One SQLite transaction per write transaction, each committed on its own (group commit off). */
export const plainHooks = (db: Database.Database): RawHooks => {
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  return {
    begin: () => void begin.run(),
    commit: () => void commit.run(),
    rollback: () => {
      if (db.inTransaction) rollback.run()
    }
  }
}

/**
 * The store's bookkeeping around either kind of transaction: `wrote` reset at the start, and
 * the scope numbers the transaction assigned freed when it rolls back or handed on when it
 * commits (`kept`: to everyone when it committed on its own; to the group when it was a savepoint
 * of the group's transaction, #480, #486), every driver failure a StoreError.
 */
export const bookkept = (raw: RawHooks, guard: Guard, spaces: Spaces, reset: () => void, kept: () => void): TransactionHooks => ({
  begin: guard(() => {
    reset()
    spaces.rolledBack()
    raw.begin()
  }),
  commit: guard(() => {
    raw.commit()
    kept()
  }),
  rollback: guard(() => {
    spaces.rolledBack()
    raw.rollback()
  }),
  ...(raw.committed === undefined ? {} : { committed: raw.committed })
})
