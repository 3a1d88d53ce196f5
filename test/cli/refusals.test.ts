import { mkdirSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { expectOneLineRefusal, runCli, tempDir } from "./run-cli.ts"

describe.concurrent("an empty or invalid value, from a flag or the environment: one line naming it, exit 2", () => {
  it.each([
    ["PORT=", [], { PORT: "" }, /^tessera: PORT must be an integer from 0 to 65535 .*got an empty value/],
    ["--port=abc", ["--port=abc"], {}, /^tessera: --port must be an integer from 0 to 65535 .*got "abc"/],
    ["--port 70000", ["--port", "70000"], {}, /^tessera: --port must be .*got "70000"/],
    ["PORT=4010.5", [], { PORT: "4010.5" }, /^tessera: PORT must be/],
    ["--clock=fast", ["--clock=fast"], {}, /^tessera: --clock must be "real" or "virtual", got "fast"/],
    ["TESSERA_CLOCK=", [], { TESSERA_CLOCK: "" }, /^tessera: TESSERA_CLOCK must be "real" or "virtual", got an empty value/],
    ["--webhook-url ftp://…", ["--webhook-url", "ftp://hooks.example/in"], {}, /^tessera: --webhook-url must be an http:\/\/ or https:\/\/ URL, got "ftp:/],
    ["TESSERA_WEBHOOK_URL=not a url", [], { TESSERA_WEBHOOK_URL: "not a url" }, /^tessera: TESSERA_WEBHOOK_URL must be an http/],
    ["--host=", ["--host="], {}, /^tessera: --host must be an IP address or a host name/],
    ["HOST=", [], { HOST: "" }, /^tessera: HOST must be/],
    ["--db=", ["--db="], {}, /^tessera: --db must be a file path, ":memory:" for the memory store, or a postgres:\/\/ URL/],
    ["TESSERA_DB=", [], { TESSERA_DB: "" }, /^tessera: TESSERA_DB must be/],
    ["--client-id=", ["--client-id="], {}, /^tessera: --client-id must be a non-empty id/],
    ["--client-id a:b", ["--client-id", "a:b"], {}, /^tessera: --client-id must be .* without ":"/],
    ["TESSERA_CLIENT_ID=", [], { TESSERA_CLIENT_ID: "" }, /^tessera: TESSERA_CLIENT_ID must be/],
    ["TESSERA_CLIENT_SECRET=", [], { TESSERA_CLIENT_SECRET: "" }, /^tessera: TESSERA_CLIENT_SECRET must be a non-empty secret/],
    ["TESSERA_LOG=verbose", [], { TESSERA_LOG: "verbose" }, /^tessera: TESSERA_LOG must be "on" or "off", got "verbose"/]
  ] as const)("%s", async (_, args, env, pattern) => {
    expectOneLineRefusal(await runCli(["serve", ...args], { TESSERA_DB: ":memory:", ...env }), pattern)
  })
})

const listening = async (host: string): Promise<{ server: Server; port: number }> => {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, host, () => r()))
  return { server, port: (server.address() as { port: number }).port }
}

/** A location this user cannot create files in: a read-only directory, or /sys for root (who may write anywhere else). */
const readOnlyDir = () => {
  if (process.getuid?.() === 0) return "/sys"
  const dir = join(tempDir(), "read-only")
  mkdirSync(dir, { mode: 0o555 })
  return dir
}

describe.concurrent("a problem of the environment at start: one line naming it and the fix, exit 2", () => {
  it("a port in use", async () => {
    const { server, port } = await listening("127.0.0.1")
    try {
      const r = await runCli(["serve", "--port", String(port), "--host", "127.0.0.1", "--db", ":memory:"])
      expectOneLineRefusal(r, new RegExp(`^tessera: port ${port} is already in use; stop the other process or choose another with --port \\(0 picks a free one\\)`))
    } finally {
      server.close()
    }
  })

  it("the database is opened before the port is taken: a bad path is reported even when the port is busy too", async () => {
    const { server, port } = await listening("127.0.0.1")
    try {
      const r = await runCli(["serve", "--port", String(port), "--host", "127.0.0.1", "--db", join(tempDir(), "missing", "t.sqlite")])
      expectOneLineRefusal(r, /^tessera: cannot open database .*does not exist/)
    } finally {
      server.close()
    }
  })

  it("a database in a directory that does not exist", async () => {
    const missing = join(tempDir(), "no", "such", "dir")
    const r = await runCli(["serve", "--port", "0"], { TESSERA_DB: join(missing, "t.sqlite") })
    expectOneLineRefusal(r, new RegExp(`^tessera: cannot open database ".*t\\.sqlite": directory ${JSON.stringify(missing).replaceAll("/", "\\/")} does not exist; create it or choose another file with --db`))
  })

  it("a database in a read-only location", async () => {
    const r = await runCli(["serve", "--port", "0", "--db", join(readOnlyDir(), "tessera-test.sqlite")])
    expectOneLineRefusal(r, /^tessera: cannot open database ".*tessera-test\.sqlite": .*(not writable|does not take new files); choose a file in a writable location with --db/)
  })

  it("a directory given as the database file", async () => {
    const dir = tempDir()
    const r = await runCli(["serve", "--port", "0", "--db", dir])
    expectOneLineRefusal(r, /^tessera: cannot open database ".*": it is a directory; give a file path, e\.g\. --db ".*\/tessera\.sqlite"/)
  })

  it("a file that is not a SQLite database", async () => {
    const file = join(tempDir(), "notes.txt")
    writeFileSync(file, "not a database, just some text that is long enough to have a header ".repeat(20))
    const r = await runCli(["serve", "--port", "0", "--db", file])
    expectOneLineRefusal(r, /^tessera: cannot open database ".*notes\.txt": it is not a SQLite database/)
  })

  it("a host that does not resolve", async () => {
    const r = await runCli(["serve", "--port", "0", "--db", ":memory:", "--host", "no-such-host.invalid"])
    expectOneLineRefusal(r, /^tessera: host "no-such-host\.invalid" does not resolve to an address; give an IP address or a resolvable name with --host/)
  })

  it("a host address that is not this machine's", async () => {
    // 192.0.2.0/24 is reserved for documentation (RFC 5737): never a local address.
    const r = await runCli(["serve", "--port", "0", "--db", ":memory:"], { HOST: "192.0.2.1" })
    expectOneLineRefusal(r, /^tessera: cannot listen on host "192\.0\.2\.1": it is not an address of this machine; choose one with --host/)
  })
})
