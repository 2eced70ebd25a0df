// spec/npm/sqids.mjs FILE [BLOCKLIST_C]: the npm reference sqids recomputes
// every ID of FILE (spec/npm/sqids.lua): for each option set, encode() of
// each list must be mintid's ID (or throw where mintid raised, every
// attempt blocked) and decode() of it the list. One TAP line per option
// set; a set marked "corrupt" passes only when some check refuses it. With
// BLOCKLIST_C (src/sqids_blocklist.c), also checks that the words mintid
// ships are the reference's default blocklist.
import { readFileSync } from 'node:fs';
import Sqids from 'sqids';

function firstFailure(r) {
  let s;
  try {
    s = new Sqids({ alphabet: r.alphabet, minLength: r.minLength,
      blocklist: r.blocklist === null ? undefined : new Set(r.blocklist) });
  } catch (e) {
    return `the reference refuses the options: ${e.message}`;
  }
  for (const [numbers, id] of r.cases) {
    let got;
    try {
      got = s.encode(numbers);
    } catch (e) {
      if (id === null && e.message === 'Reached max attempts to re-generate the ID') continue;
      return `encode([${numbers}]) throws ${e.message}, mintid gives ${JSON.stringify(id)}`;
    }
    if (got !== id) return `encode([${numbers}]) is ${JSON.stringify(got)}, mintid gives ${JSON.stringify(id)}`;
    const back = s.decode(id);
    if (JSON.stringify(back) !== JSON.stringify(numbers)) {
      return `decode(${JSON.stringify(id)}) is [${back}], want [${numbers}]`;
    }
  }
  return null;
}

const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l !== '');
let n = 0;
let failed = 0;
function tap(ok, what) {
  n += 1;
  if (!ok) failed += 1;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${what}`);
}
for (const line of lines) {
  const r = JSON.parse(line);
  const what = `sqids set ${r.set} (${r.module}): ${r.cases.length} lists, alphabet of ${r.alphabet.length}, `
    + `minLength ${r.minLength}, blocklist ${r.blocklist === null ? 'default' : r.blocklist.length + ' words'}`;
  const failure = firstFailure(r);
  if (r.corrupt) tap(failure !== null, `corrupted ${what} is caught: ${failure}`);
  else tap(failure === null, failure === null ? what : `${what}: ${failure}`);
}
if (process.argv[3]) {
  const shipped = [...readFileSync(process.argv[3], 'utf8').split('= {')[1].matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const reference = [...new Sqids().blocklist]; // every default word is kept for the default alphabet
  tap(JSON.stringify(shipped.sort()) === JSON.stringify(reference.sort()),
    `the ${shipped.length} words mintid ships are the reference's default blocklist (${reference.length})`);
}
console.log(`1..${n}`);
process.exit(failed === 0 && n > 0 ? 0 : 1);
