import { mnemonicToSeedSync, validateMnemonic } from "@scure/bip39"
import { wordlist as english } from "@scure/bip39/wordlists/english.js"
import { HDKey } from "@scure/bip32"
import { type ChainSigner, evmSigner } from "./chain-signers.ts"

/** BIP-44's first Ethereum account, the one a wallet shows first when it imports a mnemonic. */
export const EVM_ACCOUNT_PATH = "m/44'/60'/0'/0/0"

/**
 * What a client does with the mnemonic `decryptExport` returns: import it as any BIP-39 wallet
 * would (English words, checksum checked, no passphrase) and derive the secp256k1 key at `path`
 * (BIP-32), here as an EVM signer. The seed's PBKDF2 (2048 rounds) makes each call take
 * milliseconds; keep the signer rather than deriving it per message.
 */
export const mnemonicSigner = (mnemonic: string, path: string = EVM_ACCOUNT_PATH): ChainSigner => {
  if (!validateMnemonic(mnemonic, english)) throw new Error("not a BIP-39 mnemonic (English word list, valid checksum)")
  const key = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(path).privateKey
  if (key === null) throw new Error(`no private key at ${path}`)
  return evmSigner(key)
}
