import type { SignedOperation } from "../../signed-retry/registry.ts"
import { changeCustomerEmailOp } from "../customers/customers.ts"
import { createDelegatedKeyOp } from "../delegated-keys/delegated-keys.ts"
import { exportWalletOp, updateInternalAccountOp } from "../internal-accounts/wallet-account.ts"
import { executeQuoteOp } from "../quotes/execute-call.ts"
import { otpLoginOp } from "../wallet-auth/credential-auth.ts"
import { createCredentialOp, revokeCredentialOp } from "../wallet-auth/credentials.ts"
import { refreshSessionOp, revokeSessionOp } from "../wallet-auth/sessions.ts"

/**
 * Every signed operation, which reconciliation runs by the kind a held request names (spec,
 * still-processing 4). Listed here rather than registered by each module as it loads: a process
 * may evaluate a group's modules only at its first request (the CLI's bundle, DECISIONS #499),
 * and a hold made before a restart, by another process on the same database or in an imported
 * state must still settle (#503). A function, read at the first lookup: these modules import
 * reconciliation, so none of them is evaluated yet when this one is. Each operation is exported
 * by its module under its kind's name (`updateInternalAccountOp`), and so is public from
 * `@tessera/core/operations` as these two functions are.
 */
export const signedOperations = (): ReadonlyArray<SignedOperation> => [
  changeCustomerEmailOp,
  createDelegatedKeyOp,
  exportWalletOp,
  updateInternalAccountOp,
  executeQuoteOp,
  otpLoginOp,
  createCredentialOp,
  revokeCredentialOp,
  refreshSessionOp,
  revokeSessionOp
] as ReadonlyArray<SignedOperation>

let byKind: ReadonlyMap<string, SignedOperation> | undefined

/** The signed operation of a kind; undefined for a kind no operation has (one a newer version stored). */
export const signedOperation = (kind: string): SignedOperation | undefined =>
  (byKind ??= new Map(signedOperations().map((op) => [op.kind, op]))).get(kind)
