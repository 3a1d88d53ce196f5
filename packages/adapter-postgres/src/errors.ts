import { StoreError } from "@tessera/core"

/**
 * SQLSTATEs that say "run the same transaction again": a serialization failure or a deadlock
 * (the other transaction won), a lock not granted, and a unique key taken by a concurrent
 * transaction between our check and our insert (the next run sees the holder and answers
 * `UniqueViolation` the usual way). A statement after one of them fails with 25P02 ("current
 * transaction is aborted"); the transaction's first error decides.
 */
const RETRYABLE = new Set(["40001", "40P01", "55P03", "23505"])

/** Connection and server failures: the database is not answering, which a client sees as a 503. */
const UNAVAILABLE = /^(08|53|57|58|XX)/

/** The store errors that are a lost race with another transaction, not a failure of the program's. */
const conflicts = new WeakSet<StoreError>()

export const isConflict = (e: unknown): boolean => e instanceof StoreError && conflicts.has(e)

/** The SQLSTATE of an error the server sent (pg's DatabaseError carries a severity with it). */
export const sqlStateOf = (e: unknown): string | undefined => {
  const x = e as { code?: unknown; severity?: unknown } | null
  return typeof x?.code === "string" && typeof x.severity === "string" ? x.code : undefined
}

export const isRetryableSqlState = (e: unknown): boolean => {
  const code = sqlStateOf(e)
  return code !== undefined && RETRYABLE.has(code)
}

/**
 * A driver failure as the port's typed error. Anything with a SQLSTATE or a socket error code is
 * the database's state, not the program's, so it is a `StoreError`; what has neither (a bug in
 * this adapter) stays a defect.
 */
export const storeErrorOf = (e: unknown): unknown => {
  if (e instanceof StoreError) return e
  const code = sqlStateOf(e)
  if (code === undefined) {
    const message = e instanceof Error ? e.message : String(e)
    // A socket error (ENOENT, ECONNREFUSED, EPIPE…): no server answered.
    const sys = (e as { syscall?: unknown; code?: unknown } | null)
    if (typeof sys?.syscall === "string") return new StoreError({ message: `PostgreSQL: ${String(sys.code)} on ${sys.syscall}`, retryable: false })
    // pg reports a lost or refused connection as a plain Error (ECONNREFUSED, "Connection terminated").
    if (/ECONN|ENOENT|EPIPE|ETIMEDOUT|Connection terminated|connection timeout|Client has encountered a connection error|pool/i.test(message))
      return new StoreError({ message: `PostgreSQL: ${message}`, retryable: false })
    return e
  }
  if (RETRYABLE.has(code)) {
    const err = new StoreError({ message: `PostgreSQL: SQLSTATE ${code}`, retryable: true })
    conflicts.add(err)
    return err
  }
  if (UNAVAILABLE.test(code)) return new StoreError({ message: `PostgreSQL: SQLSTATE ${code}`, retryable: false })
  return e
}
