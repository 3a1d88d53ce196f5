import { Clock, Effect, Either, Option } from "effect"
import { AuthMethods, Customers, Sessions } from "../../domain/collections.ts"
import type { AuthMethodRecord, CredentialType } from "../../domain/wallet-auth/auth-method.ts"
import { authMethodView } from "../../domain/wallet-auth/auth-method.ts"
import { MissingMandatoryUserInfo } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { NO_CONTENT, reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { CredentialCreate, decodeByType } from "../../domain/wallet-auth/inputs.ts"
import { type CredentialSet, credentialSet, lastCredentialRefusal, uniquenessRefusal } from "../../machines/credential-set.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { accountSession } from "../../signed-retry/authorize.ts"
import { activityPayload } from "../../signed-retry/canonical.ts"
import { reconcileAccount } from "../common/reconcile.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { boundAccount, type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { oauthIdentityFromToken } from "./oauth.ts"
import { issueOtp } from "./otp.ts"
import { registerPasskey } from "./passkey.ts"
import { credentialsOf, loadCredential, loadWallet } from "./wallet-context.ts"

/** What a new credential will be, checked at the first call and re-checked when it is created. */
type NewCredential = Pick<AuthMethodRecord, "accountId" | "type" | "nickname" | "email" | "phoneNumber" | "credentialId" | "passkey" | "oauth">

const decodeCreate = decodeByType(CredentialCreate)

/** The credential rules (spec "Credential rules"): one EMAIL_OTP, one SMS_OTP, distinct passkeys and identities. */
const checkUnique = (existing: ReadonlyArray<AuthMethodRecord>, c: NewCredential) => {
  const refusal = uniquenessRefusal(existing, c)
  return refusal === undefined ? Effect.void : Effect.fail(refusal)
}

/** Writes what a credential-set transition changed: new credentials, revoked ones, ended sessions. */
const saveSet = (platform: PlatformRecord, before: CredentialSet) => (after: CredentialSet) =>
  Effect.gen(function* () {
    const store = yield* Store
    const kept = new Set(after.credentials.map((c) => c.id))
    for (const c of before.credentials) if (!kept.has(c.id)) yield* store.remove(AuthMethods, platform.id, c.id)
    for (const c of after.credentials) if (!before.credentials.includes(c)) yield* store.put(AuthMethods, platform.id, c)
    for (const s of after.sessions) if (!before.sessions.includes(s)) yield* store.put(Sessions, platform.id, s)
  })

/** Validates a create body into the credential it describes (first call only). */
const describe = (platform: PlatformRecord, body: unknown): Effect.Effect<NewCredential, unknown, Store> =>
  Effect.gen(function* () {
    const decoded = decodeCreate(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const input = decoded.right
    const wallet = yield* loadWallet(platform, input.accountId)
    const customer = wallet.customerId === undefined ? Option.none() : yield* (yield* Store).get(Customers, platform.id, wallet.customerId)
    const base = { accountId: wallet.id, type: input.type }
    switch (input.type) {
      case "EMAIL_OTP": {
        const email = Option.isSome(customer) ? customer.value.email : undefined
        if (email === undefined) return yield* new MissingMandatoryUserInfo({ message: "The customer has no email on file", details: { field: "email" } })
        return { ...base, nickname: email, email } satisfies NewCredential
      }
      case "SMS_OTP": {
        const phone = Option.isSome(customer) ? customer.value.phoneNumber : undefined
        if (phone === undefined)
          return yield* new MissingMandatoryUserInfo({ message: "The customer has no phone number on file", details: { field: "phoneNumber" } })
        return { ...base, nickname: phone, phoneNumber: phone } satisfies NewCredential
      }
      case "OAUTH": {
        const identity = yield* oauthIdentityFromToken(input.oidcToken)
        const { email, ...oauth } = identity
        return { ...base, nickname: email ?? identity.sub, oauth } satisfies NewCredential
      }
      case "PASSKEY": {
        const passkey = yield* registerPasskey(input)
        const { credentialId, ...key } = passkey
        return { ...base, nickname: input.nickname.trim(), credentialId, passkey: key } satisfies NewCredential
      }
    }
  })

/** Creates the credential (re-checking the rules, which may have changed since the challenge). */
export const createCredentialOp = defineSignedOperation("createCredential", (platform: PlatformRecord, c: NewCredential) =>
  Effect.gen(function* () {
    const existing = yield* credentialsOf(platform, c.accountId)
    yield* checkUnique(existing, c)
    const nowMs = yield* Clock.currentTimeMillis
    const now = rfc3339(nowMs)
    const wallet = yield* loadWallet(platform, c.accountId)
    const record: AuthMethodRecord = {
      ...c,
      id: makeId("AuthMethod", yield* (yield* Ids).uuid),
      ...(wallet.customerId === undefined ? {} : { customerId: wallet.customerId }),
      createdAt: now,
      updatedAt: now
    }
    const before: CredentialSet = { credentials: existing, sessions: [] }
    const added = yield* credentialSet(before, { _tag: "Add", credential: record }, nowMs)
    yield* saveSet(platform, before)(added.state)
    // The first EMAIL_OTP of a wallet gets its OTP from /challenge (bootstrap); later ones at once.
    const otp = (c.type === "EMAIL_OTP" || c.type === "SMS_OTP") && existing.length > 0 ? yield* issueOtp(platform, record) : undefined
    return reply(201, otp === undefined ? authMethodView(record) : { ...authMethodView(record), otpEncryptionTargetBundle: otp })
  })
)

const createActivity: Record<CredentialType, string> = {
  EMAIL_OTP: "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
  SMS_OTP: "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
  OAUTH: "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
  PASSKEY: "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2"
}

/**
 * POST /auth/credentials. With no credential on the account the first call creates it (201,
 * the bootstrap case); otherwise it is a signed retry approved by an active session (202 → 201).
 */
export const createCredential = (platform: PlatformRecord, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const decoded = decodeCreate(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const wallet = yield* loadWallet(platform, decoded.right.accountId)
    const existing = yield* credentialsOf(platform, wallet.id)
    if (existing.length === 0 && headers.signature === undefined && headers.requestId === undefined)
      return yield* (yield* Store).transaction(Effect.flatMap(describe(platform, body), (c) => createCredentialOp.run(platform, c)))
    return yield* signedRetry({
      platform,
      accountId: wallet.id,
      ...target,
      body,
      headers,
      operation: createCredentialOp,
      signer: () => accountSession(),
      prepare: Effect.gen(function* () {
        const c = yield* describe(platform, body)
        yield* checkUnique(existing, c)
        return {
          input: c,
          type: c.type,
          payload: (requestId: string, nowMs: number) =>
            activityPayload({
              type: createActivity[c.type],
              organizationId: platform.id,
              requestId,
              nowMs,
              parameters: { userId: wallet.id, credential: { type: c.type, nickname: c.nickname, ...(c.credentialId === undefined ? {} : { credentialId: c.credentialId }) } }
            })
        }
      })
    })
  })

/** GET /auth/credentials?accountId=: every credential of the account (empty when unknown). */
export const listCredentials = (platform: PlatformRecord, query: Record<string, string>) =>
  Effect.gen(function* () {
    const accountId = query["accountId"]
    if (accountId === undefined || !isId("InternalAccount", accountId))
      return yield* invalidInput([{ field: "accountId", message: "is required: an InternalAccount:<uuid> id" }])
    yield* reconcileAccount(platform, accountId)
    return { data: (yield* credentialsOf(platform, accountId)).map(authMethodView) }
  })

export const revokeCredentialOp = defineSignedOperation("revokeCredential", (platform: PlatformRecord, input: { readonly credentialId: string }) =>
  Effect.gen(function* () {
    const credential = yield* loadCredential(platform, input.credentialId)
    const before: CredentialSet = {
      credentials: yield* credentialsOf(platform, credential.accountId),
      sessions: yield* (yield* Store).findBy(Sessions, platform.id, "accountId", credential.accountId)
    }
    // Revoking a credential revokes every session it issued (spec "Credential rules").
    const revoked = yield* credentialSet(before, { _tag: "Revoke", credentialId: credential.id }, yield* Clock.currentTimeMillis)
    yield* saveSet(platform, before)(revoked.state)
    return NO_CONTENT
  })
)

/** DELETE /auth/credentials/{id}: stamped by a session of another credential (202 → 204). */
export const revokeCredential = (platform: PlatformRecord, id: string, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    // A retry is judged by its request id alone: the credential may be gone by then.
    const bound = yield* boundAccount(platform, headers)
    const credential = Option.isSome(bound) ? undefined : yield* loadCredential(platform, id)
    const refusal = credential === undefined ? undefined : lastCredentialRefusal(yield* credentialsOf(platform, credential.accountId))
    if (refusal !== undefined) return yield* refusal
    return yield* signedRetry({
      platform,
      accountId: Option.getOrElse(bound, () => credential!.accountId),
      ...target,
      body: undefined,
      headers,
      operation: revokeCredentialOp,
      signer: (input) => accountSession(input.credentialId),
      prepare: Effect.sync(() => ({
        input: { credentialId: id },
        type: credential!.type,
        payload: (requestId: string, nowMs: number) =>
          activityPayload({
            type: "ACTIVITY_TYPE_DELETE_AUTHENTICATORS",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { authenticatorIds: [id], userId: credential!.accountId }
          })
      }))
    })
  })

