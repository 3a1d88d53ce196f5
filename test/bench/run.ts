// `pnpm bench`: every figure beside a baseline measured in the same run, printed as JSON.
import { httpBench } from "./http.ts"
import { inProcessBench } from "./in-process.ts"
import { coldStart } from "./cold-start.ts"
import { walletBench } from "./wallet.ts"
import { ownershipBench } from "./ownership.ts"
import { listPageBench } from "./list-page.ts"
import { webauthnBench } from "./webauthn.ts"
import { dueOutcomesBench } from "./due-outcomes.ts"
import { ledgerBench } from "./ledger.ts"
import { quotesBench } from "./quotes.ts"
import { postgresBench } from "./postgres.ts"

const only = process.argv[2]
const out: Record<string, unknown> = {
  node: process.version,
  cpus: (await import("node:os")).cpus().length,
  date: new Date().toISOString()
}
if (only === undefined || only === "in-process") out["inProcess"] = await inProcessBench()
if (only === undefined || only === "cold-start") out["coldStart"] = await coldStart()
if (only === undefined || only === "http") out["http"] = await httpBench()
if (only === undefined || only === "wallet") out["wallet"] = await walletBench()
if (only === undefined || only === "ownership") out["ownership"] = await ownershipBench()
if (only === undefined || only === "list-page") out["listPage"] = await listPageBench()
if (only === undefined || only === "webauthn") out["webauthn"] = await webauthnBench()
if (only === undefined || only === "due-outcomes") out["dueOutcomes"] = await dueOutcomesBench()
if (only === undefined || only === "ledger") out["ledger"] = await ledgerBench()
if (only === undefined || only === "quotes") out["quotes"] = await quotesBench()
if (only === undefined || only === "postgres") out["postgres"] = await postgresBench()
process.stdout.write(JSON.stringify(out, null, 2) + "\n")
process.exit(0)
