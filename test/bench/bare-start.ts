// The cold-start baseline: the least a node:http JSON server does before its first answer.
// Bundled to a plain script (servers.ts) and run with node, as Tessera's CLI bundle is.
import { createServer } from "node:http"

const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" })
  res.end('{"data":[],"hasMore":false,"totalCount":0}')
})
server.listen(0, "127.0.0.1", () => {
  const a = server.address()
  process.stdout.write(`READY ${typeof a === "object" && a !== null ? a.port : 0}\n`)
})
