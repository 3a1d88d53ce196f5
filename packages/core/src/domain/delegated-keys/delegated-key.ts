import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"

/** The reference's delegated-key statuses, in lifecycle order. */
export const delegatedKeyStatuses = ["PENDING", "ACTIVE", "REVOKED"] as const
export type DelegatedKeyStatus = (typeof delegatedKeyStatuses)[number]

/**
 * A delegated signing key of a card funding source (the binding of one card to one embedded
 * wallet). The private key is never stored: the engine derives it from a server secret and the
 * key's id whenever it must sign (DECISIONS #263), so a record holds only what the view shows.
 */
export interface DelegatedKeyRecord {
  readonly id: string
  readonly cardId: string
  readonly fundingSourceId: string
  readonly accountId: string
  /** Compressed SEC1 hex of the custodied key pair. */
  readonly publicKey: string
  readonly nickname: string
  readonly status: DelegatedKeyStatus
  readonly createdAt: string
  readonly updatedAt: string
}

export const delegatedKeyView = (k: DelegatedKeyRecord) => ({
  id: k.id,
  cardId: k.cardId,
  fundingSourceId: k.fundingSourceId,
  accountId: k.accountId,
  publicKey: k.publicKey,
  nickname: k.nickname,
  status: k.status,
  createdAt: k.createdAt,
  updatedAt: k.updatedAt
})

/** `POST /auth/delegated-keys`: the card and wallet that name the funding source, and a label. */
export const DelegatedKeyCreate = Schema.Struct({
  cardId: IdSchema("Card"),
  internalAccountId: IdSchema("InternalAccount"),
  nickname: NonEmpty(256)
})
export type DelegatedKeyCreate = typeof DelegatedKeyCreate.Type

/** `GET /auth/delegated-keys`: at least one of the two filters (checked by the program, with the formats). */
export const DelegatedKeyListQuery = Schema.Struct({
  accountId: optional(IdSchema("InternalAccount")),
  fundingSourceId: optional(IdSchema("CardFundingSource"))
})

/** A delegated key in a state document: the fields the indexes, view and signer check read. */
export const DelegatedKeyState = Schema.Struct({
  id: IdSchema("DelegatedKey"),
  cardId: IdSchema("Card"),
  fundingSourceId: IdSchema("CardFundingSource"),
  accountId: IdSchema("InternalAccount"),
  publicKey: Schema.String.pipe(Schema.pattern(/^0[23][0-9a-f]{64}$/, { message: () => "must be a compressed P-256 public key in hex" })),
  nickname: NonEmpty(256),
  status: Schema.Literal(...delegatedKeyStatuses),
  createdAt: DateTimeString,
  updatedAt: DateTimeString
})
