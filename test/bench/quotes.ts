import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { type Engine, endpointPrograms, isReply, makeEngine, type PlatformRecord, Quotes, Store, Transactions } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { serve } from "@tessera/adapter-http"
import { jsonClient } from "./http-client.ts"
import { SHORT } from "./rounds.ts"

const tmp = () => mkdtempSync(join(tmpdir(), "tessera-bench-quotes-"))
const N = Number(process.env["BENCH_QUOTES"] ?? (SHORT ? 50 : 2_000))

const layerOf = (store: "memory" | "sqlite") => (store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(tmp(), "q.sqlite") }))

/** A platform with a funded USD account and a bank account whose suffix succeeds at once. */
const world = async (engine: Engine, clientId: string) => {
  const platform = await engine.platform({ clientId, clientSecret: "bench-secret" })
  const api = engine.as(platform)
  const accounts = (await api.platform.listInternalAccounts()) as { data: ReadonlyArray<{ id: string }> }
  const source = accounts.data[0]!.id
  await api.sandbox.fundInternalAccount(source, { amount: 100_000_000_000 })
  const created = (await api.platform.createExternalAccount({
    currency: "USD",
    accountInfo: { accountType: "USD_ACCOUNT", accountNumber: "555000010", routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Bench" } }
  } as never)) as unknown
  const dest = (isReply(created) ? created.body : created) as { id: string }
  return { platform, source, dest: dest.id }
}

const quoteBody = (source: string, dest: string) => ({
  source: { sourceType: "ACCOUNT" as const, accountId: source },
  destination: { destinationType: "ACCOUNT" as const, accountId: dest },
  lockedCurrencySide: "SENDING" as const,
  lockedCurrencyAmount: 1_000
})

const perSec = (n: number, ms: number) => Math.round(n / (ms / 1000))

/** Quote + execute to settlement (suffix "other" settles in the request), through the endpoints' programs. */
const inProcess = async (store: "memory" | "sqlite") => {
  const engine = makeEngine({ store: layerOf(store) })
  const { platform, source, dest } = await world(engine, `b-${store}`)
  // The synchronous path, as the other in-process figures: the endpoints' programs on runSync.
  const programs = endpointPrograms(platform)
  const once = async () => {
    const q = engine.runSync(programs.quotes.create(quoteBody(source, dest))) as { body: { id: string } }
    const x = engine.runSync(programs.quotes.execute(q.body.id)) as { body: { status: string } }
    if (x.body.status !== "COMPLETED") throw new Error(`not settled: ${x.body.status}`)
  }
  for (let i = 0; i < Math.min(N, 100); i++) await once()
  const start = performance.now()
  for (let i = 0; i < N; i++) await once()
  const ms = performance.now() - start
  const baseline = await bareWrites(store, platform)
  await engine.dispose()
  return { quotesExecutedPerSec: perSec(N, ms), bareStoreTransactionsPerSec: baseline, ratio: Math.round((perSec(N, ms) / baseline) * 1000) / 1000 }
}

/**
 * Baseline: the same number of Store transactions, each writing what one settled quote leaves
 * (the quote and its transaction records), and nothing else: no decoding, pricing, ledger or events.
 */
const bareWrites = async (store: "memory" | "sqlite", platform: PlatformRecord) => {
  const engine = makeEngine({ store: layerOf(store) })
  const write = (i: number) =>
    Effect.flatMap(Store, (s) =>
      s.transaction(
        Effect.zipRight(
          s.put(Quotes, platform.id, { id: `Quote:${i}`, status: "PROCESSING", transactionId: `Transaction:${i}` } as never),
          s.put(Transactions, platform.id, { id: `Transaction:${i}`, status: "COMPLETED", senderIdentifiers: [], receiverIdentifiers: [] } as never)
        )
      )
    )
  const start = performance.now()
  for (let i = 0; i < N; i++) engine.runSync(write(i))
  const ms = performance.now() - start
  await engine.dispose()
  return perSec(N, ms)
}

/** The same over HTTP (server and client in this process, one keep-alive connection, sequential). */
const overHttp = async (store: "memory" | "sqlite") => {
  const engine = makeEngine({ store: layerOf(store) })
  const { source, dest } = await world(engine, "bench")
  const server = await serve({ engine, port: 0 })
  const client = jsonClient(server.port, 1)
  const once = async () => {
    const q = await client.call("POST", "/quotes", quoteBody(source, dest))
    const x = await client.call("POST", `/quotes/${q.body.id}/execute`)
    if (x.body?.status !== "COMPLETED") throw new Error(`not settled: ${JSON.stringify(x.body)}`)
  }
  for (let i = 0; i < Math.min(N, 100); i++) await once()
  const start = performance.now()
  for (let i = 0; i < N; i++) await once()
  const ms = performance.now() - start
  client.close()
  await server.close()
  await engine.dispose()
  return { quotesExecutedPerSec: perSec(N, ms) }
}

export const quotesBench = async () => {
  const out: Record<string, unknown> = { what: "POST /quotes + POST /quotes/{id}/execute to COMPLETED, sequential", quotes: N }
  for (const store of ["memory", "sqlite"] as const) out[store] = { inProcess: await inProcess(store), http: await overHttp(store) }
  return out
}
