import { Schema } from "effect"
import { ExternalAccountFields } from "../operations/external-accounts/external-accounts.ts"

/**
 * The external-account create body as an embedder types it: the common fields, and
 * `accountInfo` with its `accountType` and that type's fields. The program checks the fields
 * against the reference's per-type schemas, which the served document publishes instead.
 */
export const ExternalAccountCreate = Schema.extend(
  ExternalAccountFields,
  Schema.Struct({
    accountInfo: Schema.Struct({ accountType: Schema.String }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  })
)
