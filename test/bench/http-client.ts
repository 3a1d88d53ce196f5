import { Agent, request } from "node:http"
import { newKeyPair, sealOtp, stamp } from "@tessera/core/testing"

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

type Call = ReturnType<typeof jsonClient>["call"]

/**
 * A new customer whose wallet is logged in over HTTP (EMAIL_OTP with the sandbox code, the TEK-
 * stamped retry): the account and the TEK whose session signs the bench's signed retries.
 */
export const loggedInWallet = async (call: Call, email: string) => {
  const c = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Bench", email })
  const account = (await call("GET", `/customers/internal-accounts?customerId=${c.body.id}`)).body.data[0].id as string
  const cred = (await call("GET", `/auth/credentials?accountId=${account}`)).body.data[0].id as string
  const ch = await call("POST", `/auth/credentials/${cred}/challenge`)
  const tek = newKeyPair()
  const body = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
  const first = await call("POST", `/auth/credentials/${cred}/verify`, body)
  const login = await call("POST", `/auth/credentials/${cred}/verify`, body, { "service-wallet-signature": stamp(tek.privateKey, first.body.payloadToSign), "request-id": first.body.requestId })
  if (login.status !== 200) throw new Error(`bench login failed: ${JSON.stringify(login.body)}`)
  return { account, tek }
}
