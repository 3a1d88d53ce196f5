import { Clock, Effect, Either, Option, Schema } from "effect"
import { isKnownVasp } from "../../sandbox/directories.ts"
import { Customers, ExternalAccounts } from "../../domain/collections.ts"
import { NonEmpty, optional } from "../../domain/common.ts"
import { BeneficiaryTrusted, Conflict, InvalidBankAccount } from "../../domain/errors.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import { bodyNotAnObject, decodeInput, type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"
import { IdSchema, isId, makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { NO_CONTENT, reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { isWalletType } from "../../domain/external-accounts/chains.ts"
import { type ExternalAccountRecord, type ExternalAccountStatus, externalAccountView, identityKeyOf } from "../../domain/external-accounts/record.ts"
import { decodeAccountInfo, paymentRailsFor } from "../../domain/external-accounts/variants.ts"
import { beneficiaryOutcome, identifierSuffix, primaryIdentifier, TRANSFER_SUFFIXES } from "../../sandbox/beneficiary.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

/** Which route: the customers' (`customerId` optional, UMA default allowed) or the platform's. */
export type ExternalAccountRoute = "customers" | "platform"

export const ExternalAccountFields = Schema.Struct({
  currency: Schema.String.pipe(Schema.pattern(/^[A-Z0-9]{3,5}$/, { message: () => "must be an ISO 4217 code or ticker (USD, USDC, BTC)" })),
  customerId: optional(IdSchema("Customer")),
  platformAccountId: optional(NonEmpty(255)),
  ownershipType: optional(Schema.Literal("FIRST_PARTY", "THIRD_PARTY")),
  defaultUmaDepositAccount: optional(Schema.Boolean)
})
const decodeFields = decodeInput(ExternalAccountFields)

/** The create body: the common fields and `accountInfo`, every invalid field of both listed at once. */
const decodeCreate = (body: unknown, route: ExternalAccountRoute) => {
  if (!isJsonObject(body)) return Either.left(bodyNotAnObject())
  const raw = body as Record<string, unknown>
  const errors: Array<FieldError> = []
  const fields = decodeFields(body)
  if (Either.isLeft(fields)) errors.push(...(fields.left.details!["errors"] as Array<FieldError>))
  const info = raw["accountInfo"] === undefined ? undefined : decodeAccountInfo(raw["accountInfo"])
  if (info === undefined) errors.push({ field: "accountInfo", message: "is required" })
  else if (Either.isLeft(info)) errors.push(...(info.left.details!["errors"] as Array<FieldError>))
  if (route === "platform")
    for (const f of ["customerId", "defaultUmaDepositAccount"]) if (raw[f] !== undefined) errors.push({ field: f, message: "is not accepted on the platform route" })
  if (errors.length > 0 || Either.isLeft(fields) || info === undefined || Either.isLeft(info)) return Either.left(invalidInput(errors))
  return Either.right({ ...fields.right, accountInfo: info.right })
}

const notFound = (id: string) => referenceNotFound("ExternalAccount", id)

/** Any external account of this platform, the platform's own or a customer's; else 404. */
export const findExternalAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("ExternalAccount", id) ? yield* (yield* Store).get(ExternalAccounts, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* notFound(id)
    return found.value
  })

/**
 * The account if it belongs to this platform and to the route's owner kind; else 404. Only the
 * platform route's reads and deletes are narrowed to its own accounts: ownership checks find
 * every account on either route (DECISIONS #124).
 */
export const loadExternalAccount = (platform: PlatformRecord, id: string, route: ExternalAccountRoute) =>
  Effect.flatMap(findExternalAccount(platform, id), (account) =>
    route === "platform" && account.customerId !== undefined ? Effect.fail(notFound(id)) : Effect.succeed(account)
  )

const fullNameOf = (beneficiary: unknown): string | undefined => {
  const b = beneficiary as { fullName?: unknown; legalName?: unknown } | undefined
  return typeof b?.fullName === "string" ? b.fullName : typeof b?.legalName === "string" ? b.legalName : undefined
}

/**
 * POST /customers/external-accounts and /platform/external-accounts. Creation-time rules:
 * the sandbox name check (1xx suffixes), DECISIONS #11 for the starting status, one default
 * UMA deposit account per customer (a new default replaces the old one), 409 for a duplicate.
 */
export const createExternalAccount = (platform: PlatformRecord, body: unknown, route: ExternalAccountRoute) =>
  Effect.gen(function* () {
    const decoded = decodeCreate(body, route)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const input = decoded.right
    const info = input.accountInfo
    const store = yield* Store
    const type = info.accountType
    const wallet = isWalletType(type)
    const selfCustody = wallet && info["vaspName"] === undefined
    // Counterparty requirements (Travel Rule): the ownership type of a self-custody wallet, and the owner of a third-party one.
    const problems: Array<FieldError> = []
    if (platform.counterpartyRequirements && selfCustody && input.ownershipType === undefined)
      problems.push({ field: "ownershipType", message: "is required for self-custody wallets on this platform (counterparty requirements)" })
    if (platform.counterpartyRequirements && wallet && input.ownershipType === "THIRD_PARTY" && info["beneficiary"] === undefined)
      problems.push({ field: "accountInfo.beneficiary", message: "is required for THIRD_PARTY wallets on this platform (counterparty requirements)" })
    // A custodial wallet names its VASP as the directory (`GET /vasps`) spells it (DECISIONS #269).
    const vaspName = info["vaspName"]
    if (typeof vaspName === "string" && !isKnownVasp(vaspName))
      problems.push({ field: "accountInfo.vaspName", message: "is not a VASP of the directory (GET /vasps)" })
    if (problems.length > 0) return yield* invalidInput(problems)
    if (input.customerId !== undefined) {
      const customer = yield* store.get(Customers, platform.id, input.customerId)
      if (Option.isNone(customer) || customer.value.isDeleted)
        return yield* invalidInput([{ field: "customerId", message: "does not name an active customer of this platform" }])
    }
    const identifier = primaryIdentifier(info) ?? ""
    const suffix = identifierSuffix(identifier)
    const nameCheck = wallet || type === "LIGHTNING" ? undefined : beneficiaryOutcome(suffix)
    if (nameCheck === "INVALID_ACCOUNT")
      return yield* new InvalidBankAccount({ message: "The receiving institution reports the account as invalid", details: { reason: "SANDBOX_INVALID_ACCOUNT" } })
    const status: ExternalAccountStatus =
      selfCustody && input.ownershipType === "FIRST_PARTY" && platform.counterpartyRequirements
        ? "PENDING_OWNERSHIP_VERIFICATION"
        : nameCheck === "PENDING"
          ? "PENDING"
          : "ACTIVE"
    const name = fullNameOf(info["beneficiary"])
    const verifiedName =
      name === undefined || nameCheck === undefined ? undefined : nameCheck === "MATCHED" ? name : nameCheck === "PARTIAL_MATCH" ? name.toUpperCase().split(" ").slice(0, 1).join(" ") : nameCheck === "NOT_MATCHED" ? "Other Account Holder" : undefined
    const rails = paymentRailsFor(type)
    const owner = input.customerId ?? "platform"
    const identityKey = identityKeyOf(owner, type, identifier)
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = rfc3339(yield* Clock.currentTimeMillis)
        if (input.defaultUmaDepositAccount === true && input.customerId !== undefined)
          for (const old of yield* store.findBy(ExternalAccounts, platform.id, "defaultUma", input.customerId))
            yield* store.put(ExternalAccounts, platform.id, { ...old, defaultUmaDepositAccount: false, updatedAt: now })
        const record: ExternalAccountRecord = {
          id: makeId("ExternalAccount", yield* (yield* Ids).uuid),
          ...(input.customerId === undefined ? {} : { customerId: input.customerId }),
          status,
          ...(input.platformAccountId === undefined ? {} : { platformAccountId: input.platformAccountId }),
          ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
          currency: input.currency,
          defaultUmaDepositAccount: input.defaultUmaDepositAccount === true && input.customerId !== undefined,
          ...(nameCheck === undefined ? {} : { beneficiaryVerificationStatus: nameCheck }),
          ...(verifiedName === undefined ? {} : { beneficiaryVerifiedData: { fullName: verifiedName } }),
          accountInfo: rails === undefined ? info : { ...info, paymentRails: [...rails] },
          ...(suffix !== undefined && TRANSFER_SUFFIXES.includes(suffix) ? { sandboxTransferSuffix: suffix } : {}),
          identityKey,
          createdAt: now,
          updatedAt: now
        }
        // One account per identity: the store's unique index answers the 409.
        yield* store
          .put(ExternalAccounts, platform.id, record)
          .pipe(
            Effect.catchTag("UniqueViolation", (v) =>
              Effect.fail(new Conflict({ message: "This external account already exists", details: { externalAccountId: v.existingId } }))
            )
          )
        return reply(201, externalAccountView(record))
      })
    )
  })

export const getExternalAccount = (platform: PlatformRecord, id: string, route: ExternalAccountRoute) =>
  Effect.map(loadExternalAccount(platform, id, route), externalAccountView)

export const CustomerExternalAccountsQuery = Schema.Struct({ customerId: optional(IdSchema("Customer")), currency: optional(Schema.String), ...pageParams })
export const PlatformExternalAccountsQuery = Schema.Struct({ currency: optional(Schema.String), ...pageParams })

/** GET …/external-accounts: paginated, in creation order. The customers' route lists customer-owned accounts. */
export const listExternalAccounts = (platform: PlatformRecord, query: unknown, route: ExternalAccountRoute) =>
  route === "platform"
    ? listPage({
        collection: ExternalAccounts,
        scope: platform.id,
        querySchema: PlatformExternalAccountsQuery,
        query,
        where: (q) => [equal("owner", "platform"), equal("currency", q.currency)],
        view: externalAccountView
      })
    : listPage({
        collection: ExternalAccounts,
        scope: platform.id,
        querySchema: CustomerExternalAccountsQuery,
        query,
        where: (q) => [equal("ownerKind", "customer"), equal("owner", q.customerId), equal("currency", q.currency)],
        view: externalAccountView
      })

/** DELETE …/{id}: 204; a trusted beneficiary is 409 BENEFICIARY_TRUSTED until untrusted. */
export const deleteExternalAccount = (platform: PlatformRecord, id: string, route: ExternalAccountRoute) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, route)
        if (account.trusted === true)
          return yield* new BeneficiaryTrusted({ message: "The account is a trusted beneficiary; untrust it first", details: { externalAccountId: id } })
        yield* store.remove(ExternalAccounts, platform.id, account.id)
        return NO_CONTENT
      })
    )
  )
