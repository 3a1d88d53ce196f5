import { Clock, Effect, Option } from "effect"
import { ProcessingControls, SignedRequests } from "../domain/collections.ts"
import { RequestIdMissing, WalletSignatureMissing } from "../domain/errors.ts"
import type { CredentialType } from "../domain/wallet-auth/auth-method.ts"
import { isId, makeId } from "../domain/ids.ts"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import { reply, type Reply } from "../domain/reply.ts"
import { rfc3339 } from "../domain/time.ts"
import type { SignedRequestRecord } from "../domain/wallet-auth/records.ts"
import { sha256Hex } from "../crypto/secrets.ts"
import { parseStamp, stampSigns } from "../crypto/stamp.ts"
import { Ids } from "../ports/ids.ts"
import { Keys } from "../ports/keys.ts"
import { Store } from "../ports/store.ts"
import { type SignerRule, signerAllowed } from "./authorize.ts"
import { bodySha256 } from "./canonical.ts"
import { type SignedOperation } from "./registry.ts"
import type { SignedTarget } from "./target.ts"
import { SANDBOX_WALLET_SIGNATURE } from "../sandbox/literals.ts"
import { checkRetry as checkSignedRetry, issued, requestIdUnknown, retryRoute, type SignatureCheck, signedRequest, signerNotAuthorised } from "../machines/signed-request.ts"

/** The two headers of a signed retry; `Grid-Wallet-Signature` is the reference's alias (DECISIONS #2). */
export interface SignedHeaders {
  readonly signature: string | undefined
  readonly requestId: string | undefined
}

/** What the first call binds: the operation's input, the 202's `type`, and the string to stamp. */
export interface Binding<I> {
  readonly input: I
  readonly type?: CredentialType
  readonly payload: (requestId: string, nowMs: number) => string
  /** Writes that must commit with the challenge (an OTP issuance is spent by it), or fail it. */
  readonly commit?: Effect.Effect<void, unknown, Store>
}

/** `method` and `path` come from the signed endpoint's declaration (SignedTarget). */
export interface SignedCall<I, E, R> extends SignedTarget {
  readonly platform: PlatformRecord
  readonly accountId: string
  readonly body: unknown
  readonly headers: SignedHeaders
  readonly operation: SignedOperation<I>
  /** Who may sign, given the bound input (an OTP verify binds the TEK it decrypted). */
  readonly signer: (input: I) => SignerRule
  /** First call only: validates the request and says what to bind. */
  readonly prepare: Effect.Effect<Binding<I>, E, R>
}

export const PROCESSING_BODY = {
  status: "PROCESSING",
  message: "This operation is still being processed. Re-send the same request in a moment."
} as const

/** First call: a challenge bound to this method, path, body and account (202). */
const issue = <I, E, R>(call: SignedCall<I, E, R>) =>
  Effect.gen(function* () {
    const binding = yield* call.prepare
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    const requestId = makeId("Request", yield* (yield* Ids).uuid)
    const payloadToSign = binding.payload(requestId, now)
    const record: SignedRequestRecord = issued({
      id: requestId,
      accountId: call.accountId,
      method: call.method,
      path: call.path,
      bodySha256: bodySha256(call.body),
      payloadToSign,
      ...(binding.type === undefined ? {} : { type: binding.type }),
      kind: call.operation.kind,
      input: binding.input,
      createdAt: rfc3339(now)
    }, now)
    yield* store.transaction(Effect.zipRight(binding.commit ?? Effect.void, store.put(SignedRequests, call.platform.id, record)))
    return reply(202, {
      ...(binding.type === undefined ? {} : { type: binding.type }),
      payloadToSign,
      requestId,
      expiresAt: rfc3339(record.expiresAtMs)
    })
  })

/**
 * The next challenge of a flow of several signed legs (a delegated key's creation, DECISIONS
 * #262), issued by the settled leg in its own transaction: bound like the first to the same
 * account, method, path and body, so the client re-sends the same request with the new id.
 */
export const issueNextLeg = (
  platform: PlatformRecord,
  leg: {
    readonly accountId: string
    readonly method: string
    readonly path: string
    readonly bodySha256: string
    readonly kind: string
    readonly input: unknown
    readonly payload: (requestId: string, nowMs: number) => string
  }
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const requestId = makeId("Request", yield* (yield* Ids).uuid)
    const payloadToSign = leg.payload(requestId, now)
    const record = issued(
      { id: requestId, accountId: leg.accountId, method: leg.method, path: leg.path, bodySha256: leg.bodySha256, payloadToSign, kind: leg.kind, input: leg.input, createdAt: rfc3339(now) },
      now
    )
    yield* (yield* Store).put(SignedRequests, platform.id, record)
    return reply(202, { payloadToSign, requestId, expiresAt: rfc3339(record.expiresAtMs) })
  })

/** The checks of a retry that need no state change: every 401 of the spec, in a fixed order. */
const checkRetry = <I, E, R>(call: SignedCall<I, E, R>, record: SignedRequestRecord, signature: string, now: number) =>
  Effect.gen(function* () {
    const stamp = (bound: SignedRequestRecord): SignatureCheck => {
      // The legacy literal skips the ECDSA check (DECISIONS #19), never where one key is required.
      if (signature === SANDBOX_WALLET_SIGNATURE && call.signer(bound.input as I)._tag !== "Key") return { _tag: "LegacyLiteral" }
      const parsed = parseStamp(signature)
      if (!parsed.ok) return { _tag: "Malformed", reason: parsed.reason }
      return stampSigns(parsed.stamp, bound.payloadToSign) ? { _tag: "Signed", publicKey: parsed.stamp.publicKey } : { _tag: "Invalid" }
    }
    const retry = { accountId: call.accountId, method: call.method, path: call.path, bodySha256: bodySha256(call.body), signature: stamp }
    const publicKey = yield* checkSignedRetry(record, retry, now)
    if (publicKey !== undefined && !(yield* signerAllowed(call.platform, call.accountId, call.signer(record.input as I), publicKey, now)))
      return yield* signerNotAuthorised()
  })

/**
 * Holds the operation when a sandbox PROCESSING control applies to this account or platform;
 * answers the hold, or undefined to run now.
 */
const holdIfControlled = (platform: PlatformRecord, record: SignedRequestRecord, stampSha256: string, now: number) =>
  Effect.gen(function* () {
    const store = yield* Store
    for (const id of [record.accountId, "platform"]) {
      const control = yield* store.get(ProcessingControls, platform.id, id)
      if (Option.isNone(control) || control.value.remaining <= 0) continue
      yield* store.put(ProcessingControls, platform.id, { ...control.value, remaining: control.value.remaining - 1 })
      yield* store.put(SignedRequests, platform.id, (yield* signedRequest(record, { _tag: "Hold", stampSha256, holdMs: control.value.holdMs }, now)).state)
      return reply(200, PROCESSING_BODY)
    }
    return undefined
  })

/** Runs a bound operation and consumes its request id, in the caller's transaction. */
export const settle = (platform: PlatformRecord, record: SignedRequestRecord, operation: SignedOperation<unknown>) =>
  Effect.gen(function* () {
    const store = yield* Store
    const result = yield* operation.run(platform, record.input)
    const consumed = yield* signedRequest(record, { _tag: "Consume" }, yield* Clock.currentTimeMillis)
    yield* store.put(SignedRequests, platform.id, consumed.state)
    return result
  })

/**
 * The one signed-retry mechanism (spec "Signed-retry challenge lifecycle"). Without headers:
 * issue a challenge. With both: verify, then consume the request id and run the operation in
 * one transaction, so concurrent identical retries run it once. Every failure leaves the
 * challenge as it was.
 */
export const signedRetry = <I, E, R>(call: SignedCall<I, E, R>): Effect.Effect<Reply, unknown, Store | Ids | Keys | R> => {
  const { signature, requestId } = call.headers
  if (signature === undefined && requestId === undefined) return issue(call)
  if (requestId === undefined)
    return Effect.fail(new RequestIdMissing({ message: "Request-Id is required with Service-Wallet-Signature", details: {} }))
  if (signature === undefined)
    return Effect.fail(new WalletSignatureMissing({ message: "Service-Wallet-Signature is required on the signed retry", details: {} }))
  if (!isId("Request", requestId)) return Effect.fail(requestIdUnknown())
  return Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* store.get(SignedRequests, call.platform.id, requestId)
        if (Option.isNone(found)) return yield* requestIdUnknown()
        const record = found.value
        yield* checkRetry(call, record, signature, now)
        const stampSha256 = sha256Hex(signature)
        const route = yield* retryRoute(record, stampSha256, now)
        if (route._tag === "Replay") return reply(route.reply.status, route.reply.body)
        if (route._tag === "StillProcessing") return reply(200, PROCESSING_BODY)
        const held = route.mayHold ? yield* holdIfControlled(call.platform, record, stampSha256, now) : undefined
        if (held !== undefined) return held
        return yield* settle(call.platform, record, call.operation as SignedOperation<unknown>)
      })
    )
  )
}

/**
 * On a retry, the account the request id was bound to. Endpoints whose resource the operation
 * removes (revoking a credential or session) resolve the account this way, so that re-using a
 * spent request id answers 401 as the spec says, not 404 for the resource it removed.
 */
export const boundAccount = (platform: PlatformRecord, headers: SignedHeaders) =>
  headers.signature === undefined || headers.requestId === undefined || !isId("Request", headers.requestId)
    ? Effect.succeed(Option.none<string>())
    : Effect.map(
        Effect.flatMap(Store, (store) => store.get(SignedRequests, platform.id, headers.requestId!)),
        Option.map((r) => r.accountId)
      )
