import type Database from "better-sqlite3"

/**
 * Numbers for (collection, scope, index name) triples, the `spaces` table of migration 4
 * (DECISIONS #470): a record row carries its collection and scope's number (index name ''), an
 * index row or counter its index's number, instead of repeating ~80 characters of names in
 * every row of the B-trees a creation writes.
 *
 * A number, once committed, names its triple forever (no statement deletes a space), so every
 * process may keep the ones it has seen. One this connection assigns inside a write transaction
 * is only kept once that transaction commits: a rolled-back insert frees its number, which
 * another process may then assign to another triple.
 */
type Assigned = readonly [collection: string, scope: string, name: string, space: number]

export class Spaces {
  /**
   * Collection → scope → index name → number. Nested rather than keyed by the joined names: a
   * creation looks up about twenty numbers, and joining the names for each cost ~2% of a SQLite
   * write request's time (DECISIONS #528).
   */
  private readonly known = new Map<string, Map<string, Map<string, number>>>()
  private readonly pending = new Map<string, Assigned>()
  /** Assigned by released savepoints of the open group's outer transaction, not yet committed. */
  private readonly released = new Map<string, Assigned>()
  private readonly find: Database.Statement<[string, string, string], number>
  private readonly insert: Database.Statement<[string, string, string]>

  constructor(private readonly db: Database.Database) {
    this.find = db.prepare<[string, string, string], number>("SELECT space FROM spaces WHERE collection = ? AND scope = ? AND name = ?").pluck()
    this.insert = db.prepare<[string, string, string]>("INSERT INTO spaces (collection, scope, name) VALUES (?, ?, ?)")
  }

  /** The triple's number, or `undefined` when nothing was ever written under it: a read never creates one. */
  of(collection: string, scope: string, name: string): number | undefined {
    const hit = this.known.get(collection)?.get(scope)?.get(name)
    if (hit !== undefined) return hit
    // SQLite rolls a transaction back by itself on some failures (SQLITE_FULL, IOERR): once no
    // transaction is open, nothing this connection assigned in it exists any more.
    if ((this.pending.size > 0 || this.released.size > 0) && !this.db.inTransaction) this.lost()
    const triple = `${collection}\u0000${scope}\u0000${name}`
    const mine = this.pending.get(triple) ?? this.released.get(triple)
    if (mine !== undefined) return mine[3]
    const found = this.find.get(collection, scope, name)
    // Any row found that this connection did not insert is committed: safe to keep.
    if (found !== undefined) this.keep(collection, scope, name, found)
    return found
  }

  /** The triple's number, assigned now if it has none (only inside a write transaction). */
  ensure(collection: string, scope: string, name: string): number {
    const existing = this.of(collection, scope, name)
    if (existing !== undefined) return existing
    const space = Number(this.insert.run(collection, scope, name).lastInsertRowid)
    this.pending.set(`${collection}\u0000${scope}\u0000${name}`, [collection, scope, name, space])
    return space
  }

  /**
   * The transaction that assigned the pending numbers committed: they are now everyone's. With
   * batched group commit (DECISIONS #480) that is the group's outer transaction, so numbers of
   * released savepoints wait for it (`released`).
   */
  committed(): void {
    for (const [collection, scope, name, space] of this.pending.values()) this.keep(collection, scope, name, space)
    for (const [collection, scope, name, space] of this.released.values()) this.keep(collection, scope, name, space)
    this.pending.clear()
    this.released.clear()
  }
  /** A write transaction (or savepoint) rolled back: the numbers it assigned are free again. */
  rolledBack(): void {
    this.pending.clear()
  }
  /** A write transaction's savepoint was released into the group's open outer transaction. */
  releasedIntoGroup(): void {
    for (const [k, v] of this.pending) this.released.set(k, v)
    this.pending.clear()
  }
  /** The group's outer transaction is gone without committing: every number it assigned is free. */
  lost(): void {
    this.pending.clear()
    this.released.clear()
  }
  private keep(collection: string, scope: string, name: string, space: number): void {
    let scopes = this.known.get(collection)
    if (scopes === undefined) this.known.set(collection, (scopes = new Map()))
    let names = scopes.get(scope)
    if (names === undefined) scopes.set(scope, (names = new Map()))
    names.set(name, space)
  }
}
