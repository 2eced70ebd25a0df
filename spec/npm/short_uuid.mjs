// spec/npm/short_uuid.mjs FILE: the reference (npm short-uuid) against
// mintid's short UUIDs, from the lines spec/npm/short_uuid.lua wrote: a
// "read" line passes when mintid parsed the reference's text to its UUID
// at the reference's length; a "mint" line when the reference writes the
// same text for the UUID and reads it back to the UUID; a "corrupt" line
// when those checks catch it. One TAP line each.
import { readFileSync } from 'node:fs';
import shortUuid from 'short-uuid';

const fromHex = (h) => String.fromCharCode(...h.match(/../g).map((x) => parseInt(x, 16)));
const translators = new Map();
function translator(alphabetHex) {
  if (!translators.has(alphabetHex)) translators.set(alphabetHex, shortUuid.createTranslator(fromHex(alphabetHex)));
  return translators.get(alphabetHex);
}

// The first failing check of a minted line as text, or null.
function mintFailure(alphabetHex, uuid, textHex) {
  const t = translator(alphabetHex);
  const text = fromHex(textHex);
  const ref = t.fromUUID(uuid);
  if (ref !== text) return `short-uuid fromUUID(uuid) is ${JSON.stringify(ref)}, mintid says ${JSON.stringify(text)}`;
  const back = t.toUUID(text);
  if (back !== uuid) return `short-uuid toUUID(text) is ${back}, mintid's UUID ${uuid}`;
  if (!t.validate(text)) return 'short-uuid validate(text) is false';
  return null;
}

const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l !== '');
let n = 0;
let failed = 0;
for (const line of lines) {
  n += 1;
  const [kind, module, alphabetHex, uuid, textHex, verdict] = line.split('\t');
  const what = `short UUID ${uuid} in a ${alphabetHex.length / 2}-symbol alphabet (${module})`;
  let failure;
  if (kind === 'read') {
    failure = verdict === 'ok' ? null : `mintid read the reference's text ${textHex}: ${verdict}`;
  } else if (kind === 'mint' || kind === 'corrupt') {
    failure = mintFailure(alphabetHex, uuid, textHex);
  } else {
    failure = `unknown line kind ${kind}`;
  }
  if (kind === 'corrupt') {
    if (failure) {
      console.log(`ok ${n} - corrupted ${what} is caught: ${failure}`);
    } else {
      console.log(`not ok ${n} - corrupted ${what} passes every check: the checks cannot fail`);
      failed += 1;
    }
  } else if (failure) {
    console.log(`not ok ${n} - ${kind} ${what}: ${failure}`);
    failed += 1;
  } else {
    console.log(`ok ${n} - ${kind} ${what}`);
  }
}
console.log(`1..${n}`);
process.exit(failed === 0 && n > 0 ? 0 : 1);
