import { Effect, Option } from "effect"
import { type Engine, Outbox, type OutcomePlan, type PlatformRecord, Store, type TransactionRecord, Transactions } from "@tessera/core"
import { newTransactionId, startTransaction } from "@tessera/core/operations"

/** A transaction as the transfer operations create it, before its plan's first step. */
export const createdTransaction = (id: string, amount = 12_550): TransactionRecord => ({
  id,
  type: "OUTGOING",
  status: "CREATED",
  direction: "DEBIT",
  source: { sourceType: "ACCOUNT", accountId: "InternalAccount:00000000-0000-4000-8000-000000000001" },
  destination: { destinationType: "ACCOUNT", accountId: "ExternalAccount:00000000-0000-4000-8000-000000000002" },
  customerId: "Customer:00000000-0000-4000-8000-000000000003",
  platformCustomerId: "c-1",
  sentAmount: { amount, currency: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 } },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  senderIdentifiers: [],
  receiverIdentifiers: []
})

/** Starts a transaction on `plan` in one Store transaction, as an operation does; answers its id. */
export const start = (engine: Engine, platform: PlatformRecord, plan: OutcomePlan) =>
  engine.run(
    Effect.gen(function* () {
      const id = yield* newTransactionId
      const store = yield* Store
      return yield* store.transaction(startTransaction(platform.id, createdTransaction(id), plan))
    })
  )

export const readTransaction = (engine: Engine, platform: PlatformRecord, id: string) =>
  engine.run(Effect.map(Effect.flatMap(Store, (s) => s.get(Transactions, platform.id, id)), Option.getOrThrow))

/** The webhook types published about one resource, in order. */
export const webhookTypes = (engine: Engine, platform: PlatformRecord, resourceId: string) =>
  engine.run(Effect.map(Effect.flatMap(Store, (s) => s.findBy(Outbox, platform.id, "resourceId", resourceId)), (es) => es.map((e) => e.type)))
