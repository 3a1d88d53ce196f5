import { StateDocument } from "../domain/sandbox/state-document.ts"
import { AdvanceBody, advanceClock, clockState } from "../operations/sandbox/clock.ts"
import { ProcessingHoldBody, setProcessingHold } from "../operations/sandbox/processing-control.ts"
import { fundInternalAccount, SandboxFundBody } from "../operations/sandbox/fund.ts"
import { exportPlatformState, importPlatformState, resetPlatform } from "../operations/sandbox/state.ts"
import { endpoint } from "./define.ts"

/**
 * Tessera's own sandbox controls: processing holds of signed retries (DECISIONS #18), the clock
 * (DECISIONS #20), and the platform's state (README, "Sandbox state"). An import over HTTP is a
 * request body like any other, so the 1 MiB cap applies (413); bigger documents go through the
 * embedding API or the CLI.
 */
export const sandboxEndpoints = [
  endpoint({
    group: "sandbox",
    name: "fundInternalAccount",
    method: "POST",
    path: "/sandbox/internal-accounts/{accountId}/fund",
    operationId: "sandboxFundInternalAccount",
    status: 200,
    summary: "Sandbox: money from the sandbox's funding source into an internal account's available balance",
    body: SandboxFundBody,
    run: (r) => fundInternalAccount(r.platform, r.params.accountId, r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "holdAccountOperations",
    method: "POST",
    path: "/sandbox/internal-accounts/{id}/processing",
    operationId: "tessera.holdAccountOperations",
    status: 200,
    summary: "Sandbox: the wallet's next signed operations answer 200 PROCESSING for a while; 0 operations lifts the hold",
    body: ProcessingHoldBody,
    run: (r) => setProcessingHold(r.platform, r.params.id, r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "holdPlatformOperations",
    method: "POST",
    path: "/sandbox/processing",
    operationId: "tessera.holdPlatformOperations",
    status: 200,
    summary: "Sandbox: the platform's next signed operations answer 200 PROCESSING for a while; 0 operations lifts the hold",
    body: ProcessingHoldBody,
    run: (r) => setProcessingHold(r.platform, undefined, r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "getClock",
    method: "GET",
    path: "/sandbox/clock",
    operationId: "tessera.getClock",
    status: 200,
    summary: "Sandbox: the server's current time and whether its clock is real or virtual",
    run: () => clockState
  }),
  endpoint({
    group: "sandbox",
    name: "advanceClock",
    method: "POST",
    path: "/sandbox/clock/advance",
    operationId: "tessera.advanceClock",
    status: 200,
    summary: "Sandbox: move a virtual clock forward, so expiries and webhook retries come due",
    body: AdvanceBody,
    run: (r) => advanceClock(r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "reset",
    method: "POST",
    path: "/sandbox/reset",
    operationId: "tessera.resetSandbox",
    status: 200,
    summary: "Sandbox: remove every record of the calling platform and leave it as a new platform is",
    run: (r) => resetPlatform(r.platform)
  }),
  endpoint({
    group: "sandbox",
    name: "exportState",
    method: "GET",
    path: "/sandbox/state",
    operationId: "tessera.exportSandboxState",
    status: 200,
    summary: "Sandbox: the calling platform's whole state as one versioned JSON document",
    run: (r) => exportPlatformState(r.platform)
  }),
  endpoint({
    group: "sandbox",
    name: "importState",
    method: "PUT",
    path: "/sandbox/state",
    operationId: "tessera.importSandboxState",
    status: 200,
    summary: "Sandbox: replace the calling platform's state with an exported document, checked whole before anything is written",
    body: StateDocument,
    run: (r) => importPlatformState(r.platform, r.body)
  })
]
