import { Agent, request } from "node:http"

/** A keep-alive JSON client for the bench's dependent request flows (autocannon cannot chain). */
export const jsonClient = (port: number, sockets: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets })
  const auth = `Basic ${Buffer.from("bench:bench-secret").toString("base64")}`
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body)
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method,
          path: `/2025-10-13${path}`,
          agent,
          headers: { authorization: auth, ...(data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {}), ...headers }
        },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined }))
        }
      )
      req.on("error", reject)
      req.end(data)
    })
  return { call, close: () => agent.destroy() }
}
