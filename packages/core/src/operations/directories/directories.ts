import { Effect, Either, Schema } from "effect"
import { CountryCode, CurrencyCode, optional } from "../../domain/common.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { decodeCursor, encodeCursor, type ListResponse } from "../../domain/pagination.ts"
import { DEFAULT_LIMIT } from "../../limits.ts"
import { sandboxInstitutions, sandboxUmaProviders, sandboxVasps, type SandboxUmaProvider } from "../../sandbox/directories.ts"
import { sandboxCurrencies } from "../../sandbox/exchange-rates.ts"
import { pageParams } from "../common/listing.ts"

/**
 * The directories: read-only sandbox tables, the same for every platform (DECISIONS #268). The
 * paged ones page a fixed list, so a cursor is the position after the last record returned, in
 * the same opaque form as every other list's.
 */
export const pageOfTable = <A>(items: ReadonlyArray<A>, q: { readonly limit?: number; readonly cursor?: string }): ListResponse<A> => {
  const position = q.cursor === undefined ? 0 : (Either.getOrUndefined(decodeCursor(q.cursor)) ?? 0)
  const data = items.slice(position, position + (q.limit ?? DEFAULT_LIMIT))
  const end = position + data.length
  return end < items.length
    ? { data, hasMore: true, nextCursor: encodeCursor(end), totalCount: items.length }
    : { data, hasMore: false, totalCount: items.length }
}

export const DiscoveryQuery = Schema.Struct({ country: optional(CountryCode), currency: optional(CurrencyCode) })
const decodeDiscovery = decodeInput(DiscoveryQuery)

/** GET /discoveries: the receiving institutions of a country and/or currency, or all of them. */
export const listDiscoveries = (query: unknown) =>
  Effect.gen(function* () {
    const q = yield* decodeDiscovery(query ?? {})
    return {
      data: sandboxInstitutions.filter((i) => (q.country === undefined || i.country === q.country) && (q.currency === undefined || i.currency === q.currency))
    }
  })

export const VaspListQuery = Schema.Struct(pageParams)
const decodeVasps = decodeInput(VaspListQuery)

/** GET /vasps: the VASP directory in name order, paged. */
export const listVasps = (query: unknown) => Effect.map(decodeVasps(query ?? {}), (q) => pageOfTable(sandboxVasps, q))

export const UmaProviderListQuery = Schema.Struct({
  countryCode: optional(CountryCode),
  currencyCode: optional(CurrencyCode),
  hasBlockedProviders: optional(Schema.BooleanFromString),
  sortOrder: optional(Schema.Literal("asc", "desc")),
  ...pageParams
})
const decodeUmaProviders = decodeInput(UmaProviderListQuery)

const currencyOf = (code: string) => {
  const c = sandboxCurrencies.find((x) => x.code === code)!
  return { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals }
}

const umaProviderView = (p: SandboxUmaProvider) => ({
  name: p.name,
  domain: p.domain,
  supportedRegions: p.supportedRegions,
  supportedCurrencies: p.supportedCurrencies.map(currencyOf),
  logoUrl: `https://${p.domain}/logo.png`,
  allowListStatus: p.allowListed
})

// Sorted at the first list, not at load: the first locale-aware comparison loads ICU's collation
// data, which cost every server start ~10 ms.
let sortedByName: ReadonlyArray<SandboxUmaProvider> | undefined
const byName = () => {
  if (sortedByName === undefined) {
    const collator = new Intl.Collator("en")
    sortedByName = [...sandboxUmaProviders].sort((a, b) => collator.compare(a.name, b.name))
  }
  return sortedByName
}

/**
 * GET /uma-providers: by name, Z to A unless `sortOrder=asc` (the reference's default is desc);
 * blocked providers are included unless `hasBlockedProviders=false`.
 */
export const listUmaProviders = (query: unknown) =>
  Effect.map(decodeUmaProviders(query ?? {}), (q) => {
    const ordered = q.sortOrder === "asc" ? byName() : [...byName()].reverse()
    const matching = ordered.filter(
      (p) =>
        (q.countryCode === undefined || p.supportedRegions.includes(q.countryCode)) &&
        (q.currencyCode === undefined || p.supportedCurrencies.includes(q.currencyCode)) &&
        (q.hasBlockedProviders !== false || p.allowListed)
    )
    return pageOfTable(matching.map(umaProviderView), q)
  })
