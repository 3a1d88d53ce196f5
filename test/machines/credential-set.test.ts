import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { type CredentialSet, credentialSet, endedBy } from "../../packages/core/src/machines/credential-set.ts"
import { openedSession } from "../../packages/core/src/machines/session.ts"
import type { AuthMethodRecord, CredentialType } from "../../packages/core/src/domain/wallet-auth/auth-method.ts"

const T0 = Date.UTC(2026, 0, 1)

type Step =
  | { readonly _tag: "Add"; readonly type: CredentialType; readonly identity: number }
  | { readonly _tag: "Revoke"; readonly pick: number }
  | { readonly _tag: "Open"; readonly pick: number }

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant("Add" as const), type: fc.constantFrom<CredentialType>("EMAIL_OTP", "SMS_OTP", "PASSKEY", "OAUTH"), identity: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ _tag: fc.constant("Revoke" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("Open" as const), pick: fc.nat() })
)

let counter = 0
const credential = (type: CredentialType, identity: number): AuthMethodRecord => {
  const id = `AuthMethod:${++counter}`
  return {
    id,
    accountId: "InternalAccount:1",
    type,
    nickname: `${type}-${identity}`,
    ...(type === "PASSKEY" ? { credentialId: `cred-${identity}` } : {}),
    ...(type === "OAUTH" ? { oauth: { iss: "https://issuer", aud: "app", sub: `user-${identity}` } } : {}),
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z"
  } as AuthMethodRecord
}

const identities = (set: CredentialSet, type: CredentialType) =>
  set.credentials.filter((c) => c.type === type).map((c) => (type === "PASSKEY" ? c.credentialId : type === "OAUTH" ? c.oauth?.sub : type))

describe("credential-set machine", () => {
  it("never loses its last credential, keeps the credential rules, and a revocation ends exactly the sessions that credential opened", () => {
    fc.assert(
      fc.property(arbStep.filter((s) => s._tag === "Add"), fc.array(arbStep, { maxLength: 30 }), (first, steps) => {
        const start = credential((first as { type: CredentialType }).type, 0)
        let set: CredentialSet = { credentials: [start], sessions: [] }
        let now = T0
        for (const step of steps) {
          now += 1000
          if (step._tag === "Open") {
            const c = set.credentials[step.pick % set.credentials.length]!
            const s = openedSession({ id: `Session:${++counter}`, accountId: c.accountId, authMethodId: c.id, type: c.type, nickname: c.nickname, publicKey: "02ab" }, now)
            set = { ...set, sessions: [...set.sessions, s] }
            continue
          }
          const event =
            step._tag === "Add"
              ? { _tag: "Add" as const, credential: credential(step.type, step.identity) }
              : { _tag: "Revoke" as const, credentialId: set.credentials[step.pick % set.credentials.length]!.id }
          const r = credentialSet(set, event, now)
          if (Either.isLeft(r)) {
            if (event._tag === "Revoke") expect(set.credentials).toHaveLength(1)
            else expect([400]).toContain(r.left.status)
            continue
          }
          const next = r.right.state
          expect(r.right.emit).toEqual([])
          if (event._tag === "Revoke") {
            const ending = endedBy(set.sessions, event.credentialId).map((s) => s.id)
            for (const s of next.sessions) {
              const was = set.sessions.find((p) => p.id === s.id)!
              if (ending.includes(s.id)) expect(s.revokedAt).toBeDefined()
              else expect(s).toBe(was)
            }
            expect(next.sessions.filter((s) => s.authMethodId === event.credentialId && s.revokedAt === undefined)).toEqual([])
          }
          set = next
        }
        expect(set.credentials.length).toBeGreaterThanOrEqual(1)
        for (const type of ["EMAIL_OTP", "SMS_OTP", "PASSKEY", "OAUTH"] as const) {
          const ids = identities(set, type)
          expect(new Set(ids).size).toBe(ids.length)
        }
      })
    )
  })

  it("the refusals keep today's codes", () => {
    const email = credential("EMAIL_OTP", 0)
    const one: CredentialSet = { credentials: [email], sessions: [] }
    const r = credentialSet(one, { _tag: "Revoke", credentialId: email.id }, T0)
    expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "INVALID_INPUT", message: "An account always keeps at least one credential" })
    const codes = (["EMAIL_OTP", "SMS_OTP", "PASSKEY", "OAUTH"] as const).map((type) => {
      const c = credential(type, 1)
      const twice = credentialSet({ credentials: [email, c], sessions: [] }, { _tag: "Add", credential: credential(type, 1) }, T0)
      return Either.isLeft(twice) ? twice.left._tag : "accepted"
    })
    expect(codes).toEqual(["EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS", "SMS_OTP_CREDENTIAL_ALREADY_EXISTS", "PASSKEY_CREDENTIAL_ALREADY_EXISTS", "INVALID_INPUT"])
  })
})
