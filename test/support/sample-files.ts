import { crc32, deflateSync } from "node:zlib"

/**
 * Tiny, valid files of each type a document may be, generated here rather than kept as binary
 * fixtures: a 1×1 PNG, an 8×8 grey baseline JPEG and a one-page PDF. `salt` changes the content
 * (so two uploads differ by SHA-256) without changing the type.
 */

const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data])
  return Buffer.concat([u32(data.length), body, u32(crc32(body))])
}

export const tinyPng = (salt = 0): Uint8Array => {
  const header = Buffer.concat([u32(1), u32(1), Buffer.from([8, 2, 0, 0, 0])]) // 1×1, 8-bit RGB
  const pixel = Buffer.from([0, salt & 255, 128, 200]) // filter byte, then R G B
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(pixel)), chunk("IEND", Buffer.alloc(0))])
  )
}

const segment = (marker: number, data: ReadonlyArray<number>) => [0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 255, ...data]

/**
 * One 8×8 block, one component, every coefficient zero: each Huffman table holds the one symbol it
 * needs (DC category 0, AC end-of-block) with the one-bit code `0`, so the scan is two zero bits.
 */
export const tinyJpeg = (salt = 0): Uint8Array =>
  new Uint8Array([
    0xff, 0xd8,
    ...segment(0xfe, [...Buffer.from(`tessera ${salt}`)]), // COM: the salt
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT 0
    ...segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF0: 8-bit, 8×8, one component
    ...segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]), // DHT DC 0: symbol 0
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // DHT AC 0: symbol EOB
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // bits 00, padded with ones
    0xff, 0xd9
  ])

/** A one-page PDF with a correct cross-reference table. */
export const tinyPdf = (salt = 0): Uint8Array => {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Contents 4 0 R >>`,
    `<< /Length 0 /Salt ${salt} >>\nstream\n\nendstream`
  ]
  let text = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text))
    text += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(text)
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) text += `${String(o).padStart(10, "0")} 00000 n \n`
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(text, "latin1"))
}

/** A GIF's first bytes: a real image type that documents do not take. */
export const tinyGif = (): Uint8Array =>
  new Uint8Array([...Buffer.from("GIF89a"), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b])

export type SampleKind = "png" | "jpeg" | "pdf"

export const samples: Record<SampleKind, { readonly bytes: (salt?: number) => Uint8Array; readonly type: string; readonly name: string }> = {
  png: { bytes: tinyPng, type: "image/png", name: "scan.png" },
  jpeg: { bytes: tinyJpeg, type: "image/jpeg", name: "photo.jpg" },
  pdf: { bytes: tinyPdf, type: "application/pdf", name: "statement.pdf" }
}
