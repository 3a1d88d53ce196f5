import type { Effect } from "effect"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import type { Reply } from "../domain/reply.ts"

/**
 * A signed operation by name, runnable from stored input: what the first call binds, the retry
 * runs, and reconciliation settles on its own after a PROCESSING hold (spec, still-processing 4).
 */
export interface SignedOperation<I = unknown> {
  readonly kind: string
  /** Export is the exception: its result exists only in the answer to the re-sent retry. */
  readonly reconcilable: boolean
  readonly run: (platform: PlatformRecord, input: I) => Effect.Effect<Reply, unknown, never>
}

// The operations' requirements are the engine's services; a signed operation erases them so that
// signed-retry need not import every operation module. Which operations exist is listed in
// operations/common/signed-operations.ts (`signedOperation`), not gathered as modules load.
export const defineSignedOperation = <I, E, R>(
  kind: string,
  run: (platform: PlatformRecord, input: I) => Effect.Effect<Reply, E, R>,
  options: { readonly reconcilable?: boolean } = {}
): SignedOperation<I> => ({ kind, reconcilable: options.reconcilable ?? true, run: run as never })
