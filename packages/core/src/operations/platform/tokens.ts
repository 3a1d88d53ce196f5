import { Clock, Effect, Option, Schema } from "effect"
import { ApiTokens } from "../../domain/collections.ts"
import { DateTimeString, NonEmpty, optional } from "../../domain/common.ts"
import { TokenNotFound } from "../../domain/errors.ts"
import { decodeBody, invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import { ApiTokenCreate, type ApiTokenRecord, apiTokenView } from "../../domain/platform/api-token.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { hashSecret } from "../../crypto/secrets.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { MAX_TOKENS_PER_PLATFORM, TOKEN_CLIENT_ID_BYTES, TOKEN_SECRET_BYTES } from "../../limits.ts"
import { atOrAfter, atOrBefore, listPage, pageParams } from "../common/listing.ts"
import { forgetCachedCredentials } from "./platforms.ts"

/**
 * API tokens (DECISIONS #244–#247). A token is a further HTTP Basic credential of its platform:
 * `<clientId>:<clientSecret>`, working until the token is deleted. Tokens are kept in the server
 * scope, found by client id when a request authenticates, and by platform here.
 */

const decodeCreate = decodeBody(ApiTokenCreate)
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

const tokenNotFound = (id: string) => new TokenNotFound({ message: `Token ${id} not found`, details: { tokenId: id } })

/** POST /tokens: 201 with the secret, shown this once; only its salted hash is kept. */
export const createToken = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCreate(body)
    const ids = yield* Ids
    const clientId = hex(yield* ids.bytes(TOKEN_CLIENT_ID_BYTES))
    const clientSecret = hex(yield* ids.bytes(TOKEN_SECRET_BYTES))
    // scrypt runs before the transaction, never while it holds the write lock.
    const secretHash = hashSecret(clientSecret)
    const id = makeId("Token", yield* ids.uuid)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const held = yield* store.list(ApiTokens, SERVER_SCOPE, { where: [{ index: "platform", eq: platform.id }], limit: 1 })
        if (held.totalCount >= MAX_TOKENS_PER_PLATFORM)
          return yield* Effect.fail(
            invalidInput([{ field: "body", message: `a platform holds at most ${MAX_TOKENS_PER_PLATFORM} tokens; delete one first` }])
          )
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const token: ApiTokenRecord = { id, platformId: platform.id, name: input.name, permissions: input.permissions, clientId, secretHash, createdAt: now, updatedAt: now }
        yield* store.put(ApiTokens, SERVER_SCOPE, token)
        return apiTokenView(token, clientSecret)
      })
    )
  })

/** A token of this platform; another platform's token is as unknown as a made-up id. */
const findToken = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Token", id) ? yield* (yield* Store).get(ApiTokens, SERVER_SCOPE, id) : Option.none()
    if (Option.isNone(found) || found.value.platformId !== platform.id) return yield* Effect.fail(tokenNotFound(id))
    return found.value
  })

export const getToken = (platform: PlatformRecord, id: string) => Effect.map(findToken(platform, id), (t) => apiTokenView(t))

/**
 * DELETE /tokens/{tokenId}: 204, and the credential stops working at once, the one the request
 * came with included (DECISIONS #247).
 */
export const deleteToken = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    yield* store.transaction(Effect.flatMap(findToken(platform, id), (t) => store.remove(ApiTokens, SERVER_SCOPE, t.id)))
    yield* forgetCachedCredentials
    return undefined
  })

export const TokenListQuery = Schema.Struct({
  name: optional(NonEmpty(255)),
  createdAfter: optional(DateTimeString),
  createdBefore: optional(DateTimeString),
  updatedAfter: optional(DateTimeString),
  updatedBefore: optional(DateTimeString),
  ...pageParams
})

/** GET /tokens: the platform's tokens, oldest first, filtered and paged by cursor; never a secret. */
export const listTokens = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: ApiTokens,
    scope: SERVER_SCOPE,
    querySchema: TokenListQuery,
    query,
    where: (q) => [
      q.name === undefined ? { index: "platform", eq: platform.id } : { index: "name", eq: `${platform.id} ${q.name}` },
      atOrAfter("createdAt", q.createdAfter),
      atOrBefore("createdAt", q.createdBefore),
      atOrAfter("updatedAt", q.updatedAfter),
      atOrBefore("updatedAt", q.updatedBefore)
    ],
    view: (t) => apiTokenView(t)
  })
