import { Either, ParseResult, Schema } from "effect"
import {
  AuthMethods,
  BeneficialOwners,
  BulkImportJobs,
  Customers,
  DelegatedKeys,
  DocumentFiles,
  Documents,
  ExternalAccounts,
  InternalAccounts,
  KycLinks,
  OtpIssuances,
  PasskeyChallenges,
  ProcessingControls,
  ReceiverLookups,
  Sessions,
  SignedRequests,
  Transactions,
  Verifications,
  Cards,
  StablecoinOperations,
  StablecoinProviderAccounts,
  Stablecoins,
  Agents
} from "../collections.ts"
import { cardStates } from "./card-state.ts"
import { DateTimeString } from "../common.ts"
import { DelegatedKeyState } from "../delegated-keys/delegated-key.ts"
import { InvalidInput } from "../errors.ts"
import { identityKeyOf } from "../external-accounts/record.ts"
import { decodeAccountInfo } from "../external-accounts/variants.ts"
import { type FieldError, fieldErrorsOf, isJsonObject } from "../field-errors.ts"
import { type Collection, indexKeys } from "../../ports/store.ts"
import { primaryIdentifier } from "../../sandbox/beneficiary.ts"
import { recordStates } from "./state-records.ts"
import { onboardingStates } from "./onboarding-state.ts"
import { MAX_LISTED_PROBLEMS } from "../../limits.ts"
import { transactionStates } from "./transaction-state.ts"
import { ledgerProblems, ledgerStateCollections } from "./ledger-state.ts"
import { quoteStateCollections } from "./quote-state.ts"
import { scaStateCollections } from "./sca-state.ts"
import { ReceiverLookupState } from "../receivers/lookup.ts"
import { lazily } from "./lazily.ts"
import { invitationStateCollections } from "./invitation-state.ts"
import { stablecoinStateCollections } from "./stablecoin-state.ts"
import { agentStateCollections } from "./agent-state.ts"

/**
 * The platform state document (README, "Sandbox state"): `{format, version, exportedAt,
 * collections}`, where `collections` holds every platform-scoped collection, each record in
 * listing order. This module reads one, reporting every problem with its path.
 */
export const STATE_FORMAT = "tessera.state"
export const STATE_VERSION = 1

const DateTime = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" } })

/**
 * The platform's state as `GET /sandbox/state` writes it and `PUT /sandbox/state` reads it: the
 * shape the endpoint and the served document publish (`checkStateDocument` checks every record).
 */
export const StateDocument = Schema.Struct({
  format: Schema.Literal(STATE_FORMAT),
  version: Schema.Literal(STATE_VERSION),
  exportedAt: Schema.optionalWith(DateTime, { exact: true }),
  collections: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })) })
}).annotations({ identifier: "StateDocument" })

type Rec = Readonly<Record<string, unknown>>

/** A collection of the document and its records' schema, built at the first read of `schema` (DECISIONS #464). */
export interface StateCollection {
  readonly collection: Collection<any>
  readonly schema: Schema.Schema<any, any>
}
const entry = (collection: Collection<any>, schema: () => Schema.Schema<any, any>): StateCollection => ({
  collection,
  get schema() {
    return schema()
  }
})
const entries = (list: ReadonlyArray<{ readonly collection: Collection<any>; readonly schema: () => Schema.Schema<any, any> }>) => list.map((c) => entry(c.collection, c.schema))
const records = recordStates
const onboarding = onboardingStates

/** Every collection that lives in a platform scope, in the order of `collections.ts`. */
export const stateCollections: ReadonlyArray<StateCollection> = [
  entry(Customers, () => records().CustomerState),
  entry(InternalAccounts, () => records().InternalAccountState),
  entry(AuthMethods, () => records().AuthMethodState),
  entry(Sessions, () => records().SessionState),
  entry(SignedRequests, () => records().SignedRequestState),
  entry(ProcessingControls, () => records().ProcessingControlState),
  entry(OtpIssuances, () => records().OtpIssuanceState),
  entry(PasskeyChallenges, () => records().PasskeyChallengeState),
  entry(ExternalAccounts, () => records().ExternalAccountState),
  entry(Documents, () => onboarding().DocumentState),
  entry(DocumentFiles, () => onboarding().DocumentFileState),
  entry(BeneficialOwners, () => onboarding().BeneficialOwnerState),
  entry(Verifications, () => onboarding().VerificationState),
  entry(KycLinks, () => onboarding().KycLinkState),
  entry(BulkImportJobs, () => onboarding().BulkImportJobState),
  // A payment or a card transaction (its `type` is CARD).
  entry(Transactions, lazily(() => Schema.Union(transactionStates().TransactionState, cardStates().CardTransactionState))),
  ...entries(ledgerStateCollections),
  entry(ReceiverLookups, () => ReceiverLookupState),
  ...entries(quoteStateCollections),
  ...entries(invitationStateCollections),
  entry(DelegatedKeys, () => DelegatedKeyState),
  ...entries(scaStateCollections),
  entry(Cards, () => cardStates().CardRecordState),
  ...entries(stablecoinStateCollections),
  ...entries(agentStateCollections)
]

export interface PlatformState {
  readonly format: typeof STATE_FORMAT
  readonly version: typeof STATE_VERSION
  readonly exportedAt: string
  // Records are JSON objects: typed so, an exported document is accepted by `importState` as is.
  readonly collections: Readonly<Record<string, ReadonlyArray<{ readonly [field: string]: unknown }>>>
}

/** A document that passed every check: its records by collection name, in document order. */
export type CheckedState = ReadonlyMap<string, ReadonlyArray<Rec>>


const TOP_LEVEL = new Set(["format", "version", "exportedAt", "collections"])
const collectionNames = new Set(stateCollections.map((c) => c.collection.name))
// Compiled at the first check, with the schemas they compile.
const decoders = lazily(() => new Map(stateCollections.map((c) => [c.collection.name, Schema.decodeUnknownEither(c.schema, { errors: "all" })])))
const inputDecoders = lazily(() => new Map(Object.entries(records().signedInputs).map(([k, s]) => [k, Schema.decodeUnknownEither(s as Schema.Schema<unknown>, { errors: "all" })])))
const isDateTime = lazily(() => Schema.is(DateTimeString))

const schemaProblems = (result: Either.Either<unknown, ParseResult.ParseError>, path: ReadonlyArray<string>): Array<FieldError> =>
  Either.isLeft(result) ? fieldErrorsOf(result.left, [...path]) : []

/** Checks of one valid record beyond its schema: a signed operation's input, an external account's `accountInfo`. */
const recordProblems = (name: string, r: Rec, at: ReadonlyArray<string>): Array<FieldError> => {
  if (name === SignedRequests.name) return schemaProblems(inputDecoders().get(r["kind"] as string)!(r["input"]), [...at, "input"])
  if (name !== ExternalAccounts.name) return []
  const info = decodeAccountInfo(r["accountInfo"])
  if (Either.isLeft(info)) return (info.left.details?.["errors"] as Array<FieldError>).map((e) => ({ ...e, field: `${at.join(".")}.${e.field}` }))
  const owner = (r["customerId"] as string | undefined) ?? "platform"
  const identity = identityKeyOf(owner, info.right.accountType, primaryIdentifier(info.right) ?? "")
  return r["identityKey"] === identity ? [] : [{ field: [...at, "identityKey"].join("."), message: "must be owner|accountType|identifier of the account, lower-cased" }]
}

/** A record's key in one of its collection's indexes: the same function the stores index by. */
const byIndex =
  <A>(c: Collection<A>, index: string) =>
  (r: Rec): string | undefined =>
    indexKeys(c, index, r as unknown as A)[0]

/** Keys that must be unique among a collection's records (the engine answers 409 for a second). */
const uniqueKeys: ReadonlyArray<{ readonly collection: string; readonly field: string; readonly key: (r: Rec) => string | undefined }> = [
  // Not the index: it keeps a deleted customer's id, which is free for a new customer to take.
  { collection: Customers.name, field: "platformCustomerId", key: (c) => (c["isDeleted"] ? undefined : (c["platformCustomerId"] as string)) },
  { collection: Customers.name, field: "umaAddress", key: byIndex(Customers, "umaAddress") },
  { collection: ExternalAccounts.name, field: "identityKey", key: byIndex(ExternalAccounts, "identity") },
  { collection: ExternalAccounts.name, field: "defaultUmaDepositAccount", key: byIndex(ExternalAccounts, "defaultUma") },
  { collection: DelegatedKeys.name, field: "activeFundingSource", key: byIndex(DelegatedKeys, "activeFundingSource") },
  { collection: StablecoinProviderAccounts.name, field: "providerAccountId", key: byIndex(StablecoinProviderAccounts, "account") },
  { collection: Stablecoins.name, field: "providerTokenIdentifier", key: byIndex(Stablecoins, "providerToken") },
  { collection: Stablecoins.name, field: "networkTokenIdentifier", key: byIndex(Stablecoins, "networkToken") }
]

/** Ids a record names that must exist in the document (these records are never removed). */
const references: ReadonlyArray<{ readonly collection: string; readonly field: string; readonly target: string }> = [
  { collection: InternalAccounts.name, field: "customerId", target: Customers.name },
  { collection: AuthMethods.name, field: "customerId", target: Customers.name },
  { collection: AuthMethods.name, field: "accountId", target: InternalAccounts.name },
  { collection: Sessions.name, field: "accountId", target: InternalAccounts.name },
  { collection: ExternalAccounts.name, field: "customerId", target: Customers.name },
  { collection: BeneficialOwners.name, field: "customerId", target: Customers.name },
  { collection: Verifications.name, field: "customerId", target: Customers.name },
  { collection: KycLinks.name, field: "customerId", target: Customers.name },
  { collection: ReceiverLookups.name, field: "senderCustomerId", target: Customers.name },
  { collection: DelegatedKeys.name, field: "accountId", target: InternalAccounts.name },
  { collection: Cards.name, field: "cardholderId", target: Customers.name },
  { collection: Stablecoins.name, field: "stablecoinProviderAccountId", target: StablecoinProviderAccounts.name },
  { collection: StablecoinOperations.name, field: "stablecoinId", target: Stablecoins.name },
  { collection: StablecoinOperations.name, field: "stablecoinProviderAccountId", target: StablecoinProviderAccounts.name },
  { collection: Agents.name, field: "customerId", target: Customers.name }
]

const fail = (problems: ReadonlyArray<FieldError>): InvalidInput => {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS)
  return new InvalidInput({
    message:
      problems.length === 1
        ? `Invalid state document: ${problems[0]!.field} ${problems[0]!.message}`
        : `Invalid state document: ${problems.length} problems`,
    details: listed.length === problems.length ? { errors: listed } : { errors: listed, problemCount: problems.length }
  })
}

/**
 * The document's envelope: format, version, known top-level fields, `collections` an object of
 * arrays. `fatal` when the records cannot be read at all (another format or version).
 */
const envelopeProblems = (doc: unknown): { readonly problems: Array<FieldError>; readonly fatal: boolean } => {
  if (!isJsonObject(doc)) return { problems: [{ field: "document", message: "must be a JSON object" }], fatal: true }
  const problems: Array<FieldError> = []
  if (doc["format"] !== STATE_FORMAT) problems.push({ field: "format", message: `must be "${STATE_FORMAT}"` })
  else if (doc["version"] !== STATE_VERSION) problems.push({ field: "version", message: `must be ${STATE_VERSION}, the version this server reads` })
  for (const k of Object.keys(doc)) if (!TOP_LEVEL.has(k)) problems.push({ field: k, message: "is not part of the format" })
  if (doc["exportedAt"] !== undefined && !isDateTime()(doc["exportedAt"])) problems.push({ field: "exportedAt", message: "must be an RFC 3339 date-time" })
  const collections = doc["collections"]
  if (!isJsonObject(collections)) {
    problems.push({ field: "collections", message: "must be an object of arrays, one per collection" })
    return { problems, fatal: true }
  }
  const fatal = problems.some((p) => p.field === "format" || p.field === "version")
  for (const [name, records] of Object.entries(collections)) {
    if (!collectionNames.has(name))
      problems.push({ field: `collections.${name}`, message: `is not a collection of this format (${stateCollections.map((c) => c.collection.name).join(", ")})` })
    else if (!Array.isArray(records)) problems.push({ field: `collections.${name}`, message: "must be an array of records" })
  }
  return { problems, fatal }
}

/**
 * Reads a state document without writing anything: every problem is listed with its path
 * (`collections.customers.3.umaAddress`), so a document is accepted whole or not at all. A
 * missing collection is an empty one.
 */
export const checkStateDocument = (doc: unknown): Either.Either<CheckedState, InvalidInput> => {
  const { problems, fatal } = envelopeProblems(doc)
  if (fatal) return Either.left(fail(problems))
  const given = (doc as Rec)["collections"] as Record<string, unknown>
  const valid = new Map<string, Array<{ readonly at: ReadonlyArray<string>; readonly record: Rec }>>()
  const out = new Map<string, ReadonlyArray<Rec>>()
  for (const { collection } of stateCollections) {
    const name = collection.name
    // Not an array: already reported, read as empty so the rest is still checked.
    const records: ReadonlyArray<unknown> = Array.isArray(given[name]) ? given[name] : []
    const seen = new Map<string, number>()
    const ok: Array<{ at: ReadonlyArray<string>; record: Rec }> = []
    records.forEach((record, i) => {
      const at = ["collections", name, String(i)]
      if (!isJsonObject(record)) return void problems.push({ field: at.join("."), message: "must be an object" })
      const found = [...schemaProblems(decoders().get(name)!(record), at)]
      if (found.length === 0) found.push(...recordProblems(name, record, at))
      const id = record["id"]
      if (typeof id === "string") {
        const first = seen.get(id)
        if (first !== undefined) found.push({ field: [...at, "id"].join("."), message: `duplicates the id of collections.${name}.${first}` })
        else seen.set(id, i)
      }
      problems.push(...found)
      if (found.length === 0) ok.push({ at, record })
    })
    valid.set(name, ok)
    out.set(name, records as ReadonlyArray<Rec>)
  }
  for (const u of uniqueKeys) {
    const holders = new Map<string, ReadonlyArray<string>>()
    for (const { at, record } of valid.get(u.collection)!) {
      const key = u.key(record)
      if (key === undefined) continue
      const first = holders.get(key)
      if (first === undefined) holders.set(key, at)
      else problems.push({ field: [...at, u.field].join("."), message: `must be unique: ${first.join(".")} has the same` })
    }
  }
  for (const ref of references) {
    // Any record with the id will do: an invalid target is reported once, on itself.
    const ids = new Set(out.get(ref.target)!.map((r) => (isJsonObject(r) ? r["id"] : undefined)))
    for (const { at, record } of valid.get(ref.collection)!) {
      const id = record[ref.field]
      if (id !== undefined && !ids.has(id)) problems.push({ field: [...at, ref.field].join("."), message: `must name a record of collections.${ref.target}` })
    }
  }
  problems.push(...ledgerProblems((name) => valid.get(name)!))
  return problems.length > 0 ? Either.left(fail(problems)) : Either.right(out)
}
