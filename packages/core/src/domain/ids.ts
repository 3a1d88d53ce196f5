import { Option, Schema } from "effect"

/**
 * Resource ids are `<Type>:<uuid>` (DECISIONS #3). The prefix names the resource so that an id
 * of one kind can never be taken for another, and the uuid part is lower-case canonical.
 */
export const idTypes = [
  "Customer",
  "InternalAccount",
  "ExternalAccount",
  "AuthMethod",
  "Session",
  "Request",
  "Quote",
  "Transaction",
  "Webhook",
  "Platform",
  "ScaChallenge",
  "Document",
  "BeneficialOwner",
  "Verification",
  // A bulk customer import (the reference's ids for it are `Job:<uuid>`).
  "Job",
  // A ledger movement (the journal's lines; never answered by the reference's API).
  "LedgerMovement",
  // A receiver lookup (`GET /receiver/...`): the `lookupId` a quote names.
  "Lookup",
  // An API token (`/tokens`), and the platform's configuration (`GET /config`, the platform's uuid).
  "Token",
  "PlatformConfig",
  // Cards and the (card, internal account) binding a delegated key is for.
  "Card",
  "CardFundingSource",
  // A delegated signing key of an embedded wallet's card funding source.
  "DelegatedKey",
  // A 2FA reset of an SCA factor (`POST /sca/factors/reset`).
  "ScaReset",
  // A card (`POST /cards`) and a transaction on one (the sandbox card simulators).
  "CardTransaction",
  // Stablecoin issuance: a registered stablecoin, a mint or burn, a linked provider account.
  "Stablecoin",
  "StablecoinOperation",
  "StablecoinProviderAccount",
  // An agent (`/agents`) and an action it submitted (a transfer or a quote execution).
  "Agent",
  "AgentAction"
] as const
export type IdType = (typeof idTypes)[number]

const uuidPattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
const uuidRegex = new RegExp(`^${uuidPattern}$`)

const patterns = Object.fromEntries(
  idTypes.map((t) => [t, new RegExp(`^${t}:${uuidPattern}$`)])
) as Record<IdType, RegExp>

export type Id<T extends IdType> = string & { readonly __idType: T }

export const isUuid = (s: string): boolean => uuidRegex.test(s)

/**
 * Built by `join`, which writes one flat string, rather than a template literal, which keeps a
 * concatenation node over its parts: an id lives as long as its record, and a uuid from
 * `crypto.randomUUID()` is itself a tree of ~14 such nodes, which the id would keep alive too
 * (every node one more object for the collector to copy, DECISIONS #452).
 */
export const makeId = <T extends IdType>(type: T, uuid: string): Id<T> => [type, ":", uuid].join("") as Id<T>

export const isId = <T extends IdType>(type: T, value: unknown): value is Id<T> =>
  typeof value === "string" && patterns[type].test(value)

export const parseId = <T extends IdType>(type: T, value: unknown): Option.Option<Id<T>> =>
  isId(type, value) ? Option.some(value) : Option.none()

/** The uuid part of an id, for callers (and round-trip tests) that need it back. */
export const uuidOf = (id: string): string => id.slice(id.indexOf(":") + 1)

/** Schema of an id of one type, for request bodies and queries (a bad one is 400 there). */
export const IdSchema = <T extends IdType>(type: T) =>
  Schema.String.pipe(
    Schema.filter((s): s is Id<T> => patterns[type].test(s), {
      message: () => `must be an id of the form ${type}:<uuid>`,
      jsonSchema: { pattern: `^${type}:<uuid>$` }
    })
  ) as unknown as Schema.Schema<Id<T>, string>

export type CustomerId = Id<"Customer">
export type InternalAccountId = Id<"InternalAccount">
export type AuthMethodId = Id<"AuthMethod">
export type PlatformId = Id<"Platform">
export type DocumentId = Id<"Document">
export type BeneficialOwnerId = Id<"BeneficialOwner">
export type VerificationId = Id<"Verification">
