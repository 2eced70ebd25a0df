// spec/npm/objectid_xid_refs.mjs: ObjectIds and XIDs minted by the npm
// references (bson's ObjectId, xid-ts's Xid), one JSON object a line
// ({ kind, id }): spec/npm/mint.lua parses each in mintid and writes what
// mintid reads of it, which spec/npm/check.mjs compares with what the
// reference reads. So IDs the references mint parse in mintid with the same
// time, counter, machine and pid. spec/npm/run.sh runs it from the folder
// of the packages' node_modules.
import { ObjectId } from 'bson';
import { webcrypto } from 'node:crypto';

// xid-ts reads globalThis.crypto once, as it loads, and Node 18 (Debian
// 12's) has none: node:crypto's Web Crypto is put there first.
if (!globalThis.crypto) globalThis.crypto = webcrypto;
const { Xid } = await import('xid-ts');

const out = [];
for (let i = 0; i < 8; i += 1) out.push({ kind: 'objectid', id: new ObjectId().toHexString() });
for (const s of [0, 1, 1350508407, 1700000000, 4294967295]) {
  out.push({ kind: 'objectid', id: new ObjectId(ObjectId.generate(s)).toHexString() });
  out.push({ kind: 'objectid', id: ObjectId.createFromTime(s).toHexString() });
  out.push({ kind: 'xid', id: Xid.newWithTime(s).encode() });
}
for (let i = 0; i < 8; i += 1) out.push({ kind: 'xid', id: new Xid().encode() });
process.stdout.write(out.map((r) => `${JSON.stringify(r)}\n`).join(''));
