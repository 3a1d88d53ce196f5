// Stands in for curl in the banner test, so the test does not depend on curl being installed:
// it accepts exactly the words the banner's command should produce (`[-g] -u id:secret URL`),
// sends the request with Basic auth, prints the status and fails (exit 22, as curl -f) unless 200.
const args = process.argv.slice(2)
if (args[0] === "-g") args.shift()
if (args.length !== 3 || args[0] !== "-u") {
  process.stderr.write(`fake curl: unexpected arguments ${JSON.stringify(process.argv.slice(2))}\n`)
  process.exit(2)
}
const credentials = args[1]
const colon = credentials.indexOf(":")
const auth = Buffer.from(`${credentials.slice(0, colon)}:${credentials.slice(colon + 1)}`).toString("base64")
const res = await fetch(args[2], { headers: { authorization: `Basic ${auth}` } })
process.stdout.write(`${res.status}\n`)
process.exit(res.status === 200 ? 0 : 22)
