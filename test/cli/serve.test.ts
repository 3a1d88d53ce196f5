import { execFile } from "node:child_process"
import { chmodSync, writeFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { startCli, tempDir } from "./run-cli.ts"

/** Runs the banner's `try:` command through sh, with `curl` being the fake one beside this file. */
const runTryLine = async (banner: string, env: Record<string, string> = {}) => {
  const command = /^ {2}try: +(.+)$/m.exec(banner)?.[1]
  expect(command, banner).toBeDefined()
  const bin = tempDir()
  writeFileSync(join(bin, "curl"), `#!/bin/sh\nexec "${process.execPath}" "${fileURLToPath(new URL("./fake-curl.mjs", import.meta.url))}" "$@"\n`)
  chmodSync(join(bin, "curl"), 0o755)
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile("/bin/sh", ["-c", command!], { env: { ...process.env, ...env, PATH: `${bin}${delimiter}${process.env["PATH"]}` } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    )
  )
}

describe("the start banner's example command works when pasted into a shell", () => {
  it("default secret, an id that needs quoting, listening on 0.0.0.0 with a port picked by the system", async () => {
    const cli = await startCli(["serve", "--port", "0", "--host", "0.0.0.0", "--db", ":memory:", "--client-id", `it's "me" $HOME`])
    try {
      const port = /listening on http:\/\/0\.0\.0\.0:(\d+)\//.exec(cli.banner)?.[1]
      expect(Number(port)).toBeGreaterThan(0)
      expect(cli.banner).toContain(`curl -u 'it'\\''s "me" $HOME':sandbox-client-secret http://127.0.0.1:${port}/2025-10-13/customers`)
      expect(await runTryLine(cli.banner)).toEqual({ code: 0, stdout: "200\n", stderr: "" })
    } finally {
      await cli.stop()
    }
  })

  it("a secret from the environment is referenced, never printed", async () => {
    const secret = `s3cret with 'quotes' "and" $dollars`
    const cli = await startCli(["serve", "--port=0", "--db", ":memory:"], { TESSERA_CLIENT_SECRET: secret })
    try {
      expect(cli.banner).not.toContain(secret)
      expect(cli.banner).toMatch(/curl -u sandbox-client-id:"\$TESSERA_CLIENT_SECRET" http:\/\/127\.0\.0\.1:\d+\/2025-10-13\/customers/)
      expect(await runTryLine(cli.banner, { TESSERA_CLIENT_SECRET: secret })).toEqual({ code: 0, stdout: "200\n", stderr: "" })
      // Without the variable in the pasting shell the command is refused, so it does use it.
      expect((await runTryLine(cli.banner, { TESSERA_CLIENT_SECRET: "wrong" })).code).toBe(22)
    } finally {
      await cli.stop()
    }
  })
})

describe("flags and their variables", () => {
  it("flags win over variables, and a variable a flag overrides is not read (PORT=abc with --port 0)", async () => {
    const cli = await startCli(["serve", "--port", "0", "--client-id", "from-flag", "--clock=virtual", "--db", ":memory:"], {
      PORT: "abc",
      TESSERA_CLIENT_ID: "from-env",
      TESSERA_CLOCK: "real",
      TESSERA_DB: join(tempDir(), "unused.sqlite")
    })
    try {
      expect(cli.banner).toMatch(/client id: +from-flag\n/)
      expect(cli.banner).toMatch(/clock: +virtual\n/)
      expect(cli.banner).toMatch(/store: +memory/)
    } finally {
      await cli.stop()
    }
  })
})

describe("the request log", () => {
  it("every line carries the wall-clock time in ISO 8601 UTC, even when the virtual clock was moved a year ahead", async () => {
    const cli = await startCli(["serve", "--port", "0", "--db", ":memory:", "--clock", "virtual"])
    try {
      const url = /listening on (\S+)/.exec(cli.banner)![1]!
      const auth = { authorization: `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`, "content-type": "application/json" }
      const advanced = await fetch(`${url}/sandbox/clock/advance`, { method: "POST", headers: auth, body: JSON.stringify({ seconds: 365 * 86400 }) })
      expect(advanced.status).toBe(200)
      expect((await fetch(`${url}/customers`, { headers: auth })).status).toBe(200)
      expect((await fetch(`${url}/customers`)).status).toBe(401)
      const deadline = Date.now() + 5000
      const lines = () => cli.stdout().slice(cli.banner.length).split("\n").filter((l) => l.startsWith("{"))
      while (lines().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      const entries = lines().map((l) => JSON.parse(l) as { time: string; msg: string; status: number })
      expect(entries.map((e) => [e.msg, e.status])).toEqual([["request", 200], ["request", 200], ["request", 401]])
      for (const e of entries) {
        expect(e.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        // Wall clock: within an hour of now, nowhere near the virtual clock's year ahead.
        expect(Math.abs(Date.parse(e.time) - Date.now())).toBeLessThan(3600_000)
      }
    } finally {
      await cli.stop()
    }
  })
})
