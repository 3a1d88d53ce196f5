import { Either, Schema } from "effect"
import type { InvalidInput } from "../errors.ts"
import { decodeInput, invalidInput } from "../field-errors.ts"
import { addressSchema } from "./chains.ts"
import { compile, flatten, referenceSchemas } from "./schema-from-json.ts"

/**
 * `accountInfo` of a create request, by `accountType`: each variant is the reference's schema,
 * compiled once, with Tessera's per-chain address check on wallets. `LIGHTNING_ACCOUNT` is the
 * same variant as `LIGHTNING` (the reference maps both).
 */
const members = (referenceSchemas["ExternalAccountCreateInfoOneOf"]!.oneOf ?? []).map((m) => {
  const flat = flatten(m)
  const accountType = (flat.properties?.["accountType"]?.enum ?? [])[0]!
  return { accountType, schema: flat }
})

export const accountTypes: ReadonlyArray<string> = [...members.map((m) => m.accountType), "LIGHTNING_ACCOUNT"]

const decoders = new Map<string, (u: unknown) => Either.Either<Record<string, unknown>, InvalidInput>>()
const decoderFor = (accountType: string) => {
  let d = decoders.get(accountType)
  if (d === undefined) {
    const member = members.find((m) => m.accountType === accountType)!
    const address = addressSchema(accountType)
    const schema = compile(member.schema, address === undefined ? {} : { address }) as Schema.Schema<Record<string, unknown>, unknown>
    decoders.set(accountType, (d = decodeInput(schema, ["accountInfo"])))
  }
  return d
}

/** Decodes `accountInfo`, every invalid field reported with its `accountInfo.` path. */
export const decodeAccountInfo = (input: unknown): Either.Either<Record<string, unknown> & { accountType: string }, InvalidInput> => {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return Either.left(invalidInput([{ field: "accountInfo", message: "must be an object" }]))
  const raw = input as Record<string, unknown>
  const type = raw["accountType"] === "LIGHTNING_ACCOUNT" ? "LIGHTNING" : raw["accountType"]
  if (typeof type !== "string" || !members.some((m) => m.accountType === type))
    return Either.left(invalidInput([{ field: "accountInfo.accountType", constraint: { enum: accountTypes }, message: `must be one of ${accountTypes.join(", ")}` }]))
  const decoded = decoderFor(type)({ ...raw, accountType: type })
  if (Either.isLeft(decoded)) return Either.left(decoded.left)
  if (type === "LIGHTNING") {
    const given = ["invoice", "bolt12", "lightningAddress"].filter((k) => decoded.right[k] !== undefined)
    if (given.length !== 1) return Either.left(invalidInput([{ field: "accountInfo", message: "needs exactly one of invoice, bolt12, lightningAddress" }]))
  }
  return Either.right(decoded.right as Record<string, unknown> & { accountType: string })
}

const responseRails = new Map<string, ReadonlyArray<string>>()
for (const m of referenceSchemas["ExternalAccountInfoOneOf"]!.oneOf ?? []) {
  const flat = flatten(m)
  const type = (flat.properties?.["accountType"]?.enum ?? [])[0]
  const rails = flat.properties?.["paymentRails"]
  if (type !== undefined && rails !== undefined && (flat.required ?? []).includes("paymentRails"))
    responseRails.set(type, flatten(rails.items ?? {}).enum ?? [])
}

/** The rails a fiat account is reachable on: the reference's response requires them; Tessera offers them all. */
export const paymentRailsFor = (accountType: string): ReadonlyArray<string> | undefined => responseRails.get(accountType)
