import { Schema } from "effect"
import { CurrencyCode, Email, NonEmpty, optional } from "../common.ts"
import { makeId, uuidOf } from "../ids.ts"
import { knownCurrencyCodes } from "../money/exchange-rate.ts"
import type { PlatformRecord, PlatformSettings } from "./platform.ts"
import { defaultSupportedCurrencies } from "../../sandbox/platform-config.ts"
import { WEBHOOK_URL_MAX_LENGTH } from "../../limits.ts"

/**
 * The platform configuration (`GET`/`PATCH /config`, DECISIONS #240–#243): the request schema,
 * with every constraint the reference states, and the view. What each setting changes is
 * decided in the operations; this module only says what a valid one looks like.
 */

const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s)
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== ""
  } catch {
    return false
  }
}

export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(WEBHOOK_URL_MAX_LENGTH),
  Schema.filter(isHttpUrl, { message: () => "must be an absolute http:// or https:// URL", jsonSchema: { format: "uri" } })
)

const UriOf = (max: number, httpsOnly: boolean) =>
  Schema.String.pipe(
    Schema.maxLength(max),
    Schema.filter((s) => isHttpUrl(s) && (!httpsOnly || s.startsWith("https://")), {
      message: () => (httpsOnly ? "must be an https:// URL" : "must be an absolute http:// or https:// URL"),
      jsonSchema: { format: "uri" }
    })
  )

/** A DNS name of at least two labels, the part after `@` of the platform's customers' UMA addresses. */
export const UmaDomain = Schema.String.pipe(
  Schema.maxLength(253),
  Schema.pattern(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i, {
    message: () => "must be a domain name such as example.com"
  })
)

export const customerInfoFieldNames = [
  "FULL_NAME", "BIRTH_DATE", "NATIONALITY", "PHONE_NUMBER", "EMAIL", "POSTAL_ADDRESS", "TAX_ID", "REGISTRATION_NUMBER",
  "USER_TYPE", "COUNTRY_OF_RESIDENCE", "ACCOUNT_IDENTIFIER", "FI_LEGAL_ENTITY_NAME", "FI_ADDRESS", "PURPOSE_OF_PAYMENT",
  "ULTIMATE_INSTITUTION_COUNTRY", "IDENTIFIER", "BUSINESS_TYPE", "COMPANY_LEGAL_NAME", "ID_TYPE", "ID_NUMBER"
] as const

const Amount = Schema.Number.pipe(Schema.int(), Schema.between(0, Number.MAX_SAFE_INTEGER))

export const CurrencyConfig = Schema.Struct({
  currencyCode: CurrencyCode.pipe(Schema.filter((c) => knownCurrencyCodes.includes(c) || "must be a currency the sandbox knows (GET /exchange-rates lists them)")),
  minAmount: Amount,
  maxAmount: Amount,
  requiredCounterpartyFields: Schema.Array(Schema.Struct({ name: Schema.Literal(...customerInfoFieldNames), mandatory: Schema.Boolean })).pipe(
    Schema.maxItems(customerInfoFieldNames.length)
  ),
  enabledTransactionTypes: Schema.Array(Schema.Literal("INCOMING", "OUTGOING")).pipe(Schema.maxItems(2))
}).pipe(
  Schema.filter((c) => c.minAmount <= c.maxAmount || { path: ["maxAmount"], message: "must not be less than minAmount" })
)
export type CurrencyConfig = typeof CurrencyConfig.Type

const EmbeddedWalletConfig = Schema.Struct({
  appName: optional(NonEmpty(255)),
  otpLength: optional(Schema.Number.pipe(Schema.int(), Schema.between(4, 12))),
  alphanumeric: optional(Schema.Boolean),
  expirationSeconds: optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 86_400))),
  sendFromEmailAddress: optional(Email),
  sendFromEmailSenderName: optional(NonEmpty(255)),
  replyToEmailAddress: optional(Email),
  logoUrl: optional(UriOf(512, false))
})

const CardTokenization2faConfig = Schema.Struct({
  displayName: optional(NonEmpty(255)),
  logoUrl: optional(UriOf(512, true)),
  email: optional(
    Schema.Struct({
      fromAddress: optional(Email),
      fromName: optional(NonEmpty(255)),
      replyToAddress: optional(Email),
      subject: optional(NonEmpty(255)),
      bodyText: optional(NonEmpty(2000))
    })
  ),
  sms: optional(Schema.Struct({ templateSid: optional(NonEmpty(64)), bodyText: optional(NonEmpty(480)) }))
})

export const FeeConfig = Schema.Struct({
  feeType: Schema.Literal("CROSS_CURRENCY_TRANSACTION"),
  // The reference: "Only sourceCurrency: USD is accepted today".
  sourceCurrency: Schema.Literal("USD"),
  variableFeeBps: Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)),
  fixedFee: Schema.Struct({ amount: Amount, currency: Schema.Literal("USD") })
})
export type FeeConfig = typeof FeeConfig.Type

const distinctBy =
  <A>(key: (a: A) => string, what: string) =>
  (items: ReadonlyArray<A>) => {
    const seen = new Set<string>()
    for (const [i, item] of items.entries()) {
      if (seen.has(key(item))) return { path: [i], message: `repeats the ${what} of an earlier entry` }
      seen.add(key(item))
    }
    return true
  }

/**
 * `PATCH /config`'s body. Every field is optional; the read-only `isRegulatedFinancialInstitution`
 * is refused (it is set when the platform is created), so a client never believes it changed it.
 */
export const PlatformConfigUpdate = Schema.Struct({
  umaDomain: optional(UmaDomain),
  webhookEndpoint: optional(WebhookUrl),
  supportedCurrencies: optional(
    Schema.Array(CurrencyConfig).pipe(Schema.minItems(1), Schema.maxItems(100), Schema.filter(distinctBy((c: CurrencyConfig) => c.currencyCode, "currencyCode")))
  ),
  embeddedWalletConfig: optional(EmbeddedWalletConfig),
  cardTokenization2faConfig: optional(CardTokenization2faConfig),
  feeConfigs: optional(Schema.Array(FeeConfig).pipe(Schema.maxItems(10), Schema.filter(distinctBy((f: FeeConfig) => `${f.feeType} ${f.sourceCurrency}`, "feeType and sourceCurrency")))),
  /** Tessera's own (DECISIONS #11, #242): whether counterparty rules such as the Travel Rule apply. */
  counterpartyRequirements: optional(Schema.Boolean),
  isRegulatedFinancialInstitution: optional(
    Schema.Unknown.pipe(Schema.filter(() => false, { message: () => "is read-only: it is set when the platform is created" }))
  )
})
export type PlatformConfigUpdate = typeof PlatformConfigUpdate.Type

/** The settings the reference's `PlatformConfig` carries beyond the platform record's own fields. */
export const settingsOf = (p: PlatformRecord): PlatformSettings => p.settings ?? {}

/** `PlatformConfig`: the id is the platform's uuid under the PlatformConfig prefix. */
export const platformConfigView = (p: PlatformRecord) => {
  const s = settingsOf(p)
  return {
    id: makeId("PlatformConfig", uuidOf(p.id)),
    umaDomain: p.umaDomain,
    ...(p.webhookUrl === undefined ? {} : { webhookEndpoint: p.webhookUrl }),
    supportedCurrencies: s.supportedCurrencies ?? defaultSupportedCurrencies,
    isRegulatedFinancialInstitution: false,
    ...(s.embeddedWalletConfig === undefined ? {} : { embeddedWalletConfig: s.embeddedWalletConfig }),
    ...(s.cardTokenization2faConfig === undefined ? {} : { cardTokenization2faConfig: s.cardTokenization2faConfig }),
    feeConfigs: s.feeConfigs ?? [],
    counterpartyRequirements: p.counterpartyRequirements,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt ?? p.createdAt
  }
}
