// spec/npm/check.mjs FILE: the npm references read back what mintid mints.
// FILE holds one JSON object a line (spec/npm/mint.lua): an ID and what
// mintid says of it. Each is parsed or recomputed by the reference of its
// kind (uuid, ksuid, typeid-js, @sapphire/snowflake, sonyflake, snowflake-id,
// @paralleldrive/cuid2, bson, xid-ts)
// and compared field by field; one TAP line per
// ID. A record marked "corrupt" (an ID with its last character changed)
// passes only when some check refuses it. spec/npm/run.sh copies this file
// next to the packages' node_modules, from where its imports resolve.
import { readFileSync } from 'node:fs';
import { MAX, NIL, v1, v1ToV6, v3, v5, v6, v6ToV1, validate, version } from 'uuid';
import KSUID from 'ksuid';
import { TypeID, fromString, getType, toUUID } from 'typeid-js';
import { DiscordSnowflake, TwitterSnowflake } from '@sapphire/snowflake';
import { Sonyflake } from 'sonyflake';
import SnowflakeIdModule from 'snowflake-id';
import { ObjectId } from 'bson';
import { webcrypto } from 'node:crypto';
import { init as cuid2Init, isCuid } from '@paralleldrive/cuid2';
// createFingerprint is exported by the package's src/index.js but not by its
// entry point: reached by the file's path (this script sits next to node_modules).
import { createFingerprint } from './node_modules/@paralleldrive/cuid2/src/index.js';

// xid-ts reads globalThis.crypto once, as it loads, and Node 18 (Debian
// 12's) has none: node:crypto's Web Crypto is put there first.
if (!globalThis.crypto) globalThis.crypto = webcrypto;
const { Xid } = await import('xid-ts');

const SnowflakeId = SnowflakeIdModule.default || SnowflakeIdModule;

// Twitter's and Discord's 10 machine bits: 5 of worker, 5 of process.
function sapphireChecks(reference) {
  return (r) => {
    const d = reference.deconstruct(r.id);
    const machine = BigInt(r.machine);
    return [
      ['@sapphire/snowflake deconstruct(id).timestamp', d.timestamp, BigInt(r.time)],
      ['@sapphire/snowflake deconstruct(id).workerId', d.workerId, machine >> 5n],
      ['@sapphire/snowflake deconstruct(id).processId', d.processId, machine & 31n],
      ['@sapphire/snowflake deconstruct(id).increment', d.increment, BigInt(r.seq)],
      ['@sapphire/snowflake generate({ timestamp, increment, workerId, processId })', reference.generate({
        timestamp: BigInt(r.time), increment: BigInt(r.seq), workerId: machine >> 5n, processId: machine & 31n,
      }).toString(), r.id],
    ];
  };
}

// The sonyflake package reads and writes the time field as ms since its
// epoch (Sonyflake's own unit is 10 ms): its timestamp of an ID of the
// sonyflake preset is the count of 10 ms units, read with epoch 0; of the
// 1 ms layout of its own widths ("sonyflake_ms"), the Unix ms.
function sonyflakeChecks(r) {
  const epoch = r.kind === 'sonyflake' ? 0 : r.epoch;
  const time = r.kind === 'sonyflake' ? r.units : r.time;
  const d = Sonyflake.decompose(r.id, { epoch });
  return [
    ['sonyflake decompose(id).timestamp', d.timestamp, time],
    ['sonyflake decompose(id).machineId', d.machineId, r.machine],
    ['sonyflake decompose(id).sequence', d.sequence, r.seq],
    ['sonyflake generateCustomId({ timestamp, sequence })',
      new Sonyflake({ epoch, machineId: r.machine }).generateCustomId({ timestamp: time, sequence: r.seq }), r.id],
  ];
}

// snowflake-id (SPEC.md's reference) mints on Date.now() only, and has no
// parser: with the clock held at the ID's ms it mints sequence 0, 1, ... of
// that ms, and the ID of the same sequence must be mintid's, bit for bit.
function snowflakeIdChecks(r) {
  const realNow = Date.now;
  let id;
  try {
    Date.now = () => r.time;
    const reference = new SnowflakeId({ mid: r.machine, offset: 0 });
    for (let i = 0; i <= r.seq; i += 1) id = reference.generate();
  } finally {
    Date.now = realNow;
  }
  return [['snowflake-id generate() at the same ms, machine and sequence', id, r.id]];
}

// CUID2: the reference's isCuid; where mintid.lua knows the inputs, the
// reference's init mints the same ID from them: Date.now held at the time,
// a random() whose values floor to the counter, the letter and the salt
// digits in the order init and cuid2() call it, and the fingerprint given
// or made by createFingerprint (no global object) from the same 32 digits.
function cuid2Checks(r) {
  const list = [['@paralleldrive/cuid2 isCuid(id)', isCuid(r.id), true]];
  if (r.counter === undefined) return list;
  const values = (items) => {
    let i = 0;
    return () => {
      if (i >= items.length) throw new Error('random() called more often than mintid drew');
      const v = items[i];
      i += 1;
      return v;
    };
  };
  const digit = (c) => (parseInt(c, 36) + 0.5) / 36;
  const fingerprint = r.fingerprint !== undefined ? r.fingerprint
    : createFingerprint({ globalObj: {}, random: values([...r.entropy].map(digit)) });
  const realNow = Date.now;
  let id;
  try {
    Date.now = () => r.time;
    const rand = values([(r.counter + 0.5) / 476782367, (r.letter.charCodeAt(0) - 97 + 0.5) / 26,
      ...[...r.salt].map(digit)]);
    id = cuid2Init({ random: rand, length: r.salt.length, fingerprint })();
  } finally {
    Date.now = realNow;
  }
  list.push(['@paralleldrive/cuid2 init({ random, length, fingerprint })() from the same inputs', id, r.id]);
  return list;
}

// RFC 9562 section 6.6; the uuid package exports only the first two.
const NAMESPACES = [v5.DNS, v5.URL, '6ba7b812-9dad-11d1-80b4-00c04fd430c8', '6ba7b814-9dad-11d1-80b4-00c04fd430c8'];

// Each check returns a list of [what, got, want]; a pair that differs fails.
function uuidChecks(r) {
  const list = [
    ['uuid validate()', validate(r.id), true],
    ['uuid version()', validate(r.id) && version(r.id), r.version],
  ];
  if (r.uuid6 !== undefined) {
    list.push(['uuid v1ToV6(id)', v1ToV6(r.id), r.uuid6], ['uuid v6ToV1(v6)', v6ToV1(r.uuid6), r.id]);
  }
  if (r.uuid1 !== undefined) {
    list.push(['uuid v6ToV1(id)', v6ToV1(r.id), r.uuid1], ['uuid v1ToV6(v1)', v1ToV6(r.uuid1), r.id]);
  }
  if (r.msecs !== undefined) {
    // the reference mints the same ID from the same time, clock_seq and node;
    // `random` (unused when both are given) keeps it off globalThis.crypto,
    // which Node 18 (Debian 12's) does not have
    const make = r.kind === 'uuid1' ? v1 : v6;
    const options = {
      msecs: r.msecs, nsecs: 0, clockseq: r.clockseq, node: Buffer.from(r.node, 'hex'), random: new Uint8Array(16),
    };
    list.push([`uuid ${r.kind}({ msecs, nsecs: 0, clockseq, node })`, make(options), r.id]);
    list.push(['time() against the clock reading', r.time, r.msecs]);
  }
  // last, so that a corrupted ID shows the kind's own check failing first
  list.push(['typeid-js TypeID.fromUUID("", id)', TypeID.fromUUID('', r.id).toString(), r.typeid]);
  return list;
}

// ObjectId (bson) and XID (xid-ts): the reference's reading of each field.
// bson has no accessor for the random bytes and counter: its 12 bytes then.
function objectidChecks(r) {
  const o = ObjectId.createFromHexString(r.id);
  const b = Buffer.from(o.id);
  return [
    ['bson ObjectId.isValid(id)', ObjectId.isValid(r.id), true],
    ['bson createFromHexString(id).toHexString()', o.toHexString(), r.id],
    ['bson getTimestamp()', o.getTimestamp().getTime(), r.time],
    ['bson .id bytes 4..8 (the random value)', b.subarray(4, 9).toString('hex'), r.random],
    ['bson .id bytes 9..11 (the counter)', b.readUIntBE(9, 3), r.counter],
  ];
}

function xidChecks(r) {
  const x = Xid.parse(r.id);
  return [
    ['xid-ts parse(id).encode()', x.encode(), r.id],
    ['xid-ts timestamp()', x.timestamp() * 1000, r.time],
    ['xid-ts machine()', Buffer.from(x.machine()).toString('hex'), r.machine],
    ['xid-ts pid()', x.pid(), r.pid],
    ['xid-ts counter()', x.counter(), r.counter],
    ['xid-ts new Xid(bytes).encode()', new Xid(x.toBytes()).encode(), r.id],
  ];
}

const CHECKS = {
  constants: (r) => [
    ['NAMESPACE_DNS, _URL, _OID, _X500', r.namespace, NAMESPACES.join(' ')],
    ['UUID_NIL', r.id, NIL],
    ['UUID_MAX', r.uuid, MAX],
  ],
  uuid1: uuidChecks,
  uuid6: uuidChecks,
  uuid7: uuidChecks,
  uuid3: (r) => [['uuid v3(name, namespace)', v3(r.name, r.namespace), r.id], ...uuidChecks(r)],
  uuid5: (r) => [['uuid v5(name, namespace)', v5(r.name, r.namespace), r.id], ...uuidChecks(r)],
  // the uuid package has no SHA-256 form: its version and bytes only
  uuid8_sha256: uuidChecks,
  ksuid: (r) => {
    const k = KSUID.parse(r.id);
    return [
      ['ksuid parse().string', k.string, r.id],
      ['ksuid parse().date', k.date.getTime(), r.time],
      ['ksuid parse().payload', k.payload.toString('hex'), r.payload],
      ['ksuid fromParts(time, payload)', KSUID.fromParts(r.time, Buffer.from(r.payload, 'hex')).string, r.id],
    ];
  },
  snowflake_twitter: sapphireChecks(TwitterSnowflake),
  snowflake_discord: sapphireChecks(DiscordSnowflake),
  sonyflake: sonyflakeChecks,
  sonyflake_ms: sonyflakeChecks,
  snowflake_id: snowflakeIdChecks,
  objectid: objectidChecks,
  xid: xidChecks,
  cuid2: cuid2Checks,
  cuid2_reference: (r) => [
    ['@paralleldrive/cuid2 isCuid(id)', isCuid(r.id), true],
    ['mintid is_cuid2(id) of the reference\'s ID', r.valid, true],
  ],
  typeid: (r) => {
    const t = fromString(r.id);
    return [
      ['typeid-js getType(fromString(id))', getType(t), r.prefix],
      ['typeid-js toUUID(fromString(id))', toUUID(t), r.uuid],
      ['typeid-js TypeID.fromUUID(prefix, uuid)', TypeID.fromUUID(r.prefix, r.uuid).toString(), r.id],
      ['uuid validate(uuid)', validate(r.uuid), true],
    ];
  },
};

// A value for a message: JSON, a BigInt as its digits.
function show(v) {
  return typeof v === 'bigint' ? `${v}n` : JSON.stringify(v);
}

// The first failing check of a record as text, or null.
function firstFailure(r) {
  const checks = CHECKS[r.kind];
  if (!checks) return `no check for kind ${r.kind}`;
  let list;
  try {
    list = checks(r);
  } catch (e) {
    return `the reference refuses it: ${e.message.split('\n')[0]}`;
  }
  for (const [what, got, want] of list) {
    if (got !== want) return `${what} is ${show(got)}, mintid says ${show(want)}`;
  }
  return null;
}

const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l !== '');
let n = 0;
let failed = 0;
for (const line of lines) {
  n += 1;
  let r;
  try {
    r = JSON.parse(line);
  } catch (e) {
    console.log(`not ok ${n} - line ${n} is no JSON: ${e.message}`);
    failed += 1;
    continue;
  }
  const what = `${r.kind} ${r.id} (${r.origin === 'reference' ? 'minted by the reference, read by ' : ''}${r.module})`;
  const failure = firstFailure(r);
  if (r.corrupt) {
    if (failure) {
      console.log(`ok ${n} - corrupted ${what} is caught: ${failure}`);
    } else {
      console.log(`not ok ${n} - corrupted ${what} passes every check: the checks cannot fail`);
      failed += 1;
    }
  } else if (failure) {
    console.log(`not ok ${n} - ${what}: ${failure}`);
    failed += 1;
  } else {
    console.log(`ok ${n} - ${what}`);
  }
}
console.log(`1..${n}`);
process.exit(failed === 0 && n > 0 ? 0 : 1);
