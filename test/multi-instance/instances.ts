import { expect } from "vitest"
import { checkedRequester, type Reply, type RequestOptions } from "../support/server.ts"
import { type RunningCli, startCli } from "../cli/run-cli.ts"
import type { Database } from "./databases.ts"

export const CLIENT_ID = "multi-client"
export const CLIENT_SECRET = "multi-secret-0123456789"
const AUTH = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`

/** One `tessera serve` process: the same request helper as an in-process test server. */
export interface Instance {
  readonly name: string
  readonly origin: string
  readonly cli: RunningCli
  /** Sends a request and checks the response against the reference OpenAPI (as `startTestServer` does). */
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
}


export interface InstanceOptions {
  readonly clock?: "real" | "virtual"
  readonly webhookUrl?: string
}

/** Starts one `tessera serve --port 0` on `db`, the request log off, resolving once it listens. */
export const startInstance = async (db: Database, name: string, options: InstanceOptions = {}): Promise<Instance> => {
  const args = ["serve", "--port", "0", "--db", db.url, "--client-id", CLIENT_ID, "--clock", options.clock ?? "real"]
  if (options.webhookUrl !== undefined) args.push("--webhook-url", options.webhookUrl)
  const cli = await startCli(args, { TESSERA_CLIENT_SECRET: CLIENT_SECRET, TESSERA_LOG: "off" })
  const origin = /listening on (http:\/\/[^/\s]+)/.exec(cli.banner)?.[1]
  expect(origin, cli.banner).toBeDefined()
  return { name, origin: origin!, cli, request: checkedRequester(origin!, AUTH) }
}

export interface Cluster {
  readonly instances: ReadonlyArray<Instance>
  /** The instance for the i-th of many requests: round robin, as a load balancer would. */
  readonly pick: (i: number) => Instance
  readonly stop: () => Promise<void>
}

/**
 * `n` server processes on one database. The first starts alone (it creates the schema and the
 * sandbox platform; on a virtual clock it stores the time every later instance takes, #302); the
 * others then start at once.
 */
export const startCluster = async (db: Database, n: number, options: InstanceOptions = {}): Promise<Cluster> => {
  const first = await startInstance(db, "i0", options)
  const instances = [first]
  try {
    instances.push(...(await Promise.all(Array.from({ length: n - 1 }, (_, i) => startInstance(db, `i${i + 1}`, options)))))
  } catch (e) {
    await Promise.all(instances.map((i) => i.cli.stop()))
    throw e
  }
  return {
    instances,
    pick: (i) => instances[i % instances.length]!,
    stop: async () => {
      await Promise.all(instances.map((i) => i.cli.stop()))
      await db.drop()
    }
  }
}
