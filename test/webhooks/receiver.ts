import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly body: string
  readonly event: { id: string; type: string; timestamp: string; data: any }
  readonly signature: string | undefined
  readonly gridSignature: string | undefined
  readonly answered: number
}

/** A real local webhook receiver; `answer` decides each reply's status (default 200). */
export const startReceiver = async (answer: (event: Received["event"], n: number) => number = () => 200) => {
  const received: Array<Received> = []
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const event = JSON.parse(body)
      const status = answer(event, received.filter((r) => r.event.id === event.id).length)
      received.push({ body, event, signature: req.headers["x-service-signature"] as string, gridSignature: req.headers["x-grid-signature"] as string, answered: status })
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify({ ok: status < 300 }))
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}
