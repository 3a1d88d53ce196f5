import { Clock, Effect, Either } from "effect"
import { DelegatedKeys } from "../../domain/collections.ts"
import { type DelegatedKeyRecord, DelegatedKeyCreate, DelegatedKeyListQuery, delegatedKeyView } from "../../domain/delegated-keys/delegated-key.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { NO_CONTENT, reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { activeKeyExists, delegatedKeyMachine } from "../../machines/delegated-key.ts"
import { MAX_LIMIT } from "../../limits.ts"
import { Ids } from "../../ports/ids.ts"
import { type Page, Store } from "../../ports/store.ts"
import { accountSession } from "../../signed-retry/authorize.ts"
import { activityPayload, bodySha256 } from "../../signed-retry/canonical.ts"
import { reconcileAccount } from "../common/reconcile.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { issueNextLeg, type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { custodiedKeyPair, loadDelegatedKey } from "./custody.ts"
import { resolveFundingSource } from "./funding-source.ts"

/**
 * The bound input of each signed leg of a creation (DECISIONS #262): the first creates the
 * signer identity (a PENDING key), the second grants its policy (ACTIVE). One signed operation
 * with the step in its input, so a retry of either leg is judged and settled the same way.
 */
type CreateLeg =
  | {
      readonly step: "CREATE_USER"
      readonly delegatedKeyId: string
      readonly cardId: string
      readonly accountId: string
      readonly fundingSourceId: string
      readonly nickname: string
      readonly bodySha256: string
      readonly path: string
    }
  | { readonly step: "CREATE_POLICY"; readonly delegatedKeyId: string }

const KIND = "createDelegatedKey"
const decodeCreate = decodeInput(DelegatedKeyCreate)
const decodeList = decodeInput(DelegatedKeyListQuery)

/** 409 when the funding source already has an ACTIVE key; checked at every leg. */
const noActiveKey = (platform: PlatformRecord, fundingSourceId: string) =>
  Effect.gen(function* () {
    const active = yield* (yield* Store).findBy(DelegatedKeys, platform.id, "activeFundingSource", fundingSourceId)
    if (active.length > 0) return yield* activeKeyExists(active[0]!.id)
  })

export const createDelegatedKeyOp = defineSignedOperation(KIND, (platform: PlatformRecord, leg: CreateLeg) =>
  Effect.gen(function* () {
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    if (leg.step === "CREATE_USER") {
      // The card may have been closed, or the wallet taken off it, since the challenge.
      yield* resolveFundingSource(platform, leg.cardId, leg.accountId)
      yield* noActiveKey(platform, leg.fundingSourceId)
      const pair = yield* custodiedKeyPair(leg.delegatedKeyId)
      const record: DelegatedKeyRecord = {
        id: leg.delegatedKeyId,
        cardId: leg.cardId,
        fundingSourceId: leg.fundingSourceId,
        accountId: leg.accountId,
        publicKey: pair.publicKey,
        nickname: leg.nickname,
        status: "PENDING",
        createdAt: rfc3339(now),
        updatedAt: rfc3339(now)
      }
      yield* store.put(DelegatedKeys, platform.id, record)
      return yield* issueNextLeg(platform, {
        accountId: leg.accountId,
        method: "POST",
        path: leg.path,
        bodySha256: leg.bodySha256,
        kind: KIND,
        input: { step: "CREATE_POLICY", delegatedKeyId: record.id } satisfies CreateLeg,
        payload: (requestId, nowMs) =>
          activityPayload({
            type: "ACTIVITY_TYPE_CREATE_POLICIES",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { walletId: leg.accountId, delegatedKeyId: record.id, fundingSourceId: leg.fundingSourceId, publicKey: record.publicKey, grants: ["SIGN_RAW_PAYLOAD", "DELETE_SELF"] }
          })
      })
    }
    const key = yield* loadDelegatedKey(platform, leg.delegatedKeyId)
    yield* resolveFundingSource(platform, key.cardId, key.accountId)
    const active = yield* store.findBy(DelegatedKeys, platform.id, "activeFundingSource", key.fundingSourceId)
    const step = yield* delegatedKeyMachine(key, active.length > 0 ? { _tag: "Activate", activeKeyId: active[0]!.id } : { _tag: "Activate" }, now)
    const activated: DelegatedKeyRecord = { ...key, status: step.state.status, updatedAt: rfc3339(now) }
    yield* store.put(DelegatedKeys, platform.id, activated)
    return reply(201, delegatedKeyView(activated))
  })
)

/**
 * POST /auth/delegated-keys: three legs with the same body (202, 202, 201), each retry stamped
 * by a session on the wallet. The first call checks everything a later leg could refuse.
 */
export const createDelegatedKey = (platform: PlatformRecord, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const decoded = decodeCreate(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const input = decoded.right
    return yield* signedRetry({
      platform,
      accountId: input.internalAccountId,
      ...target,
      body,
      headers,
      operation: createDelegatedKeyOp,
      signer: () => accountSession(),
      prepare: Effect.gen(function* () {
        const source = yield* resolveFundingSource(platform, input.cardId, input.internalAccountId)
        yield* noActiveKey(platform, source.fundingSourceId)
        const delegatedKeyId = makeId("DelegatedKey", yield* (yield* Ids).uuid)
        const publicKey = (yield* custodiedKeyPair(delegatedKeyId)).publicKey
        const leg: CreateLeg = { step: "CREATE_USER", delegatedKeyId, ...source, nickname: input.nickname, bodySha256: bodySha256(body), path: target.path }
        return {
          input: leg,
          payload: (requestId: string, nowMs: number) =>
            activityPayload({
              type: "ACTIVITY_TYPE_CREATE_USERS",
              organizationId: platform.id,
              requestId,
              nowMs,
              parameters: { walletId: source.accountId, userName: input.nickname, apiKeys: [{ publicKey, curveType: "API_KEY_CURVE_P256" }] }
            })
        }
      })
    })
  })

/** GET /auth/delegated-keys: a wallet's keys, a funding source's, or both filters at once; oldest first. */
export const listDelegatedKeys = (platform: PlatformRecord, query: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeList(query ?? {})
    if (Either.isLeft(decoded)) return yield* decoded.left
    const { accountId, fundingSourceId } = decoded.right
    if (accountId === undefined && fundingSourceId === undefined)
      return yield* invalidInput([
        { field: "accountId", message: "or fundingSourceId is required" },
        { field: "fundingSourceId", message: "or accountId is required" }
      ])
    // A held creation leg whose hold has passed settles first, as for credentials and sessions.
    if (accountId !== undefined) yield* reconcileAccount(platform, accountId)
    // Not paged in the reference: every match, in creation (listing) order.
    const store = yield* Store
    const where = [
      ...(accountId === undefined ? [] : [{ index: "accountId", eq: accountId }]),
      ...(fundingSourceId === undefined ? [] : [{ index: "fundingSourceId", eq: fundingSourceId }])
    ]
    const data: Array<DelegatedKeyRecord> = []
    for (let afterSeq: number | undefined = undefined; ; ) {
      const page: Page<DelegatedKeyRecord> = yield* store.list(DelegatedKeys, platform.id, { where, limit: MAX_LIMIT, ...(afterSeq === undefined ? {} : { afterSeq }) })
      data.push(...page.items)
      if (!page.hasMore || page.lastSeq === undefined) break
      afterSeq = page.lastSeq
    }
    return { data: data.map(delegatedKeyView) }
  })

/** GET /auth/delegated-keys/{id}. */
export const getDelegatedKey = (platform: PlatformRecord, id: string) => Effect.map(loadDelegatedKey(platform, id), delegatedKeyView)

/** DELETE /auth/delegated-keys/{id}: ACTIVE → REVOKED (204); from then on the key signs nothing. */
export const revokeDelegatedKey = (platform: PlatformRecord, id: string) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const key = yield* loadDelegatedKey(platform, id)
        const now = yield* Clock.currentTimeMillis
        const step = yield* delegatedKeyMachine(key, { _tag: "Revoke" }, now)
        yield* store.put(DelegatedKeys, platform.id, { ...key, status: step.state.status, updatedAt: rfc3339(now) })
        return NO_CONTENT
      })
    )
  )
