import type Database from "better-sqlite3"

export interface RecordRow {
  readonly seq: number
  readonly data: string
}

type St<P extends Array<unknown> = Array<unknown>, R = unknown> = Database.Statement<P, R>

/** Named in full so the package's declarations can name it (better-sqlite3's own namespace is not exported). */
export interface Statements {
  readonly q: {
    readonly get: St<[number, string], RecordRow>
    readonly insert: St
    readonly update: St
    readonly remove: St
    readonly idAt: St<[number], string>
    readonly indexDelete: St
    readonly holder: St<[number, string, number], number>
    readonly countUp: St
    readonly countDown: St
    readonly counter: St<[number, string], number>
    readonly countKey: St<[number, string], number>
    readonly byKey: St<[number, string], RecordRow>
    readonly pageKey: St<[number, string, number, number], RecordRow>
    readonly pageAll: St<[number, number, number], RecordRow>
    readonly pageKeyDesc: St<[number, string, number, number], RecordRow>
    readonly pageAllDesc: St<[number, number, number], RecordRow>
    readonly clearIndex: St
    readonly clearCounts: St
    readonly clear: St
  }
  /** The multi-row insert of `n` index entries. */
  readonly indexAdd: (n: number) => St
  /** The range statement for the bounds `r` has, and their values in order. */
  readonly rangeStatement: (r: Record<string, string | undefined>) => { readonly st: St<Array<string | number>, RecordRow>; readonly args: Array<string> }
}

/**
 * The SQLite store's statements, prepared once per connection, on migration 4's tables: rows
 * name their collection, scope and index by the number `spaces` gives them (DECISIONS #470).
 */
export const prepareStatements = (db: Database.Database): Statements => {
  const q = {
    get: db.prepare<[number, string], RecordRow>("SELECT seq, data FROM records WHERE space = ? AND id = ?"),
    insert: db.prepare("INSERT INTO records (space, id, data) VALUES (?, ?, ?)"),
    update: db.prepare("UPDATE records SET data = ? WHERE seq = ?"),
    remove: db.prepare("DELETE FROM records WHERE seq = ?"),
    idAt: db.prepare<[number], string>("SELECT id FROM records WHERE seq = ?").pluck(),
    indexDelete: db.prepare("DELETE FROM record_index WHERE ix = ? AND key = ? AND seq = ?"),
    holder: db.prepare<[number, string, number], number>("SELECT seq FROM record_index WHERE ix = ? AND key = ? AND seq <> ? LIMIT 1").pluck(),
    countUp: db.prepare("INSERT INTO record_counts (ix, key, n) VALUES (?, ?, 1) ON CONFLICT (ix, key) DO UPDATE SET n = n + 1"),
    countDown: db.prepare("UPDATE record_counts SET n = n - 1 WHERE ix = ? AND key = ?"),
    counter: db.prepare<[number, string], number>("SELECT n FROM record_counts WHERE ix = ? AND key = ?").pluck(),
    countKey: db.prepare<[number, string], number>("SELECT count(*) FROM record_index WHERE ix = ? AND key = ?").pluck(),
    // CROSS JOIN pins the join order: index entries first (already in seq order under one
    // key), then each record by its rowid.
    byKey: db.prepare<[number, string], RecordRow>(
      "SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq WHERE i.ix = ? AND i.key = ? ORDER BY i.seq"
    ),
    pageKey: db.prepare<[number, string, number, number], RecordRow>(
      `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
       WHERE i.ix = ? AND i.key = ? AND i.seq > ? ORDER BY i.seq LIMIT ?`
    ),
    pageAll: db.prepare<[number, number, number], RecordRow>("SELECT seq, data FROM records WHERE space = ? AND seq > ? ORDER BY seq LIMIT ?"),
    pageKeyDesc: db.prepare<[number, string, number, number], RecordRow>(
      `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
       WHERE i.ix = ? AND i.key = ? AND i.seq < ? ORDER BY i.seq DESC LIMIT ?`
    ),
    pageAllDesc: db.prepare<[number, number, number], RecordRow>("SELECT seq, data FROM records WHERE space = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
    clearIndex: db.prepare("DELETE FROM record_index WHERE ix IN (SELECT space FROM spaces WHERE collection = ? AND scope = ?)"),
    clearCounts: db.prepare("DELETE FROM record_counts WHERE ix IN (SELECT space FROM spaces WHERE collection = ? AND scope = ?)"),
    clear: db.prepare("DELETE FROM records WHERE space = ?")
  }
  // Multi-row inserts of index entries, by row count, prepared on first use.
  const indexAdds = new Map<number, Database.Statement>()
  const indexAdd = (n: number) => {
    let st = indexAdds.get(n)
    if (st === undefined) {
      st = db.prepare(`INSERT OR IGNORE INTO record_index (ix, key, seq) VALUES ${Array(n).fill("(?, ?, ?)").join(", ")}`)
      indexAdds.set(n, st)
    }
    return st
  }
  // Range statements by which bounds they have (at most 16), prepared on first use.
  const ranges = new Map<string, Database.Statement<Array<string | number>, RecordRow>>()
  const rangeStatement = (r: Record<string, string | undefined>) => {
    const ops = (["gt", "gte", "lt", "lte"] as const).filter((op) => r[op] !== undefined)
    const sig = ops.join(",")
    let st = ranges.get(sig)
    if (st === undefined) {
      const sql = { gt: ">", gte: ">=", lt: "<", lte: "<=" }
      st = db.prepare<Array<string | number>, RecordRow>(
        `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
         WHERE i.ix = ?${ops.map((op) => ` AND i.key ${sql[op]} ?`).join("")}`
      )
      ranges.set(sig, st)
    }
    return { st, args: ops.map((op) => r[op]!) }
  }
  return { q, indexAdd, rangeStatement }
}
