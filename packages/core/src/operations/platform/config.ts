import { Clock, Effect, Either, Option } from "effect"
import { Platforms } from "../../domain/collections.ts"
import { makeId, uuidOf } from "../../domain/ids.ts"
import { type FeeConfig, platformConfigView, PlatformConfigUpdate, settingsOf } from "../../domain/platform/config.ts"
import type { PlatformRecord, PlatformSettings } from "../../domain/platform/platform.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import { rfc3339 } from "../../domain/time.ts"
import { delivered } from "../../machines/outbox-delivery.ts"
import { Outbox, type OutboxEvent } from "../../ports/notifier.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { deliverTestEvent } from "../webhooks/delivery.ts"
import { currentPlatform, forgetCachedCredentials } from "./platforms.ts"

const decodeUpdate = decodeBody(PlatformConfigUpdate)

/** GET /config: the platform's configuration as stored now. */
export const getPlatformConfig = (platform: PlatformRecord) => Effect.map(currentPlatform(platform), platformConfigView)

type Json = Readonly<Record<string, unknown>>

/** Fields omitted from a nested object are left unchanged (reference); one level of nesting merges too. */
const mergeObject = (current: Json | undefined, given: Json | undefined): Json | undefined => {
  if (given === undefined) return current
  const out: Record<string, unknown> = { ...current }
  for (const [k, v] of Object.entries(given)) {
    const before = out[k]
    out[k] = typeof v === "object" && v !== null && !Array.isArray(v) && typeof before === "object" && before !== null ? { ...before, ...v } : v
  }
  return out
}

/**
 * Fee configs merge by `(feeType, sourceCurrency)` (reference): a given one replaces its key's,
 * and one with no fee at all (0 bps and 0 fixed) deactivates it, so it is no longer listed.
 */
const mergeFees = (current: ReadonlyArray<FeeConfig> | undefined, given: ReadonlyArray<FeeConfig> | undefined) => {
  if (given === undefined) return current
  const key = (f: FeeConfig) => `${f.feeType} ${f.sourceCurrency}`
  const byKey = new Map((current ?? []).map((f) => [key(f), f]))
  for (const f of given) {
    if (f.variableFeeBps === 0 && f.fixedFee.amount === 0) byKey.delete(key(f))
    else byKey.set(key(f), f)
  }
  return [...byKey.values()]
}

const withoutUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

/**
 * The platform after a change: the record's own settings (UMA domain, webhook URL, counterparty
 * requirements) replaced when given; supported currencies replaced as a list; the wallet and card
 * configurations merged field by field; fee configs merged by key.
 */
const applyUpdate = (p: PlatformRecord, u: PlatformConfigUpdate, now: string): PlatformRecord => {
  const s = settingsOf(p)
  const settings = withoutUndefined({
    supportedCurrencies: u.supportedCurrencies ?? s.supportedCurrencies,
    embeddedWalletConfig: mergeObject(s.embeddedWalletConfig, u.embeddedWalletConfig),
    cardTokenization2faConfig: mergeObject(s.cardTokenization2faConfig, u.cardTokenization2faConfig),
    feeConfigs: mergeFees(s.feeConfigs, u.feeConfigs)
  }) as PlatformSettings
  return {
    ...p,
    ...(u.umaDomain === undefined ? {} : { umaDomain: u.umaDomain.toLowerCase() }),
    ...(u.webhookEndpoint === undefined ? {} : { webhookUrl: u.webhookEndpoint }),
    ...(u.counterpartyRequirements === undefined ? {} : { counterpartyRequirements: u.counterpartyRequirements }),
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
    updatedAt: now
  }
}

/**
 * The TEST webhook a new webhook URL gets (reference: updating `webhookEndpoint` sends one),
 * recorded in the platform's event log with its one attempt, delivered or abandoned: never
 * retried, and never the PATCH's failure (DECISIONS #241). Written as a final event, so the
 * delivery worker never picks it up.
 */
const sendAndRecordTest = (platform: PlatformRecord, url: string) =>
  Effect.gen(function* () {
    const { event, outcome } = yield* deliverTestEvent(url)
    const at = rfc3339(yield* Clock.currentTimeMillis)
    const attempt = Either.isRight(outcome) ? { at, status: outcome.right.status } : { at, error: outcome.left.reason }
    const ok = Either.isRight(outcome) && delivered({ status: outcome.right.status })
    const record: OutboxEvent = {
      ...event,
      resourceId: makeId("PlatformConfig", uuidOf(platform.id)),
      attempts: [attempt],
      ...(ok ? { deliveredAt: at } : { abandonedAt: at })
    }
    yield* (yield* Store).transaction((yield* Store).put(Outbox, platform.id, record))
  })

/**
 * PATCH /config: every invalid field at once (400), then one transaction; a body that changes
 * nothing writes nothing. Authentication forgets its cached records, so the next request sees
 * the new configuration; a new webhook URL then gets its TEST event.
 */
export const updatePlatformConfig = (given: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeUpdate(body)
    const store = yield* Store
    const { before, after } = yield* store.transaction(
      Effect.gen(function* () {
        const stored = Option.getOrElse(yield* store.get(Platforms, SERVER_SCOPE, given.id), () => given)
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const candidate = applyUpdate(stored, input, now)
        const { updatedAt: _a, ...a } = candidate
        const { updatedAt: _b, ...b } = stored
        if (JSON.stringify(a) === JSON.stringify(b)) return { before: stored, after: stored }
        yield* store.put(Platforms, SERVER_SCOPE, candidate)
        return { before: stored, after: candidate }
      })
    )
    if (after !== before) yield* forgetCachedCredentials
    if (input.webhookEndpoint !== undefined && input.webhookEndpoint !== before.webhookUrl) yield* sendAndRecordTest(after, input.webhookEndpoint)
    return platformConfigView(after)
  })
