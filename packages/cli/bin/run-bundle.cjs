// Loads the CLI bundle (one CommonJS file made by scripts/bundle-cli.mjs) through V8's code cache.
// Compiling the bundle's functions took about a third of a cold start; V8 can store what it
// compiled and reuse it, but Node offers that for ES modules only from 22.1 on
// (module.enableCompileCache), so the bundle is a script compiled here with vm.Script, and the
// cache is written beside it once the server has started and answered its first request (or
// 1.5 s after the start, whichever comes first).
//
// The bundle's first line is `// tessera-bundle <sha256 of the rest>`. The cache file starts with
// the id of the bundle it was made from: V8 itself checks only the source's length, so an id
// match is what keeps a cache of an older bundle from ever being used. Where the bundle's folder is
// not writable (a system-wide install) the cache is simply not kept.
//
// CommonJS, as the dev runner is: each ES module a start loads costs it more than a CommonJS
// one does (node's loader resolves and links them asynchronously, reading files in its thread
// pool), ~4 ms for these two (DECISIONS #501).
"use strict"
const { subscribe, unsubscribe } = require("node:diagnostics_channel")
const { readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs")
const { createRequire } = require("node:module")
const { dirname } = require("node:path")
const vm = require("node:vm")

const HEADER = "// tessera-bundle "
const ID_LENGTH = 64
// Long enough for the server to be up; the first answer, when it comes sooner, writes the cache then.
const CACHE_AFTER_MS = 1500
// node:http publishes each answer it has sent on this channel (since Node 15.1).
const ANSWERED = "http.server.response.finish"

/** The bundle's text. It is ASCII (esbuild's charset "ascii"), so latin1 reads it as UTF-8 would, faster. */
const readBundle = (file) => readFileSync(file, "latin1")

/** The bundle's id, from its first line; undefined for a file without the header. */
const bundleId = (source) => (source.startsWith(HEADER) ? source.slice(HEADER.length, HEADER.length + ID_LENGTH) : undefined)

const readCache = (cacheFile, id) => {
  try {
    const data = readFileSync(cacheFile)
    return data.subarray(0, ID_LENGTH).toString("latin1") === id ? data.subarray(ID_LENGTH) : undefined
  } catch {
    return undefined
  }
}

const writeCache = (cacheFile, id, script) => {
  const aside = `${cacheFile}.${process.pid}.tmp`
  try {
    writeFileSync(aside, Buffer.concat([Buffer.from(id, "latin1"), script.createCachedData()]))
    renameSync(aside, cacheFile)
  } catch {
    // A read-only install: every start compiles, as without the cache.
    rmSync(aside, { force: true })
  }
}

// No V8 flag is set here. The CLI used to grow the young generation sixteenfold at a time
// (`--semi-space-growth-factor`, DECISIONS #433, #465), which needed node:v8 (~1.5 ms to load)
// and, since a flag makes V8 reject node's own code cache, every built-in module a start uses
// loaded before it (#490). Once the start allocated less, the flag bought nothing, and without
// it and node:v8 the bundle is compiled ~7 ms sooner, most of which the later loads of the
// built-ins a start does need take back (#515).

/**
 * Compiles the bundle at `file` (with its cache when there is a matching one) and returns a
 * function that runs it. Compiling and running are apart so that the dev runner can check the
 * bundle is up to date while V8 compiles.
 */
const compileBundle = (file, source = readBundle(file)) => {
  const id = bundleId(source)
  const cacheFile = `${file}.cache`
  const cachedData = id === undefined ? undefined : readCache(cacheFile, id)
  // The bundle is one function expression (scripts/bundle-cli.mjs), compiled as it is: a wrapper
  // added here made a new 2 MB string that V8 flattened at every start (~1.5 ms, DECISIONS #522).
  const script = new vm.Script(source, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
    // A dynamic import() in the bundle resolves as in any module. There is none today: esbuild
    // turns the workspace's into requires, and pg (whose Cloudflare path has one) is in the side
    // libraries' file, loaded by node's own require (DECISIONS #517).
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER === undefined ? {} : { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER })
  })
  return {
    run: () => {
      const module = { exports: {} }
      const main = script.runInThisContext()
      if (typeof main !== "function") throw new Error(`${file} is not a bundle of this CLI's format (build it again)`)
      main(module.exports, createRequire(file), module, file, dirname(file))
      if (id !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
        // Once, at the first of: the first answer sent (once it is on its way), 1.5 s. V8 keeps in
        // a cache every function compiled so far and reads all of it back at each start, so a
        // cache written later, after a burst of requests to many routes (a test suite's), made
        // every later start slower (~4 ms for a third more of it, DECISIONS #500); written at the
        // first answer it holds the start and one request. Never at exit: a `--version` or a
        // refused start would leave a cache without the server's code, which every later start
        // would then compile again (#503). The write takes a few ms, once per bundle: the
        // request after the first answer may wait that long.
        let written = false
        const write = () => {
          if (written) return
          written = true
          unsubscribe(ANSWERED, answered)
          writeCache(cacheFile, id, script)
        }
        const answered = () => setImmediate(write)
        subscribe(ANSWERED, answered)
        setTimeout(write, CACHE_AFTER_MS).unref()
      }
    }
  }
}

module.exports = { bundleId, compileBundle, readBundle }
