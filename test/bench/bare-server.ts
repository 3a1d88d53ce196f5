// The baselines' server: bare node:http answering Tessera's own bytes, in its own process like
// Tessera's. argv[2] is a JSON config file (BareConfig); prints "READY <port>" when listening.
// GET answers the captured GET /customers/{id} response; POST parses the body and answers the
// captured POST /customers response with a fresh id; PATCH does the signed-retry protocol's two
// legs with node:crypto (issue a payload to sign, then verify the P-256 stamp over it and apply),
// keeping its state in a Map or, for the SQLite variant, running the statements the SQLite store
// ran for the same two legs (replay.ts).
import { createHash, createPublicKey, ECDH, type KeyObject, randomUUID, verify } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import Database from "better-sqlite3"
import type { BareConfig, CapturedResponse, SqliteFlow } from "./capture.ts"
import { makeReplay } from "./replay.ts"
import { applyPragmas } from "./statement-log.ts"

const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as BareConfig
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

// Node adds Date, Connection and Keep-Alive itself, as it does for Tessera.
const headersOf = (r: CapturedResponse) => Object.fromEntries(r.headers.filter(([k]) => !/^(date|connection|keep-alive)$/i.test(k)))
const send = (res: ServerResponse, r: CapturedResponse, body: string) => {
  res.writeHead(r.status, headersOf(r))
  res.end(body)
}
/** The captured body with every uuid renewed: same length, new ids. */
const renewed = (body: string) => body.replace(UUID, () => randomUUID())

const readJson = (req: IncomingMessage, then: (body: unknown) => void) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => then(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"))))
}

const canonical = (v: unknown): string =>
  v === null || typeof v !== "object"
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canonical).join(",")}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(",")}}`
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

// Keys cached by their hex, as Tessera caches a session's key.
const keys = new Map<string, KeyObject>()
const keyOf = (hex: string) => {
  let k = keys.get(hex)
  if (k === undefined) {
    const raw = Buffer.from(hex.startsWith("04") ? hex : (ECDH.convertKey(hex, "prime256v1", "hex", "hex", "uncompressed") as string), "hex")
    k = createPublicKey({ key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") }, format: "jwk" })
    keys.set(hex, k)
  }
  return k
}
const stampSigns = (header: string, payload: string) => {
  const s = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { publicKey: string; scheme: string; signature: string }
  if (Object.keys(s).sort().join(",") !== "publicKey,scheme,signature" || s.scheme !== "SIGNATURE_SCHEME_TK_API_P256") return false
  return verify("sha256", Buffer.from(payload), { key: keyOf(s.publicKey), dsaEncoding: "der" }, Buffer.from(s.signature, "hex"))
}

interface Pending {
  readonly accountId: string
  readonly bodySha256: string
  readonly payloadToSign: string
  readonly expiresAtMs: number
  readonly replay: unknown
}
const pending = new Map<string, Pending>()
const accounts = new Map<string, unknown>()

/** The SQLite variant's persistence: the store's statements for each leg, on a copy of its database. */
const openReplay = (f: SqliteFlow) => {
  const db = new Database(f.file)
  applyPragmas(db, f.pragmas)
  const replay = makeReplay(db, f.plan, `${f.file}-wal`)
  type Context = ReturnType<typeof replay.begin>
  return {
    begin: () => replay.begin(),
    requestUuid: (c: unknown) => replay.freshOf(c as Context, f.requestUuid),
    leg1: (c: unknown) => replay.runRange(c as Context, 0, f.leg1Calls),
    leg2: (c: unknown) => replay.runRange(c as Context, f.leg1Calls)
  }
}

const flow = config.flow
const store = flow?.sqlite === undefined ? undefined : openReplay(flow.sqlite)

const signed = (req: IncomingMessage, res: ServerResponse, accountId: string, body: unknown) => {
  const f = flow!
  const signature = req.headers["service-wallet-signature"]
  const requestId = req.headers["request-id"]
  if (signature === undefined) {
    const context = store?.begin()
    const requestId = `Request:${context === undefined ? randomUUID() : store!.requestUuid(context)}`
    // The captured payload and 202 body with this request id: same bytes, as Tessera's differ only there.
    const payloadToSign = f.payloadToSign.split(f.requestId).join(requestId)
    store?.leg1(context)
    pending.set(requestId, { accountId, bodySha256: sha256(canonical(body)), payloadToSign, expiresAtMs: Date.now() + 300_000, replay: context })
    return send(res, f.leg1, f.leg1.body.split(f.requestId).join(requestId))
  }
  const p = typeof requestId === "string" ? pending.get(requestId) : undefined
  if (p === undefined || p.accountId !== accountId || p.bodySha256 !== sha256(canonical(body)) || p.expiresAtMs < Date.now() || !stampSigns(String(signature), p.payloadToSign)) {
    res.writeHead(401, { "content-type": "application/json" })
    return res.end('{"status":401,"code":"INVALID_SIGNATURE","message":"no","details":{}}')
  }
  pending.delete(requestId as string)
  if (store !== undefined) store.leg2(p.replay)
  else accounts.set(accountId, { ...(body as object), id: accountId })
  send(res, f.leg2, f.leg2.body)
}

const server = createServer((req, res) => {
  if (req.method === "GET") return send(res, config.get, config.get.body)
  readJson(req, (body) => {
    if (req.method === "POST") return send(res, config.post, renewed(config.post.body))
    signed(req, res, req.url!.slice(req.url!.lastIndexOf("/") + 1), body)
  })
})
// The same idle timeout as Tessera's, so node writes the same Keep-Alive header.
server.keepAliveTimeout = Number(/timeout=(\d+)/.exec(config.get.headers.find(([k]) => /^keep-alive$/i.test(k))?.[1] ?? "")?.[1] ?? 5) * 1000
server.listen(0, "127.0.0.1", () => {
  const a = server.address()
  process.stdout.write(`READY ${typeof a === "object" && a !== null ? a.port : 0}\n`)
})
