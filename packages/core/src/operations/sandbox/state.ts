import { Clock, Effect, Either } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { checkStateDocument, type PlatformState, STATE_FORMAT, STATE_VERSION, stateCollections } from "../../domain/sandbox/state-document.ts"
import { rfc3339 } from "../../domain/time.ts"
import { Outbox } from "../../ports/notifier.ts"
import { type Collection, SERVER_SCOPE, Store } from "../../ports/store.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import { provisionPlatformAccounts } from "../platform/platforms.ts"

/**
 * Sandbox state (README, "Sandbox state: reset, export, import"): a platform's whole data as
 * one document, and the two ways to replace it. Only the platform's scope is read or written;
 * the server's own records (platforms, keys, settings) never are.
 */

/** Everything in a platform's scope: the document's collections and the webhook outbox. */
const platformScoped: ReadonlyArray<Collection<any>> = [...stateCollections.map((c) => c.collection), Outbox]

/** Plain JSON, so the engine API behaves as HTTP does and no caller shares objects with a store. */
const asJson = <A>(value: A): Either.Either<A, unknown> => {
  try {
    // undefined (and a function) have no JSON text: left for the document check to refuse.
    const text = JSON.stringify(value) as string | undefined
    return Either.right((text === undefined ? undefined : JSON.parse(text)) as A)
  } catch (e) {
    return Either.left(e)
  }
}

const clearScope = (platform: PlatformRecord) =>
  Effect.gen(function* () {
    const store = yield* Store
    const removed: Record<string, number> = {}
    for (const c of platformScoped) removed[c.name] = yield* store.clear(c, platform.id)
    // The platform's pending outcome steps are the engine's (server scope): they go with it.
    for (const d of yield* store.findBy(DueSteps, SERVER_SCOPE, "scope", platform.id)) yield* store.remove(DueSteps, SERVER_SCOPE, d.id)
    return removed
  })

/**
 * The platform's state: every platform-scoped collection but the outbox, each in listing order,
 * read in one transaction so the document is a consistent cut.
 */
export const exportPlatformState = (platform: PlatformRecord) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const collections: Record<string, PlatformState["collections"][string]> = {}
        for (const { collection } of stateCollections)
          collections[collection.name] = (yield* store.list(collection, platform.id, { limit: Number.MAX_SAFE_INTEGER })).items as PlatformState["collections"][string]
        const doc: PlatformState = {
          format: STATE_FORMAT,
          version: STATE_VERSION,
          exportedAt: rfc3339(yield* Clock.currentTimeMillis),
          collections
        }
        return Either.getOrThrow(asJson(doc))
      })
    )
  )

/**
 * Replaces the platform's data with a document's, in one transaction, after checking the whole
 * document (400 INVALID_INPUT with every problem, nothing written). The webhook outbox is emptied:
 * its events were about the replaced records. A document without the platform's own USD account
 * gets one, as a new platform has.
 */
export const importPlatformState = (platform: PlatformRecord, document: unknown) =>
  Effect.gen(function* () {
    const json = asJson(document)
    if (Either.isLeft(json)) return yield* invalidInput([{ field: "document", message: "must be plain JSON" }])
    const checked = checkStateDocument(json.right)
    if (Either.isLeft(checked)) return yield* checked.left
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        yield* clearScope(platform)
        const imported: Record<string, number> = {}
        for (const { collection } of stateCollections) {
          const records = checked.right.get(collection.name)!
          for (const r of records) yield* store.put(collection, platform.id, r)
          imported[collection.name] = records.length
        }
        const accounts = checked.right.get(InternalAccounts.name)!
        if (!accounts.some((a) => a["customerId"] === undefined && a["type"] === "INTERNAL_FIAT" && (a["balance"] as { readonly currency: { readonly code: string } }).currency.code === "USD"))
          yield* provisionPlatformAccounts(platform.id, rfc3339(yield* Clock.currentTimeMillis))
        return { imported }
      })
    )
  })

/**
 * Removes every record in the platform's scope and leaves it as a new platform is (its USD
 * account provisioned afresh). Its credentials live in the server scope and stay valid.
 */
export const resetPlatform = (platform: PlatformRecord) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const removed = yield* clearScope(platform)
        yield* provisionPlatformAccounts(platform.id, rfc3339(yield* Clock.currentTimeMillis))
        return { removed }
      })
    )
  )
