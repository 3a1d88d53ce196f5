// Signed-retry flows over HTTP (PATCH /internal-accounts/{id}: 202 with the payload to sign, then
// the stamped retry: 200), `tessera serve` on memory and on a SQLite file, each beside a bare
// node:http server doing the same two legs with node:crypto: state in a Map for the memory row,
// the SQLite store's own statements for the same two legs (replayed) for the SQLite row.
import { stamp } from "@tessera/core/testing"
import type { BareConfig } from "./capture.ts"
import { captureSqliteStatements, rawResponse, shape } from "./capture.ts"
import { jsonClient, loggedInWallet } from "./http-client.ts"
import { CLIENTS, compare, interleaved, ROUNDS, SECONDS, SHORT } from "./rounds.ts"
import { buildBare, buildCli, type Running, startBare, startTesseraPair } from "./servers.ts"

type Wallet = Awaited<ReturnType<typeof loggedInWallet>>

/** CLIENTS clients, each with its own wallet and session, each running flows back to back: flows/s. */
const flowRate = async (port: number, wallets: ReadonlyArray<Wallet>, seconds: number, failures: { n: number }) => {
  const { call, close } = jsonClient(port, wallets.length)
  try {
    let flows = 0
    const end = performance.now() + seconds * 1000
    const start = performance.now()
    await Promise.all(
      wallets.map(async ({ account, tek }) => {
        for (let k = 0; performance.now() < end; k++) {
          const patch = { privateEnabled: k % 2 === 0 }
          const leg1 = await call("PATCH", `/internal-accounts/${account}`, patch)
          const leg2 = await call("PATCH", `/internal-accounts/${account}`, patch, { "service-wallet-signature": stamp(tek, leg1.body.payloadToSign), "request-id": leg1.body.requestId })
          if (leg1.status === 202 && leg2.status === 200) flows++
          else failures.n++
        }
      })
    )
    return flows / ((performance.now() - start) / 1000)
  } finally {
    close()
  }
}

const wallets = async (port: number, tag: string) => {
  const { call, close } = jsonClient(port, CLIENTS)
  try {
    return await Promise.all(Array.from({ length: CLIENTS }, (_, i) => loggedInWallet(call, `flow-${tag}-${i}@example.com`)))
  } finally {
    close()
  }
}

/** One flow's two answers exactly as Tessera sent them, and the payload it asked to sign. */
const captureLegs = async (port: number, w: Wallet) => {
  const path = `/internal-accounts/${w.account}`
  const leg1 = await rawResponse(port, "PATCH", path, { privateEnabled: true })
  const body = JSON.parse(leg1.body) as { payloadToSign: string; requestId: string }
  const leg2 = await rawResponse(port, "PATCH", path, { privateEnabled: true }, { "service-wallet-signature": stamp(w.tek, body.payloadToSign), "request-id": body.requestId })
  if (leg1.status !== 202 || leg2.status !== 200) throw new Error(`flow capture failed: ${leg1.status} ${leg2.status}`)
  return { leg1, leg2, payloadToSign: body.payloadToSign, requestId: body.requestId }
}

export const flowsBench = async () => {
  await Promise.all([buildCli(), buildBare()])
  const captured = await captureSqliteStatements(CLIENTS)
  const servers: Array<Running> = []
  try {
    const { memory, sqlite } = await startTesseraPair(servers)
    const memoryWallets = await wallets(memory.port, "m")
    const sqliteWallets = await wallets(sqlite.port, "s")
    const legs = await captureLegs(sqlite.port, sqliteWallets[0]!)
    const config = (withSqlite: boolean): BareConfig => ({ get: legs.leg2, post: legs.leg2, flow: { ...legs, ...(withSqlite ? { sqlite: captured.flow } : {}) } })
    const bareMemory = await startBare(config(false))
    servers.push(bareMemory)
    const bareSqlite = await startBare(config(true))
    servers.push(bareSqlite)
    // The bare servers check stamps with the key in the stamp: the memory wallets' keys serve them.
    const bareCheck = await captureLegs(bareSqlite.port, memoryWallets[0]!)
    const sameBytes = { leg1: { tessera: shape(legs.leg1), bare: shape(bareCheck.leg1) }, leg2: { tessera: shape(legs.leg2), bare: shape(bareCheck.leg2) } }
    for (const [what, s] of Object.entries(sameBytes))
      if (JSON.stringify(s.tessera) !== JSON.stringify(s.bare)) throw new Error(`the bare ${what} does not answer Tessera's bytes: ${JSON.stringify(s)}`)

    const failures = { n: 0 }
    const targets: Record<string, (s: number) => Promise<number>> = {
      "tessera memory": (s) => flowRate(memory.port, memoryWallets, s, failures),
      "bare memory": (s) => flowRate(bareMemory.port, memoryWallets, s, failures),
      "tessera sqlite": (s) => flowRate(sqlite.port, sqliteWallets, s, failures),
      "bare sqlite": (s) => flowRate(bareSqlite.port, memoryWallets, s, failures)
    }
    for (const f of Object.values(targets)) await f(SHORT ? 0.2 : 1) // warm-up, not counted
    const samples = await interleaved(Object.keys(targets), ROUNDS, (name) => targets[name]!(SECONDS))
    const calls = captured.flow.plan.calls
    return {
      clients: CLIENTS,
      rounds: ROUNDS,
      secondsPerMeasurement: SECONDS,
      sameBytes,
      memory: compare(samples, "tessera memory", "bare memory"),
      sqlite: compare(samples, "tessera sqlite", "bare sqlite"),
      failures: failures.n,
      target: { sqliteFlowsPerSec: 1000 },
      bareSqliteStatements: { leg1: captured.flow.leg1Calls, leg2: calls.length - captured.flow.leg1Calls, pragmas: captured.flow.pragmas },
      note: "flows/s; one flow = 202 + stamped 200 (two requests, one P-256 verify); each client its own wallet; stamps made in the client process for every target"
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}
