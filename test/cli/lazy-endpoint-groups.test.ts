// The CLI bundle's endpoint table holds stand-ins that load each group at its first use
// (scripts/lazy-endpoint-groups.mjs, DECISIONS #499). They must carry exactly the source table's
// data, serve exactly what the sources serve, and keep every group out of the start.
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"
import { endpoints } from "@tessera/core"
import { routes } from "@tessera/adapter-http"
import { openApiDocument } from "@tessera/adapter-http/openapi"
import { endpointManifest } from "../../scripts/lazy-endpoint-groups.mjs"
import { repoRoot } from "../support/paths.ts"
import { checkedRequester } from "../support/server.ts"
import { loginWithOtp, newWallet, retry } from "../support/wallet.ts"
import { runCli, startCli, tempDir } from "./run-cli.ts"

const V = "/2025-10-13"
const endpointsDir = join(repoRoot, "packages", "core", "src", "endpoints")

describe("the CLI bundle's endpoint table, loaded group by group", () => {
  it("is made from the source table: each endpoint's data, whether it has a query and a body, and where it is declared", async () => {
    const manifest = await endpointManifest(build, repoRoot)
    expect(manifest).toHaveLength(endpoints.length)
    for (const [i, e] of endpoints.entries()) {
      const { run: _run, query, body, ...data } = e as typeof e & { query?: unknown; body?: unknown }
      const entry = manifest[i]!
      expect(entry.data).toEqual(data)
      expect([e.operationId, entry.query, entry.body]).toEqual([e.operationId, query !== undefined, body !== undefined])
      const [file, name, index] = entry.declared
      const declaring = (await import(pathToFileURL(join(endpointsDir, file)).href)) as Record<string, ReadonlyArray<unknown>>
      expect(declaring[name]![index], e.operationId).toBe(e)
    }
  }, 60_000)

  it("serves the same OpenAPI document as the sources: every path, flag and request schema", async () => {
    const cli = await startCli(["serve", "--port", "0", "--db", ":memory:"])
    try {
      const origin = /listening on (http:\/\/[^/\s]+)/.exec(cli.banner)![1]!
      const served = await (await fetch(`${origin}/openapi.json`)).json()
      expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument(routes, V))))
    } finally {
      await cli.stop()
    }
  }, 60_000)

  it("a start evaluates no group's endpoints; a group's first request evaluates that group, the served document those whose request schemas it publishes", async () => {
    await runCli(["build"]) // the dev bundle, current
    const dir = tempDir()
    mkdirSync(join(dir, "dist"))
    // The bundle reads its version from the package.json beside its folder.
    writeFileSync(join(dir, "package.json"), JSON.stringify({ version: "0.0.0-probe" }))
    // esbuild's lazy module initialiser, recording each module it evaluates; SIGUSR2 writes the list
    // (aside, then renamed: the test never reads it half-written).
    const helper = "var __esm = (fn, res, err) => function __init() {\n"
    const text = readFileSync(join(repoRoot, "packages", "cli", "dev", "tessera.cjs"), "latin1")
    expect(text).toContain(helper)
    const evaluated = join(dir, "evaluated.json")
    const probe = text
      .replace(helper, `${helper}  if (fn) (globalThis.__evaluated ??= []).push(__getOwnPropNames(fn)[0]);\n`)
      // The banner's place in the list: what was evaluated before it is what a start evaluates.
      .replace("var __tesseraBundleUrl", `{ const write = process.stdout.write.bind(process.stdout); process.stdout.write = (c, ...a) => { if (String(c).includes("listening on")) (globalThis.__evaluated ??= []).push("<banner>"); return write(c, ...a) } }\nvar __tesseraBundleUrl`)
      .replace("var __tesseraBundleUrl", `process.on("SIGUSR2", () => { const fs = require("node:fs"); fs.writeFileSync(${JSON.stringify(`${evaluated}.tmp`)}, JSON.stringify(globalThis.__evaluated ?? [])); fs.renameSync(${JSON.stringify(`${evaluated}.tmp`)}, ${JSON.stringify(evaluated)}) });\nvar __tesseraBundleUrl`)
    writeFileSync(join(dir, "dist", "tessera.cjs"), probe)
    // The libraries no start runs, in the file beside the bundle that it names (DECISIONS #517).
    const side = /tessera-libs-[0-9a-f]+\.cjs/.exec(text)![0]
    copyFileSync(join(repoRoot, "packages", "cli", "dev", side), join(dir, "dist", side))

    const groupFiles = [...new Set((readFileSync(join(endpointsDir, "table.ts"), "utf8").match(/from "\.\/[^"]+"/g) ?? []).map((s) => s.slice(6, -1)))]
    expect(groupFiles.length).toBeGreaterThan(20)
    // Run as the binary runs it: through the loader, which compiles the bundle and calls it.
    const loader = join(dir, "run.cjs")
    writeFileSync(loader, `require(${JSON.stringify(join(repoRoot, "packages", "cli", "bin", "run-bundle.cjs"))}).compileBundle(${JSON.stringify(join(dir, "dist", "tessera.cjs"))}).run()\n`)
    const child: ChildProcess = spawn(process.execPath, [loader, "serve", "--port", "0", "--db", ":memory:", "--client-id", "probe"], {
      cwd: dir,
      env: { ...process.env, TESSERA_CLIENT_SECRET: "probe-secret", TESSERA_LOG: "off" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let out = ""
        child.stdout!.on("data", (d: Buffer) => {
          out += d.toString()
          const m = /listening on (http:\/\/[^/\s]+)/.exec(out)
          if (m !== null && /ready in/.test(out)) resolve(m[1]!)
        })
        child.once("exit", (code) => reject(new Error(`exited ${code}`)))
      })
      const groupsEvaluated = async () => {
        const before = readFileSafe(evaluated)
        child.kill("SIGUSR2")
        for (let i = 0; i < 200 && readFileSafe(evaluated) === before; i++) await new Promise((r) => setTimeout(r, 10))
        const modules = JSON.parse(readFileSafe(evaluated)!) as ReadonlyArray<string>
        return groupFiles.filter((f) => modules.includes(`packages/core/src/endpoints/${f.slice(2)}`))
      }
      expect(await groupsEvaluated()).toEqual([])
      // Nor what only the core's index, the outcome timer or a seed file reached (#504): the
      // adapters import the modules that declare what they use, the timers load theirs at their
      // first pass, and the state document is loaded to check a seed file.
      const modules = JSON.parse(readFileSafe(evaluated)!) as ReadonlyArray<string>
      expect(modules).toContain("<banner>")
      const atStart = modules.slice(0, modules.indexOf("<banner>"))
      expect(atStart).toContain("packages/core/src/domain/errors.ts")
      // Nor the agents' schemas, which agent authentication reached through a device code's view (#519).
      const notAtStart = ["index.ts", "domain/sandbox/state-document.ts", "operations/transactions/outcomes.ts", "operations/quotes/execute.ts", "domain/external-accounts/variants.ts", "operations/webhooks/delivery.ts", "domain/agents/agent.ts"]
      expect(notAtStart.filter((m) => atStart.includes(`packages/core/src/${m}`))).toEqual([])
      const auth = { authorization: `Basic ${Buffer.from("probe:probe-secret").toString("base64")}` }
      const res = await fetch(`${origin}${V}/customers`, { headers: auth })
      expect(res.status).toBe(200)
      expect(await groupsEvaluated()).toEqual(["./customers.ts"])
      // The customers group decodes its bodies without the wallet-auth bodies' schemas (#519).
      expect(JSON.parse(readFileSafe(evaluated)!)).not.toContain("packages/core/src/domain/wallet-auth/inputs.ts")
      // A group's endpoints answer as declared once loaded: an unknown stablecoin is the declared 404.
      const missing = await fetch(`${origin}${V}/stablecoins/Stablecoin:00000000-0000-4000-8000-000000000000`, { headers: auth })
      expect(missing.status).toBe(404)
      expect(await groupsEvaluated()).toEqual(["./customers.ts", "./stablecoins.ts"])
      // The document reads the request schema of every endpoint that publishes its own.
      const published = new Set<string>(["./customers.ts", "./stablecoins.ts"])
      for (const f of groupFiles) {
        const declaring = (await import(pathToFileURL(join(endpointsDir, f)).href)) as Record<string, unknown>
        const declared = Object.values(declaring).filter(Array.isArray).flat() as ReadonlyArray<{ body?: unknown; documentBody?: boolean }>
        if (declared.some((e) => e.body !== undefined && e.documentBody !== false)) published.add(f)
      }
      expect(published.size).toBeGreaterThan(10)
      expect(published.size).toBeLessThan(groupFiles.length)
      expect((await fetch(`${origin}/openapi.json`)).status).toBe(200)
      expect(await groupsEvaluated()).toEqual(groupFiles.filter((f) => published.has(f)))
    } finally {
      child.kill("SIGTERM")
    }
  }, 60_000)
})

describe("a signed operation held before a restart, in the CLI bundle", () => {
  // Reconciliation runs a held request by its kind (spec, still-processing 4). The kinds used to
  // be registered by their modules as they loaded, so in the bundle, where a group loads at its
  // first request, a process that had not served a kind's group skipped its holds (#503).
  it("settles when another group lists the account's credentials, though its own group has not loaded", async () => {
    const db = join(tempDir(), "held.sqlite")
    const args = ["serve", "--port", "0", "--db", db, "--clock", "virtual"]
    const client = (banner: string) => {
      const origin = /listening on (http:\/\/[^/\s]+)/.exec(banner)![1]!
      return { request: checkedRequester(origin, `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`) }
    }
    const first = await startCli(args)
    let wallet: Awaited<ReturnType<typeof newWallet>>
    const path = (id: string) => `${V}/internal-accounts/${id}`
    try {
      const a = client(first.banner)
      wallet = await newWallet(a)
      const { key } = await loginWithOtp(a, wallet.emailCredentialId)
      expect((await a.request("POST", `${V}/sandbox/processing`, { body: { operations: 1, seconds: 5 } })).status).toBe(200)
      const challenge = await a.request("PATCH", path(wallet.accountId), { body: { privateEnabled: true } })
      expect((await retry(a, "PATCH", path(wallet.accountId), challenge, key, { privateEnabled: true })).body.status).toBe("PROCESSING")
    } finally {
      await first.stop()
    }
    const second = await startCli(args)
    try {
      const b = client(second.banner)
      expect((await b.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 5 } })).status).toBe(200)
      // The wallet-auth group's listing reconciles; the internal-accounts group is not loaded yet.
      expect((await b.request("GET", `${V}/auth/credentials?accountId=${wallet.accountId}`)).status).toBe(200)
      const accounts = await b.request("GET", `${V}/customers/internal-accounts?customerId=${wallet.customerId}`)
      expect(accounts.body.data[0]).toMatchObject({ id: wallet.accountId, privateEnabled: true })
    } finally {
      await second.stop()
    }
  }, 60_000)
})

const readFileSafe = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}
