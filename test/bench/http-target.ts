// A server for the HTTP benchmark, in its own process so the load generator has the other core.
// argv: bare | tessera-memory | tessera-sqlite ; prints "READY <port> <customerId>" when listening.
import { createServer } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { serve } from "@tessera/adapter-http"

const kind = process.argv[2]
if (kind === "bare") {
  // The baseline: a bare node:http JSON server doing the least a JSON API can.
  const body = JSON.stringify({ id: "Customer:00000000-0000-4000-8000-000000000000", customerType: "INDIVIDUAL" })
  const server = createServer((req, res) => {
    if (req.method === "POST") {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString())
        res.writeHead(201, { "content-type": "application/json" })
        res.end(JSON.stringify({ ...parsed, id: "Customer:x" }))
      })
      return
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(body)
  })
  server.listen(0, "127.0.0.1", () => {
    const a = server.address()
    process.stdout.write(`READY ${typeof a === "object" && a ? a.port : 0} none\n`)
  })
} else {
  const store =
    kind === "tessera-memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(mkdtempSync(join(tmpdir(), "tessera-bench-")), "b.sqlite") })
  const engine = makeEngine({ store })
  const platform = await engine.platform({ clientId: "bench", clientSecret: "bench-secret" })
  const c = await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Bench Person", email: "b@example.com" })
  const server = await serve({ engine, port: 0 })
  process.stdout.write(`READY ${server.port} ${c.id}\n`)
}
