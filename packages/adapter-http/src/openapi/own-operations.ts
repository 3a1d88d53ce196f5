import { Schema } from "effect"
import { EventsQuery } from "@tessera/core/operations"
import { StateDocument } from "@tessera/core"

/**
 * What the served document says about Tessera's own operations (`tessera.*`, the sandbox
 * controls), which the reference cannot: their query and their success body. Request bodies
 * come from the route table, like every other operation's.
 */
export interface OwnOperation {
  readonly query?: { readonly fields: Schema.Struct.Fields }
  /** The success body, or the reference operation whose success body it is. */
  readonly response: Schema.Schema.Any | { readonly sameAs: string }
}

const optional = <S extends Schema.Schema.Any>(s: S) => Schema.optionalWith(s, { exact: true })
const DateTime = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" } })

const ProcessingHold = Schema.Struct({
  scope: Schema.String.annotations({ description: "The internal account id, or `platform`" }),
  remainingOperations: Schema.Int,
  holdSeconds: Schema.Number
}).annotations({ identifier: "ProcessingHold" })

const Clock = Schema.Struct({
  now: DateTime,
  mode: Schema.Literal("real", "virtual")
}).annotations({ identifier: "Clock" })

const DeliveryAttempt = Schema.Struct({
  at: DateTime,
  status: optional(Schema.Int.annotations({ description: "The receiver's HTTP status" })),
  error: optional(Schema.String.annotations({ description: "Why no HTTP answer came back" }))
})

const Event = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  timestamp: DateTime,
  data: Schema.Unknown,
  resourceId: Schema.String,
  delivery: Schema.Struct({
    attempts: Schema.Array(DeliveryAttempt),
    deliveredAt: optional(DateTime),
    abandonedAt: optional(DateTime),
    nextAttemptAt: optional(DateTime)
  })
}).annotations({ identifier: "Event" })

const EventList = Schema.Struct({
  data: Schema.Array(Event),
  hasMore: Schema.Boolean,
  nextCursor: optional(Schema.String),
  totalCount: Schema.Int
}).annotations({ identifier: "EventList" })

const WebhookPublicKey = Schema.Struct({
  algorithm: Schema.Literal("ECDSA_P256_SHA256"),
  publicKeyHex: Schema.String.pipe(Schema.pattern(/^04[0-9a-f]{128}$/)).annotations({ description: "Uncompressed SEC1 point, hex" }),
  publicKeyPem: Schema.String.annotations({ description: "SPKI, PEM" })
}).annotations({ identifier: "WebhookPublicKey" })

const Counts = Schema.Record({ key: Schema.String, value: Schema.Int }).annotations({ description: "Records per collection" })

export const ownOperations: Readonly<Record<string, OwnOperation>> = {
  "tessera.resetSandbox": { response: Schema.Struct({ removed: Counts }).annotations({ identifier: "SandboxReset" }) },
  "tessera.exportSandboxState": { response: StateDocument },
  "tessera.importSandboxState": { response: Schema.Struct({ imported: Counts }).annotations({ identifier: "SandboxImport" }) },
  "tessera.holdAccountOperations": { response: ProcessingHold },
  "tessera.holdPlatformOperations": { response: ProcessingHold },
  "tessera.decideLiveness": { response: { sameAs: "getCustomerExternalAccountById" } },
  "tessera.completeKycLink": { response: { sameAs: "getVerification" } },
  "tessera.listEvents": { query: EventsQuery, response: EventList },
  "tessera.webhookPublicKey": { response: WebhookPublicKey },
  "tessera.getClock": { response: Clock },
  "tessera.advanceClock": { response: Clock }
}

/** Every error answer: the spec's envelope, `status` equal to the HTTP status. */
export const ErrorEnvelope = Schema.Struct({
  status: Schema.Int,
  code: Schema.String,
  message: Schema.String,
  details: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}).annotations({ identifier: "Error" })

/** 200 of a signed retry that has not settled yet: send the same request again later. */
export const Processing = Schema.Struct({
  status: Schema.Literal("PROCESSING"),
  message: optional(Schema.String)
}).annotations({ identifier: "Processing" })
