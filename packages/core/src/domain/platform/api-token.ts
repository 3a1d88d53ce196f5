import { Schema } from "effect"
import { NonEmpty } from "../common.ts"

/**
 * API tokens (`/tokens`, DECISIONS #244–#247): further HTTP Basic credentials of a platform,
 * each with its permissions. The secret is kept only as a salted scrypt hash, like the
 * platform's own (#128); it is shown once, in the answer that creates the token.
 */
export const permissions = ["VIEW", "TRANSACT", "MANAGE"] as const
export type Permission = (typeof permissions)[number]

export interface ApiTokenRecord {
  readonly id: string
  readonly platformId: string
  readonly name: string
  readonly permissions: ReadonlyArray<Permission>
  /** The Basic user-id: 32 hex digits, unique on the server. */
  readonly clientId: string
  /** `scrypt$N$r$p$salt$hash` of the client secret. */
  readonly secretHash: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const ApiTokenCreate = Schema.Struct({
  name: NonEmpty(255),
  // At least one: a token without a permission could do nothing (#245).
  permissions: Schema.Array(Schema.Literal(...permissions)).pipe(
    Schema.minItems(1, { message: () => "must grant at least one permission" }),
    Schema.maxItems(permissions.length),
    Schema.filter((ps) => new Set(ps).size === ps.length || "must not repeat a permission")
  )
})

/** `ApiToken`; the secret only in the creation's answer. */
export const apiTokenView = (t: ApiTokenRecord, clientSecret?: string) => ({
  id: t.id,
  name: t.name,
  permissions: t.permissions,
  clientId: t.clientId,
  ...(clientSecret === undefined ? {} : { clientSecret }),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt
})
