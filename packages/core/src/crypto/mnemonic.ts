import { createHmac } from "node:crypto"
import { entropyToMnemonic } from "@scure/bip39"
import { wordlist as english } from "@scure/bip39/wordlists/english.js"

/**
 * A wallet's BIP-39 mnemonic: 24 English words over 256 bits of entropy, HMAC-SHA256 of the
 * account id under a server key. Deterministic, so every export of a wallet seals the same words
 * and nothing secret is stored with the account (nor in a state document); a server with another
 * key (an imported state) gives the same wallet other words. 256 bits keeps the strength of the
 * secret this replaced (the same HMAC, once sealed as `seed:<hex>`), whose bytes are now the
 * mnemonic's entropy. Only `entropyToMnemonic` runs here (a checksum, no PBKDF2): the slow
 * `mnemonicToSeed` is the client's, when it derives keys.
 */
export const walletMnemonic = (serverKey: Uint8Array, accountId: string): string =>
  entropyToMnemonic(new Uint8Array(createHmac("sha256", serverKey).update(accountId).digest()), english)
