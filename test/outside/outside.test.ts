// The packages as a user outside the repository gets them: pack every public package, install
// the tarballs with npm into a fresh project in the system's temp folder (with express and hono
// from the registry), and use them there with nothing of the workspace reachable.
// Run by `.ci/run` through vitest.outside.config.ts (it takes minutes: it packs and installs).
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { promisify } from "node:util"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"

const fixtures = join(repoRoot, "test", "outside", "fixtures")
const registryDeps = {
  express: "5.3.0",
  hono: "4.13.19",
  "@hono/node-server": "2.1.8",
  typescript: "5.9.3",
  "@types/node": "20.19.9"
}
const auth = `Basic ${Buffer.from("outside:outside-secret").toString("base64")}`

let project = ""
const figures: Record<string, unknown> = {}
const children: Array<ChildProcess> = []

/** Starts `node <file>` (or a command) in the project and resolves with its first JSON stdout line. */
const start = (cmd: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ child: ChildProcess; line: string; ms: number }>((resolve, reject) => {
    const t0 = performance.now()
    // Its own process group: `npx` runs the server as a grandchild, which must go down with it.
    const child = spawn(cmd, args, { cwd: project, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true })
    children.push(child)
    let out = ""
    let err = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const line = out.split("\n").find((l) => l.startsWith("{") || l.includes("listening on"))
      if (line !== undefined) resolve({ child, line, ms: performance.now() - t0 })
    })
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${err || out}`)))
  })

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000)
  })
  return { status: res.status, body: (await res.json()) as any }
}

/** POST, PATCH and GET through a mounted app, each answered (a hang fails on the timeout). */
const customerRoundTrip = async (base: string) => {
  const created = await call(base, "POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Grace Hopper", email: "grace@example.com" })
  expect(created.status).toBe(201)
  expect(created.body.kycStatus).toBe("APPROVED")
  const patched = await call(base, "PATCH", `/customers/${created.body.id}`, { customerType: "INDIVIDUAL", fullName: "Grace B. Hopper" })
  expect(patched.status).toBe(200)
  expect(patched.body.fullName).toBe("Grace B. Hopper")
  const read = await call(base, "GET", `/customers/${created.body.id}`)
  expect(read.body.fullName).toBe("Grace B. Hopper")
  const invalid = await call(base, "POST", "/customers", { customerType: "ROBOT" })
  expect(invalid.status).toBe(400)
  expect(invalid.body.code).toBe("INVALID_INPUT")
}

// Asynchronous on purpose: a synchronous minute-long install starves vitest's worker heartbeat.
const run = promisify(execFile)

beforeAll(async () => {
  const packed = JSON.parse((await run(process.execPath, [join(repoRoot, "scripts", "pack-all.mjs")], { cwd: repoRoot, maxBuffer: 1 << 24 })).stdout) as {
    packed: Array<{ name: string; file: string; bytes: number }>
  }
  figures["tarballs"] = Object.fromEntries(packed.packed.map((p) => [p.name, p.bytes]))
  project = mkdtempSync(join(tmpdir(), "tessera-outside-"))
  mkdirSync(join(project, "tarballs"))
  const deps: Record<string, string> = { ...registryDeps }
  for (const p of packed.packed) {
    const file = p.file.split("/").pop()!
    copyFileSync(join(repoRoot, p.file), join(project, "tarballs", file))
    deps[p.name] = `file:./tarballs/${file}`
  }
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({
      name: "tessera-outside-check",
      private: true,
      type: "module",
      dependencies: deps,
      // Every @tessera package resolves to its tarball, never to a registry namesake.
      overrides: Object.fromEntries(packed.packed.map((p) => [p.name, `$${p.name}`])),
      // npm 11 runs a dependency's install script only once approved; better-sqlite3 needs its build.
      allowScripts: { "better-sqlite3": true }
    })
  )
  for (const f of readdirSync(fixtures)) copyFileSync(join(fixtures, f), join(project, f))
  const t0 = performance.now()
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, maxBuffer: 1 << 24 })
  figures["npmInstallMs"] = Math.round(performance.now() - t0)
}, 600_000)

afterAll(() => {
  for (const c of children) {
    try {
      process.kill(-c.pid!, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
  // The figures the closing note reports: tarball sizes, install time, time to first answer.
  process.stdout.write(`outside-project figures: ${JSON.stringify(figures)}\n`)
  if (project !== "") rmSync(project, { recursive: true, force: true })
})

describe("the packed packages, installed into a project outside the repository", () => {
  it("(a) a plain .mjs builds an engine on the memory store, creates a customer and completes an email-OTP login", async () => {
    const out = JSON.parse((await run(process.execPath, ["login.mjs"], { cwd: project })).stdout.trim())
    expect(out.customer).toMatch(/^Customer:/)
    expect(out.kycStatus).toBe("PENDING") // fullName suffix 001
    expect(out.first).toBe(202)
    expect(out.session).toBe(200)
    expect(out.sessionId).toMatch(/^Session:/)
  })

  it("(b) a .ts consumer typechecks with tsc --module nodenext --moduleResolution nodenext --strict", async () => {
    const tsc = join(project, "node_modules", "typescript", "bin", "tsc")
    const args = [tsc, "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--strict", "--types", "node", "consumer.ts"]
    let output = ""
    try {
      await run(process.execPath, args, { cwd: project })
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e)
    }
    expect(output).toBe("")
  })

  it("(c) Express with express.json() before Tessera, mounted under /tessera, answers POST, PATCH and GET", async () => {
    const { line } = await start(process.execPath, ["express-app.mjs"])
    await customerRoundTrip(`http://127.0.0.1:${JSON.parse(line).port}/tessera/2025-10-13`)
  })

  it("(c) Hono with the fetch handler under /tessera answers POST, PATCH and GET", async () => {
    const { line } = await start(process.execPath, ["hono-app.mjs"])
    await customerRoundTrip(`http://127.0.0.1:${JSON.parse(line).port}/tessera/2025-10-13`)
  })

  it("(d) npx tessera serve from the installed package answers", async () => {
    const t0 = performance.now()
    const { line } = await start("npx", ["tessera", "serve"], {
      PORT: "0",
      TESSERA_DB: join(project, "sandbox.sqlite"),
      TESSERA_CLIENT_ID: "outside",
      TESSERA_CLIENT_SECRET: "outside-secret"
    })
    const base = /listening on (\S+)/.exec(line)![1]!
    const first = await call(base, "GET", "/customers")
    figures["npxTesseraServeToFirstAnswerMs"] = Math.round(performance.now() - t0)
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual([])
    await customerRoundTrip(base)
  })
})
