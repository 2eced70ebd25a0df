// spec/npm/short_uuid_ref.mjs: short UUIDs written by the reference (npm
// short-uuid, pinned in spec/npm/run.sh), for spec/npm/short_uuid.lua to
// read back: one line a UUID, "alphabet_hex TAB uuid TAB text_hex TAB
// max_length". Alphabets: the reference's named ones, one of every size
// 2..256, and the 256 bytes; each character of an alphabet is a byte
// (its char code, 0..255), as mintid's symbols are.
import { randomBytes } from 'node:crypto';
import shortUuid from 'short-uuid';

const { createTranslator, constants } = shortUuid;

const hex = (s) => Array.from(s, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

function uuidOf(b) {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// n distinct bytes in a random order as a string of char codes; when one
// is past ASCII, 0xff is among them, so that the bytes are never UTF-8
// text (which mintid refuses as an alphabet of characters).
function randomAlphabet(n) {
  const all = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 255; i > 0; i -= 1) {
    const j = randomBytes(2).readUInt16BE(0) % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  const picked = all.slice(0, n);
  if (picked.some((b) => b >= 0x80) && !picked.includes(0xff)) picked[0] = 0xff;
  return String.fromCharCode(...picked);
}

const alphabets = [
  ...Object.values(constants).map((a) => [a, 400]),
  [String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)), 50],
];
for (let n = 2; n <= 256; n += 1) alphabets.push([randomAlphabet(n), 4]);

const lines = [];
for (const [alphabet, count] of alphabets) {
  const t = createTranslator(alphabet);
  const uuids = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];
  for (let i = 0; i < count; i += 1) uuids.push(uuidOf(randomBytes(16)));
  for (const uuid of uuids) lines.push([hex(alphabet), uuid, hex(t.fromUUID(uuid)), t.maxLength].join('\t'));
}
process.stdout.write(`${lines.join('\n')}\n`);
