import { decryptExport } from "./wallet.ts"

/** A card's details as a reveal seals them (`POST /cards/{id}/reveal` with a `clientPublicKey`). */
export interface RevealedCard {
  readonly pan: string
  readonly cvv: string
  readonly expMonth: number
  readonly expYear: number
}

/**
 * Opens the details a reveal sealed into its `panEmbedUrl` (the `bundle` of its fragment, the
 * base64url of a bundle in the wallet export's format) with the client's private key.
 */
export const decryptCardReveal = (panEmbedUrl: string, clientPrivateKey: string): RevealedCard => {
  const bundle = new URLSearchParams(new URL(panEmbedUrl).hash.slice(1)).get("bundle")
  if (bundle === null) throw new Error("this reveal URL carries no sealed details: reveal with a clientPublicKey")
  return JSON.parse(decryptExport(Buffer.from(bundle, "base64url").toString("utf8"), clientPrivateKey)) as RevealedCard
}
