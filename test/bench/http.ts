// GET /customers/{id} and POST /customers over HTTP, `tessera serve` on memory and on a SQLite
// file, beside a bare node:http server answering the same bytes and a raw better-sqlite3 loop
// running the statements the SQLite store runs for the same creations; interleaved rounds.
import Database from "better-sqlite3"
import autocannon from "autocannon"
import { API, AUTH, captureSqliteStatements, customerBody, rawResponse, shape } from "./capture.ts"
import { makeReplay } from "./replay.ts"
import { CLIENTS, compare, interleaved, ROUNDS, SECONDS, SHORT } from "./rounds.ts"
import { buildBare, buildCli, type Running, startBare, startTesseraPair } from "./servers.ts"
import { applyPragmas } from "./statement-log.ts"

/** `seconds` of load from CLIENTS connections (before-after.ts loads its servers the same way). */
export const load = (opts: autocannon.Options, seconds: number) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ connections: CLIENTS, duration: seconds, ...opts }, (err, res) => (err ? reject(err) : resolve(res)))
  )

const getOf = (port: number, id: string): autocannon.Options => ({ url: `http://127.0.0.1:${port}${API}/customers/${id}`, headers: { authorization: AUTH } })
// Every POST carries an email, so each creates what a real call does: the customer, its
// embedded wallet (an internal account) and the wallet's EMAIL_OTP auth method.
export const postOf = (port: number): autocannon.Options => ({
  url: `http://127.0.0.1:${port}${API}/customers`,
  method: "POST",
  headers: { authorization: AUTH, "content-type": "application/json" },
  body: JSON.stringify(customerBody("load@example.com"))
})

/** A raw loop replaying the logged statements of CLIENTS creations, for `seconds`: creations per second. */
const rawLoopRate = (replay: { run: () => void }, perReplay: number, seconds: number) => {
  let n = 0
  const start = performance.now()
  while (performance.now() - start < seconds * 1000) {
    replay.run()
    n += perReplay
  }
  return n / ((performance.now() - start) / 1000)
}

export const httpBench = async () => {
  await Promise.all([buildCli(), buildBare()])
  const captured = await captureSqliteStatements(CLIENTS)
  const servers: Array<Running> = []
  try {
    const { memory, sqlite } = await startTesseraPair(servers)
    // The bytes the baseline answers are Tessera's own, taken from the SQLite target.
    const post = await rawResponse(sqlite.port, "POST", "/customers", customerBody("load@example.com"))
    const id = JSON.parse(post.body).id as string
    const get = await rawResponse(sqlite.port, "GET", `/customers/${id}`)
    const memoryId = JSON.parse((await rawResponse(memory.port, "POST", "/customers", customerBody("load@example.com"))).body).id as string
    const bare = await startBare({ get, post })
    servers.push(bare)
    const bareGet = await rawResponse(bare.port, "GET", `/customers/${id}`)
    const barePost = await rawResponse(bare.port, "POST", "/customers", customerBody("load@example.com"))
    const sameBytes = { get: { tessera: shape(get), bare: shape(bareGet) }, post: { tessera: shape(post), bare: shape(barePost) } }
    for (const [what, s] of Object.entries(sameBytes))
      if (JSON.stringify(s.tessera) !== JSON.stringify(s.bare)) throw new Error(`the bare ${what} does not answer Tessera's bytes: ${JSON.stringify(s)}`)

    const db = new Database(captured.create.file)
    applyPragmas(db, captured.create.pragmas)
    const replay = makeReplay(db, captured.create.plan, `${captured.create.file}-wal`)
    const errors: Record<string, number> = {}
    const targets: Record<string, (seconds: number) => Promise<number>> = {
      "bare GET": async (s) => (await load(getOf(bare.port, id), s)).requests.average,
      "tessera GET memory": async (s) => (await load(getOf(memory.port, memoryId), s)).requests.average,
      "tessera GET sqlite": async (s) => (await load(getOf(sqlite.port, id), s)).requests.average,
      "bare POST": async (s) => (await load(postOf(bare.port), s)).requests.average,
      "tessera POST memory": async (s) => {
        const r = await load(postOf(memory.port), s)
        errors["tessera POST memory"] = (errors["tessera POST memory"] ?? 0) + r.non2xx
        return r.requests.average
      },
      "tessera POST sqlite": async (s) => {
        const r = await load(postOf(sqlite.port), s)
        errors["tessera POST sqlite"] = (errors["tessera POST sqlite"] ?? 0) + r.non2xx
        return r.requests.average
      },
      "raw better-sqlite3 loop": async (s) => rawLoopRate(replay, captured.create.creationsPerReplay, s)
    }
    for (const f of Object.values(targets)) await f(SHORT ? 0.2 : 1) // warm-up, not counted
    const samples = await interleaved(Object.keys(targets), ROUNDS, (name) => targets[name]!(SECONDS))
    replay.close()
    db.close()
    const calls = captured.create.plan.calls
    return {
      clients: CLIENTS,
      rounds: ROUNDS,
      secondsPerMeasurement: SECONDS,
      sameBytes,
      getById: {
        memory: compare(samples, "tessera GET memory", "bare GET"),
        sqlite: compare(samples, "tessera GET sqlite", "bare GET"),
        target: 0.5
      },
      postCustomers: {
        memoryVsBare: compare(samples, "tessera POST memory", "bare POST"),
        sqliteVsBare: compare(samples, "tessera POST sqlite", "bare POST"),
        sqliteVsRawLoop: compare(samples, "tessera POST sqlite", "raw better-sqlite3 loop"),
        non2xx: errors
      },
      rawLoop: {
        pragmas: captured.create.pragmas,
        creationsPerReplay: captured.create.creationsPerReplay,
        statementsPerCreation: calls.filter((c) => c.kind !== "fsync").length / captured.create.creationsPerReplay,
        commitsPerCreation: calls.filter((c) => /^\s*(COMMIT|END)/i.test(c.sql)).length / captured.create.creationsPerReplay,
        explicitFsyncsPerCreation: calls.filter((c) => c.kind === "fsync").length / captured.create.creationsPerReplay
      },
      note: "req/s (creations/s for the raw loop); each target once per round, order rotated; figure = median of rounds, ratio = median of per-round ratios"
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}
