// CBOR and WebAuthn: our code beside the libraries it was compared with (issue 10, item 13).
import { decodeCBOR } from "@levischuck/tiny-cbor"
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server"
import { decodeCbor, utf8, verifyAssertion, verifyRegistration } from "@tessera/core/crypto"
import { SoftwarePasskey } from "@tessera/core/testing"

const seconds = () => Number(process.env["BENCH_SECONDS"] ?? 5)

const rate = async (ms: number, f: () => unknown) => {
  let n = 0
  const start = performance.now()
  while (performance.now() - start < ms) {
    await f()
    n++
  }
  return Math.round(n / ((performance.now() - start) / 1000))
}

/** The hand-written reader cbor2 replaced (no duplicate-key, preferred-head or trailing-byte checks). */
const retiredReader = (b: Uint8Array): unknown => {
  let at = 0
  const len = (info: number) => {
    if (info < 24) return info
    const n = [1, 2, 4, 8][info - 24]
    if (n === undefined || at + n > b.length) throw new Error("cbor")
    let v = 0
    for (let i = 0; i < n; i++) v = v * 256 + b[at + i]!
    at += n
    return v
  }
  const item = (depth: number): unknown => {
    if (depth > 16 || at >= b.length) throw new Error("cbor")
    const head = b[at++]!
    const major = head >> 5
    if (major === 7) return [false, true, null, undefined][(head & 0x1f) - 20]
    const l = len(head & 0x1f)
    if (major === 0) return l
    if (major === 1) return -1 - l
    if (major === 2 || major === 3) {
      if (at + l > b.length) throw new Error("cbor")
      const s = b.subarray(at, (at += l))
      return major === 2 ? s : Buffer.from(s).toString("utf8")
    }
    if (major === 4) return Array.from({ length: l }, () => item(depth + 1))
    if (major === 5) return new Map(Array.from({ length: l }, () => [item(depth + 1), item(depth + 1)] as const))
    throw new Error("cbor")
  }
  return item(0)
}

export const webauthnBench = async () => {
  const ms = Math.min(seconds() * 1000, 1500)
  const origin = "https://app.example.com"
  const pk = new SoftwarePasskey({ origin, rpId: "example.com", seed: new Uint8Array(32).fill(1) })
  const challenge = Buffer.from("challenge").toString("base64url")
  const reg = pk.register(challenge)
  const att = Buffer.from(reg.attestationObject, "base64url")
  const attU8 = new Uint8Array(att.buffer, att.byteOffset, att.byteLength)
  const registered = verifyRegistration({ challenge, ...reg })
  if (!registered.ok) throw new Error("bench registration failed")
  const libResponse = { id: reg.credentialId, rawId: reg.credentialId, type: "public-key" as const, clientExtensionResults: {} }
  const libReg = await verifyRegistrationResponse({
    response: { ...libResponse, response: { clientDataJSON: reg.clientDataJson, attestationObject: reg.attestationObject } },
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: "example.com",
    requireUserVerification: false
  })
  if (!libReg.verified) throw new Error("bench library registration failed")
  const hex = "ab".repeat(32)
  const a = pk.assert(hex)
  const passkey = { ...registered.value, signCount: 0 }
  const libAssert = () =>
    verifyAuthenticationResponse({
      response: { ...libResponse, response: { clientDataJSON: a.clientDataJson, authenticatorData: a.authenticatorData, signature: a.signature } },
      expectedChallenge: Buffer.from(hex).toString("base64url"),
      expectedOrigin: origin,
      expectedRPID: "example.com",
      credential: { ...libReg.registrationInfo.credential, counter: 0 },
      requireUserVerification: false
    })
  return {
    attestationObjectBytes: att.length,
    cborDecodePerSec: {
      cbor2Strict: await rate(ms, () => decodeCbor(att)),
      retiredHandWritten: await rate(ms, () => retiredReader(att)),
      tinyCbor: await rate(ms, () => decodeCBOR(attU8))
    },
    registrationPerSec: {
      ours: await rate(ms, () => verifyRegistration({ challenge, ...reg })),
      simplewebauthn: await rate(ms, () =>
        verifyRegistrationResponse({
          response: { ...libResponse, response: { clientDataJSON: reg.clientDataJson, attestationObject: reg.attestationObject } },
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: "example.com",
          requireUserVerification: false
        })
      )
    },
    assertionPerSec: {
      ours: await rate(ms, () => verifyAssertion({ passkey, challengeBytes: utf8(hex), ...a })),
      simplewebauthn: await rate(ms, libAssert)
    },
    note: "one registration (fmt none, ES256) and one assertion prepared once, verified repeatedly; ours is synchronous, simplewebauthn's is a Promise (WebCrypto)"
  }
}
