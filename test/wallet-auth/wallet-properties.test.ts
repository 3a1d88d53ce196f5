import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect } from "effect"
import {
  challengeCredential,
  createCustomer,
  listCredentials,
  listCustomerInternalAccounts,
  listSessions
} from "@tessera/core/operations"
import {
  type Engine,
  isReply,
  makeEngine,
  type PlatformRecord,
  type SignedHeaders,
  TimeControl,
  endpointPrograms
} from "@tessera/core"

import { MemoryStore } from "@tessera/adapter-memory"
import { type KeyPair, newKeyPair, sealOtp, SoftwarePasskey, stamp } from "@tessera/core/testing"
import { arbWalletStep, type WalletStep } from "@tessera/core/testing/arbitraries"

/** The endpoints' programs for the model's platform. */
const ops = (m: { readonly platform: PlatformRecord }) => endpointPrograms(m.platform)

/** Runs an operation in-process and answers `{status, body}` as the HTTP adapter would. */
const call = async (engine: Engine, effect: Effect.Effect<unknown, unknown, any>) => {
  const exit = await engine.runtime.runPromiseExit(effect)
  if (exit._tag === "Success") return isReply(exit.value) ? { status: exit.value.status, body: exit.value.body as any } : { status: 200, body: exit.value as any }
  const e = (exit.cause as any).error ?? (exit.cause as any).defect
  if (e?.status === undefined) throw e
  return { status: e.status as number, body: { code: e._tag, details: e.details } as any }
}

const noHeaders: SignedHeaders = { signature: undefined, requestId: undefined }

interface Model {
  readonly engine: Engine
  readonly platform: PlatformRecord
  readonly accountId: string
  readonly passkeys: Map<string, SoftwarePasskey>
  /** Active sessions we hold keys for: session id → key and credential. */
  readonly sessions: Array<{ id: string; key: KeyPair; credentialId: string }>
  lastRetry?: () => Promise<{ status: number; body: any }>
}

const now = (m: Model) => m.engine.run(Effect.flatMap(TimeControl, () => Effect.clockWith((c) => c.currentTimeMillis)))

/** A signed call through both legs with the given session key. */
const signedCall = async (m: Model, first: (h: typeof noHeaders) => Effect.Effect<unknown, unknown, any>, key: KeyPair) => {
  const ch = await call(m.engine, first(noHeaders))
  if (ch.status !== 202) return ch
  const headers = { signature: stamp(key.privateKey, ch.body.payloadToSign), requestId: ch.body.requestId }
  const again = () => call(m.engine, first(headers))
  const result = await again()
  if (result.status < 300) m.lastRetry = again
  return result
}

const credentials = async (m: Model) => (await call(m.engine, listCredentials(m.platform, { accountId: m.accountId }))).body.data as Array<any>

const step = async (m: Model, s: WalletStep) => {
  const creds = await credentials(m)
  const pick = <A>(xs: ReadonlyArray<A>, i: number) => (xs.length === 0 ? undefined : xs[i % xs.length])
  const signer = pick(m.sessions, s._tag === "RevokeCredential" || s._tag === "RevokeSession" ? s.signWith : 0)
  switch (s._tag) {
    case "Advance":
      await m.engine.run(Effect.flatMap(TimeControl, (t) => t.advance(s.seconds)))
      return
    case "LoginEmail": {
      const email = creds.find((c) => c.type === "EMAIL_OTP")
      if (email === undefined) return
      await m.engine.run(Effect.flatMap(TimeControl, (t) => t.advance(31)))
      const ch = await call(m.engine, challengeCredential(m.platform, email.id, undefined))
      expect(ch.status).toBe(200)
      const tek = newKeyPair()
      const body = { type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
      const r = await signedCall(m, (h) => ops(m).walletAuth.verifyCredential(email.id, body, h), tek)
      expect(r.status).toBe(200)
      m.sessions.push({ id: r.body.id, key: tek, credentialId: email.id })
      return
    }
    case "AddPasskey": {
      const pk = new SoftwarePasskey({ origin: "https://w.example.com", rpId: "w.example.com" })
      const challenge = Buffer.from(`c${Math.random()}`).toString("base64url")
      const body = { type: "PASSKEY" as const, accountId: m.accountId, nickname: "key", challenge, attestation: pk.register(challenge) }
      const r = await signedCall(m, (h) => ops(m).walletAuth.createCredential(body, h), signer?.key ?? newKeyPair())
      // Adding needs an active session of this account.
      expect(r.status).toBe(signer === undefined ? 401 : 201)
      if (r.status === 201) m.passkeys.set(r.body.id, pk)
      return
    }
    case "AddSms": {
      const r = await signedCall(m, (h) => ops(m).walletAuth.createCredential({ type: "SMS_OTP", accountId: m.accountId }, h), signer?.key ?? newKeyPair())
      const hasSms = creds.some((c) => c.type === "SMS_OTP")
      expect(r.status).toBe(hasSms ? 400 : signer === undefined ? 401 : 201)
      return
    }
    case "LoginPasskey": {
      const cred = pick(creds.filter((c) => c.type === "PASSKEY"), s.which)
      if (cred === undefined) return
      await m.engine.run(Effect.flatMap(TimeControl, (t) => t.advance(31)))
      const client = newKeyPair()
      const ch = await call(m.engine, challengeCredential(m.platform, cred.id, { clientPublicKey: client.publicKey }))
      const r = await call(m.engine, ops(m).walletAuth.verifyCredential(cred.id, { type: "PASSKEY", assertion: m.passkeys.get(cred.id)!.assert(ch.body.challenge) }, { signature: undefined, requestId: ch.body.requestId }))
      expect(r.status).toBe(200)
      m.sessions.push({ id: r.body.id, key: client, credentialId: cred.id })
      return
    }
    case "RevokeCredential": {
      const cred = pick(creds, s.which)
      if (cred === undefined || signer === undefined) return
      const r = await signedCall(m, (h) => ops(m).walletAuth.revokeCredential(cred.id, h), signer.key)
      if (creds.length === 1) expect(r.status).toBe(400)
      else if (signer.credentialId === cred.id) expect(r.status).toBe(401)
      return
    }
    case "RevokeSession": {
      const target = pick(m.sessions, s.which)
      if (target === undefined || signer === undefined) return
      await signedCall(m, (h) => ops(m).walletAuth.revokeSession(target.id, h), signer.key)
      return
    }
    case "ReuseRequestId": {
      if (m.lastRetry === undefined) return
      const r = await m.lastRetry()
      expect(r.status).toBe(401)
      return
    }
  }
}

const invariants = async (m: Model) => {
  const creds = await credentials(m)
  const sessions = (await call(m.engine, listSessions(m.platform, { accountId: m.accountId }))).body.data as Array<any>
  const t = await now(m)
  expect(creds.length).toBeGreaterThanOrEqual(1)
  for (const s of sessions) expect(Date.parse(s.expiresAt)).toBeGreaterThan(t)
  // Every live session belongs to a credential that still exists.
  const live = new Set(sessions.map((s) => s.id))
  const credIds = new Set(creds.map((c) => c.id))
  for (const held of m.sessions) if (live.has(held.id)) expect(credIds.has(held.credentialId)).toBe(true)
  // Forget sessions that died, so later steps sign with live keys.
  m.sessions.splice(0, m.sessions.length, ...m.sessions.filter((s) => live.has(s.id)))
}

describe("wallet credential and session invariants (random operation sequences)", () => {
  it("≥ 1 credential; revoked credential ⇒ no live sessions; request ids single use; no session outlives its expiry", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbWalletStep, { minLength: 1, maxLength: 14 }), async (steps) => {
        const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual", clockStartMs: Date.UTC(2026, 0, 1) })
        try {
          const platform = await engine.platform({ clientId: "p", clientSecret: "s" })
          const customer = await engine.run(
            createCustomer(platform, { customerType: "INDIVIDUAL", fullName: "Prop Erty", email: "p@example.com", phoneNumber: "+14155550100" })
          )
          const accounts = await engine.run(listCustomerInternalAccounts(platform, { customerId: customer.id }))
          const m: Model = { engine, platform, accountId: accounts.data[0]!.id, passkeys: new Map(), sessions: [] }
          for (const s of steps) {
            await step(m, s)
            await invariants(m)
          }
        } finally {
          await engine.dispose()
        }
      }),
      { numRuns: 40 }
    )
  }, 60_000)
})
