import type Database from "better-sqlite3"

export const cacheKey = (collection: string, scope: string, id: string): string => `${collection}\u0000${scope}\u0000${id}`

const MAX_ENTRIES = 10_000

/**
 * Records whose JSON is longer than this are not kept: a document's file (up to 10 MB, ~13.4 MB
 * of base64) would otherwise sit in memory up to MAX_ENTRIES times over, and a parse is cheap
 * beside reading that much anyway.
 */
export const MAX_CACHED_JSON_CHARS = 64 * 1024

/**
 * Parsed records by key, so a read by id skips the statement and the JSON parse. Correct across
 * processes: SQLite's `PRAGMA data_version` changes whenever another connection commits, and
 * any change empties the cache. This connection's own writes forget their key before writing,
 * and nothing is cached while a write transaction is open, so a rolled-back write can never be
 * served from here.
 */
export class RecordCache {
  private readonly entries = new Map<string, unknown>()
  private readonly dataVersion: Database.Statement<[], number>
  private seenVersion: number

  /**
   * `busy`: whether what this connection reads now may still be rolled back. By default, while
   * it is in a transaction; with batched group commit (DECISIONS #485), while a write transaction
   * runs: the open group's released writes are committed or the store refuses writes and the
   * cache is cleared.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly busy: () => boolean = () => db.inTransaction
  ) {
    this.dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck()
    this.seenVersion = this.dataVersion.get()!
  }

  get(key: string): unknown {
    if (this.busy()) return undefined
    const version = this.dataVersion.get()!
    if (version !== this.seenVersion) {
      this.entries.clear()
      this.seenVersion = version
      return undefined
    }
    return this.entries.get(key)
  }

  set(key: string, value: unknown): void {
    if (this.busy()) return
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
    this.entries.set(key, value)
  }

  forget(key: string): void {
    this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
