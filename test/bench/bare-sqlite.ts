// The SQLite variant of the bare server's signed flow: the statements the SQLite store ran for
// one logged flow (first leg, then the stamped retry), replayed on a copy of its database opened
// with the store's pragmas, each flow with fresh ids (replay.ts).
import Database from "better-sqlite3"
import type { SqliteFlow } from "./bare-config.ts"
import { makeReplay } from "./replay.ts"
import { applyPragmas } from "./statement-log.ts"

export const openReplay = (f: SqliteFlow) => {
  const db = new Database(f.file)
  applyPragmas(db, f.pragmas)
  const replay = makeReplay(db, f.plan, `${f.file}-wal`)
  type Context = ReturnType<typeof replay.begin>
  return {
    begin: () => replay.begin(),
    requestUuid: (c: unknown) => replay.freshOf(c as Context, f.requestUuid),
    leg1: (c: unknown) => replay.runRange(c as Context, 0, f.leg1Calls),
    leg2: (c: unknown) => replay.runRange(c as Context, f.leg1Calls)
  }
}
