import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect, type Layer } from "effect"
import {
  type Engine,
  isReply,
  makeEngine,
  type PlatformRecord,
  type SignedHeaders,
  type StateDocument,
  type Store,
  TimeControl
} from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { evmSigner, type KeyPair, newKeyPair, sealOtp, SoftwarePasskey, stamp } from "@tessera/core/testing"
import { usd, wallet } from "../external-accounts/support.ts"
import { content } from "./support.ts"

/**
 * Random worlds built through the engine API (customers created, updated and deleted, external
 * accounts, ownership challenges, OTP logins, passkeys and SMS credentials added and revoked,
 * sessions revoked, PROCESSING holds, time passing): whatever the world, export → import into a
 * fresh engine → export gives the same document, and the lists read the same.
 */
type Step =
  | { readonly _tag: "Customer"; readonly business: boolean; readonly email: boolean; readonly suffix: string; readonly pcid: number | null }
  | { readonly _tag: "Update"; readonly which: number; readonly phone: number }
  | { readonly _tag: "Delete"; readonly which: number }
  | { readonly _tag: "Bank"; readonly which: number | null; readonly account: number }
  | { readonly _tag: "DeleteExternal"; readonly which: number }
  | { readonly _tag: "Wallet"; readonly liveness: boolean; readonly decide: boolean }
  | { readonly _tag: "Login" | "LoginPasskey"; readonly which: number; readonly complete: boolean }
  | { readonly _tag: "AddPasskey" | "AddSms" | "RevokeCredential" | "RevokeSession"; readonly which: number; readonly signWith: number }
  | { readonly _tag: "Hold"; readonly which: number | null; readonly operations: number }
  | { readonly _tag: "Advance"; readonly seconds: number }

const which = fc.nat({ max: 20 })
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ _tag: fc.constant("Customer" as const), business: fc.boolean(), email: fc.oneof(fc.constant(true), fc.boolean()), suffix: fc.constantFrom("001", "002", "003", "999"), pcid: fc.option(fc.nat({ max: 3 })) }), weight: 3 },
  { arbitrary: fc.record({ _tag: fc.constant("Update" as const), which, phone: fc.nat({ max: 99 }) }), weight: 2 },
  { arbitrary: fc.record({ _tag: fc.constant("Delete" as const), which }), weight: 1 },
  { arbitrary: fc.record({ _tag: fc.constant("Bank" as const), which: fc.option(which), account: fc.nat({ max: 12 }) }), weight: 2 },
  { arbitrary: fc.record({ _tag: fc.constant("DeleteExternal" as const), which }), weight: 1 },
  { arbitrary: fc.record({ _tag: fc.constant("Wallet" as const), liveness: fc.boolean(), decide: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ _tag: fc.constantFrom("Login" as const, "LoginPasskey" as const), which, complete: fc.oneof(fc.constant(true), fc.boolean()) }), weight: 5 },
  { arbitrary: fc.record({ _tag: fc.constantFrom("AddPasskey" as const, "AddSms" as const, "RevokeCredential" as const, "RevokeSession" as const), which, signWith: which }), weight: 6 },
  { arbitrary: fc.record({ _tag: fc.constant("Hold" as const), which: fc.option(which), operations: fc.nat({ max: 2 }) }), weight: 1 },
  { arbitrary: fc.record({ _tag: fc.constant("Advance" as const), seconds: fc.integer({ min: 1, max: 900 }) }), weight: 1 }
)

interface World {
  readonly engine: Engine
  readonly platform: PlatformRecord
  readonly customers: Array<{ readonly id: string; readonly business: boolean; readonly email: boolean }>
  readonly passkeys: Map<string, SoftwarePasskey>
  readonly externals: Array<string>
  readonly sessions: Array<{ readonly id: string; readonly key: KeyPair; readonly accountId: string }>
}

const none: SignedHeaders = { signature: undefined, requestId: undefined }
const body = (v: unknown): any => (isReply(v) ? v.body : v)
const pick = <A>(xs: ReadonlyArray<A>, i: number): A | undefined => (xs.length === 0 ? undefined : xs[i % xs.length])
/** Domain failures are part of a random world (409s, 401s, 429s): the step just did nothing. */
const attempt = <A>(p: Promise<A>): Promise<A | undefined> => p.catch((e) => (typeof e?.status === "number" ? undefined : Promise.reject(e)))
const advance = (w: World, seconds: number) => w.engine.run(Effect.flatMap(TimeControl, (t) => t.advance(seconds)))

/** Both legs of a signed operation, stamped with `key`. */
const signed = async (op: (h: SignedHeaders) => Promise<unknown>, key: KeyPair) => {
  const first = body(await attempt(op(none)))
  if (first?.requestId === undefined) return
  return body(await attempt(op({ signature: stamp(key, first.payloadToSign), requestId: first.requestId })))
}

const walletOf = async (w: World, customerId: string) =>
  (await w.engine.as(w.platform).internalAccounts.list({ customerId })).data[0]?.id as string | undefined

const apply = async (w: World, s: Step): Promise<void> => {
  const api = w.engine.as(w.platform)
  switch (s._tag) {
    case "Customer": {
      const common = { ...(s.pcid === null ? {} : { platformCustomerId: `pc-${s.pcid}` }), ...(s.email ? { email: `u${w.customers.length}@example.com` } : {}) }
      const input = s.business
        ? { customerType: "BUSINESS" as const, ...common, businessInfo: { legalName: "Acme", country: "US", taxId: "47-1234567", incorporatedOn: "2018-03-14" } }
        : { customerType: "INDIVIDUAL" as const, ...common, fullName: `Person ${s.suffix}` }
      const c = await attempt(api.customers.create(input))
      if (c !== undefined) w.customers.push({ id: c.id, business: s.business, email: s.email })
      return
    }
    case "Update": {
      const c = pick(w.customers, s.which)
      if (c !== undefined) await attempt(api.customers.update(c.id, { customerType: c.business ? "BUSINESS" : "INDIVIDUAL", phoneNumber: `+1415555${String(s.phone).padStart(4, "0")}` }))
      return
    }
    case "Delete": {
      const c = pick(w.customers, s.which)
      if (c !== undefined) await attempt(api.customers.delete(c.id))
      return
    }
    case "Bank": {
      const c = s.which === null ? undefined : pick(w.customers, s.which)
      const input = { ...usd(`55500${String(s.account).padStart(4, "0")}`), ...(c === undefined ? {} : { customerId: c.id }) }
      const a = await attempt((c === undefined ? api.platform.createExternalAccount(input) : api.externalAccounts.create(input)))
      if (a !== undefined) w.externals.push(body(a).id)
      return
    }
    case "DeleteExternal": {
      const id = pick(w.externals, s.which)
      if (id !== undefined) for (const remove of [api.externalAccounts.delete, api.platform.deleteExternalAccount]) await attempt(remove(id))
      return
    }
    case "Wallet": {
      const a = body(await attempt(api.platform.createExternalAccount(wallet("ETHEREUM_WALLET", evmSigner().address))))
      if (a === undefined) return
      w.externals.push(a.id)
      if (!s.liveness) return
      await attempt(api.platform.challengeExternalAccount(a.id, { method: "LIVENESS" }))
      if (s.decide) await attempt(api.externalAccounts.decideLiveness(a.id, { outcome: "PASSED" }))
      return
    }
    case "Login": {
      const c = pick(w.customers.filter((x) => x.email), s.which)
      const accountId = c === undefined ? undefined : await walletOf(w, c.id)
      if (accountId === undefined) return
      const cred = (await api.walletAuth.listCredentials({ accountId })).data.find((a: { type: string }) => a.type === "EMAIL_OTP")
      if (cred === undefined) return
      // Past the challenge rate limit; an incomplete login leaves its OTP issued.
      await advance(w, 31)
      const ch = body(await attempt(api.walletAuth.challengeCredential(cred.id)))
      if (ch === undefined || !s.complete) return
      const tek = newKeyPair()
      const verify = { type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(ch.otpEncryptionTargetBundle, "000000", tek) }
      const first = body(await attempt(api.walletAuth.verifyCredential(cred.id, verify)))
      if (first?.requestId === undefined) return
      const session = body(await attempt(api.walletAuth.verifyCredential(cred.id, verify, { signature: stamp(tek, first.payloadToSign), requestId: first.requestId })))
      if (session?.id !== undefined) w.sessions.push({ id: session.id, key: tek, accountId })
      return
    }
    case "LoginPasskey": {
      const [credentialId, pk] = pick([...w.passkeys], s.which) ?? []
      if (credentialId === undefined || pk === undefined) return
      await advance(w, 31)
      const client = newKeyPair()
      const ch = body(await attempt(api.walletAuth.challengeCredential(credentialId, { clientPublicKey: client.publicKey })))
      if (ch?.challenge === undefined || !s.complete) return
      const session = body(await attempt(api.walletAuth.verifyCredential(credentialId, { type: "PASSKEY" as const, assertion: pk.assert(ch.challenge) }, { signature: undefined, requestId: ch.requestId })))
      if (session?.id !== undefined) w.sessions.push({ id: session.id, key: client, accountId: session.accountId })
      return
    }
    case "AddPasskey":
    case "AddSms":
    case "RevokeCredential":
    case "RevokeSession": {
      const signer = pick(w.sessions, s.signWith)
      if (signer === undefined) return
      const accountId = signer.accountId
      if (s._tag === "AddPasskey") {
        const pk = new SoftwarePasskey({ origin: "https://w.example.com", rpId: "w.example.com" })
        const challenge = Buffer.from(`c${s.which}-${w.sessions.length}`).toString("base64url")
        const input = { type: "PASSKEY" as const, accountId, nickname: "key", challenge, attestation: pk.register(challenge) }
        const created = await signed((h) => api.walletAuth.createCredential(input, h), signer.key)
        if (created?.id !== undefined) w.passkeys.set(created.id, pk)
        return
      }
      if (s._tag === "AddSms") return signed((h) => api.walletAuth.createCredential({ type: "SMS_OTP", accountId }, h), signer.key)
      if (s._tag === "RevokeSession") {
        const target = pick(w.sessions.filter((x) => x.accountId === accountId), s.which)
        return target === undefined ? undefined : signed((h) => api.walletAuth.revokeSession(target.id, h), signer.key)
      }
      const cred = pick((await api.walletAuth.listCredentials({ accountId })).data, s.which)
      return cred === undefined ? undefined : signed((h) => api.walletAuth.revokeCredential(cred.id, h), signer.key)
    }
    case "Hold": {
      const c = s.which === null ? undefined : pick(w.customers, s.which)
      const accountId = c === undefined ? undefined : await walletOf(w, c.id)
      const hold = { operations: s.operations, seconds: 60 }
      await attempt(accountId === undefined ? api.sandbox.holdPlatformOperations(hold) : api.sandbox.holdAccountOperations(accountId, hold))
      return
    }
    case "Advance":
      return void (await advance(w, s.seconds))
  }
}

const dir = mkdtempSync(join(tmpdir(), "tessera-state-prop-"))
let files = 0
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const stores: ReadonlyArray<readonly [string, () => Layer.Layer<Store>, number]> = [
  ["memory", () => MemoryStore.layer, 80],
  ["sqlite", () => SqliteStore.layer({ filename: join(dir, `w${files++}.sqlite`) }), 25]
]

describe.each(stores)("export → import → export on random worlds (%s store)", (_kind, layer, numRuns) => {
  it("gives the same document, and the imported engine lists the same", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbStep, { minLength: 3, maxLength: 30 }), async (steps) => {
        const source = makeEngine({ store: layer(), clock: "virtual" })
        const target = makeEngine({ store: layer(), clock: "virtual" })
        try {
          const platform = await source.platform({ clientId: "source", clientSecret: "s" })
          const w: World = { engine: source, platform, customers: [], externals: [], sessions: [], passkeys: new Map() }
          for (const s of steps) await apply(w, s)
          const doc = await source.as(platform).sandbox.exportState()
          const other = await target.platform({ clientId: "target", clientSecret: "t" })
          await target.as(other).sandbox.importState(doc as typeof StateDocument.Encoded)
          expect(content(await target.as(other).sandbox.exportState())).toEqual(content(doc))
          const [from, to] = [source.as(platform), target.as(other)]
          const all = { isIncludingDeleted: "true" as const, limit: "100" }
          expect(await to.customers.list(all)).toEqual(await from.customers.list(all))
          expect(await to.internalAccounts.list({ limit: "100" })).toEqual(await from.internalAccounts.list({ limit: "100" }))
          expect(await to.platform.listExternalAccounts({ limit: "100" })).toEqual(await from.platform.listExternalAccounts({ limit: "100" }))
        } finally {
          await source.dispose()
          await target.dispose()
        }
      }),
      { numRuns }
    )
  }, 120_000)
})
