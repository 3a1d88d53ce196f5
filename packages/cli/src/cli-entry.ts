// The entry of the bundled CLI (bin/tessera.mjs builds dist/ from here).
import { main } from "./cli.ts"

void main(process.argv.slice(2))
