import { createHash, randomBytes } from "node:crypto"
import { bytesToBase64Url, concatBytes, hexToBytes, signP256, utf8 } from "../crypto/index.ts"
import { type CborIn, encodeCbor } from "./cbor-encode.ts"
import { type KeyPair, newKeyPair } from "./wallet.ts"

const sha256 = (b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest())

/**
 * A software passkey (WebAuthn authenticator, ES256, attestation `none`) bound to one origin
 * and relying-party id. It keeps a signature counter, as a hardware key does; `counter: "none"`
 * makes it behave like a synced passkey that always reports 0.
 */
export class SoftwarePasskey {
  readonly key: KeyPair
  readonly credentialId: string
  private count = 0

  constructor(
    readonly options: { readonly origin: string; readonly rpId: string; readonly counter?: "increment" | "none"; readonly seed?: Uint8Array } = {
      origin: "https://wallet.example.com",
      rpId: "wallet.example.com"
    }
  ) {
    this.key = newKeyPair(options.seed)
    this.credentialId = bytesToBase64Url(options.seed === undefined ? randomBytes(16) : sha256(options.seed).subarray(0, 16))
  }

  private authData(flags: number, attested?: Uint8Array): Uint8Array {
    if (this.options.counter !== "none") this.count++
    const counter = Uint8Array.of((this.count >>> 24) & 0xff, (this.count >> 16) & 0xff, (this.count >> 8) & 0xff, this.count & 0xff)
    return concatBytes(sha256(utf8(this.options.rpId)), Uint8Array.of(flags), counter, attested ?? new Uint8Array())
  }

  /** `navigator.credentials.create` for the platform-issued base64url `challenge`. */
  register(challenge: string) {
    const raw = Buffer.from(this.credentialId, "base64url")
    const pub = hexToBytes(this.key.publicKeyUncompressed)!
    const cose = encodeCbor(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, pub.subarray(1, 33)], [-3, pub.subarray(33, 65)]]))
    const attested = concatBytes(new Uint8Array(16), Uint8Array.of(raw.length >> 8, raw.length & 0xff), raw, cose)
    const authData = this.authData(0x45, attested) // UP | UV | AT
    const clientDataJson = JSON.stringify({ type: "webauthn.create", challenge, origin: this.options.origin, crossOrigin: false })
    const attestationObject = encodeCbor(
      new Map<CborIn, CborIn>([
        ["fmt", "none"],
        ["attStmt", new Map<CborIn, CborIn>()],
        ["authData", authData]
      ])
    )
    return {
      credentialId: this.credentialId,
      clientDataJson: bytesToBase64Url(utf8(clientDataJson)),
      attestationObject: bytesToBase64Url(attestationObject),
      transports: ["internal"] as Array<"internal">
    }
  }

  /** `navigator.credentials.get` over the UTF-8 bytes of the server's hex `challenge`, exactly as returned. */
  assert(challenge: string, overrides: { readonly origin?: string; readonly userPresent?: boolean } = {}) {
    const authData = this.authData(overrides.userPresent === false ? 0x04 : 0x05)
    const clientDataJson = utf8(
      JSON.stringify({ type: "webauthn.get", challenge: bytesToBase64Url(utf8(challenge)), origin: overrides.origin ?? this.options.origin, crossOrigin: false })
    )
    const signature = signP256(this.key.privateKey, concatBytes(authData, sha256(clientDataJson)))
    return {
      credentialId: this.credentialId,
      clientDataJson: bytesToBase64Url(clientDataJson),
      authenticatorData: bytesToBase64Url(authData),
      signature: bytesToBase64Url(signature)
    }
  }
}
